//! Resolving a pipeline command's settings: the pipeline file read and parsed, then every value
//! turned into its type, the problems collected.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;

use super::catalog::TargetRun;
use super::inputs::{Env, PipelineFile};
use super::model::{CONCURRENT_WAIT, Creds, RegistrySettings, ReleaseSettings, RunMode, Settings};
use super::network::{registry_http, registry_retry};
use super::urls::Target;
use super::{
    catalog, catalog_keys, credentials, images, limits, notes, operatorhub, options, unread, urls,
    verify,
};
use crate::ci::CiContext;
use crate::cli::PipelineArgs;
use crate::error::{Problem, Problems, Result};
use crate::pipeline::{self, PipelineError, Select, Uses, Vars};
use olm_release_appregistry::Location;
use olm_release_appregistry::appr::Credentials;
use olm_release_github::Config as GitHubConfig;

/// Resolves the settings of a command that reads a pipeline file, reading what `uses` says the
/// command reads. Fails only when the file cannot be read or parsed, or variables it reads are
/// unset (every one of them named); everything else lands in [`Settings::problems`].
pub(crate) fn resolve(
    args: &PipelineArgs,
    mode: RunMode,
    env: &Env,
    uses: Uses,
) -> Result<Settings> {
    let vars = Vars {
        overrides: args.vars.iter().cloned().collect(),
        env: env.clone(),
    };
    let shown = args.pipeline.display().to_string();
    let text = pipeline::read(&args.pipeline)?;
    let select = Select {
        variant: args.variant.as_deref(),
        uses,
    };
    let p = match pipeline::parse_as(&shown, &text, &vars, &select) {
        Ok(p) => p,
        Err(PipelineError::Variables(all)) => {
            return Err(Problems(
                all.into_iter()
                    .map(|u| Problem::new(u.at, u.source.to_string()))
                    .collect(),
            )
            .into());
        }
        Err(e) => return Err(e.into()),
    };
    let warnings = unread::warnings(&shown, &text, &vars.overrides);
    let file = PipelineFile { shown, text };
    let mut problems = Vec::new();
    let version = match parse_version(&p.version) {
        Ok(v) => Some(v),
        Err(e) => {
            problems.push(Problem::new(file.at(&["version"]), format!("version: {e}")));
            None
        }
    };
    let source = args.source.clone();
    // Outputs land under the current folder, never inside --source (someone else's checkout).
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("_out").join(&p.name));
    let channels = match (&p.channel, p.channels.as_slice()) {
        (Some(c), []) => vec![c.clone()],
        (None, list) => list.to_vec(),
        (Some(_), _) => {
            problems.push(Problem::new(
                file.at(&["channels"]),
                "channel and channels are both set; keep one (channels: [a, b] lists every channel, the first one's head is replaced)",
            ));
            p.channels.clone()
        }
    };
    for (i, c) in channels.iter().enumerate() {
        if channels[..i].contains(c) {
            problems.push(Problem::new(
                file.at(&["channels"]),
                format!("channels: '{c}' is listed twice"),
            ));
        }
    }
    let registry = p.registry.as_ref().map(|spec| RegistrySettings {
        location: urls::location(&spec.url, &source, args.insecure)
            .map_err(|e| {
                let at = file.at(&["registry", "url"]);
                problems.push(Problem::new(at, format!("registry.url: {e}")));
            })
            .ok(),
        namespace: spec.namespace.clone(),
        older: spec.older,
        layout: spec.layout,
        http: registry_http(spec),
        retry: registry_retry(spec),
        concurrent_wait: spec
            .concurrent_wait_seconds
            .map_or(CONCURRENT_WAIT, Duration::from_secs),
    });
    let release = p.release.as_ref().map(|spec| {
        let target = urls::target(
            &spec.target,
            spec.api_url.as_deref(),
            &source,
            args.insecure,
        )
        .map_err(|e| {
            let at = file.at(&["release", "target"]);
            problems.push(Problem::new(at, format!("release.target: {e}")));
        })
        .ok();
        let at = |key: &str| file.at(&["release", "options", key]);
        let github = match &target {
            Some(Target::Dir(_)) => {
                problems.extend(options::dir(&spec.options, at));
                GitHubConfig::default()
            }
            _ => {
                let (config, found) = options::github(&spec.options, at);
                problems.extend(found);
                config
            }
        };
        ReleaseSettings {
            target,
            tag: spec.tag.clone(),
            assets: spec.assets.clone(),
            prerelease: spec.prerelease,
            draft: spec.draft,
            github,
            notes: notes::source(spec.notes.as_deref(), &source),
        }
    });
    let bundle_image = p
        .bundle_image
        .as_ref()
        .map(|spec| images::bundle_image(spec, &file, &source, args.insecure, &mut problems));
    // What a catalog target needs besides its keys, read here and reported below in order.
    let (mut image_problems, mut epoch_problems, mut git_problems, mut base_problems) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let image_credentials = images::credentials(env, &mut image_problems);
    let source_date_epoch = source_date_epoch(env)
        .map_err(|p| epoch_problems.push(p))
        .ok()
        .flatten();
    let git_credentials = credentials::git(env, &mut git_problems);
    let base_limits = limits::base_limits(env, &mut base_problems);
    let shown_version = version
        .as_ref()
        .map(ToString::to_string)
        .unwrap_or_default();
    let shown_package = p.package.clone().unwrap_or_default();
    let stamp = || epoch(source_date_epoch, &source).0;
    let catalog = p.catalog.as_ref().map(|spec| {
        let run = TargetRun {
            epoch: &stamp,
            git: git_credentials.clone(),
            github: credentials::github(env),
            image: image_credentials.clone(),
            scratch: out.clone(),
            patience: catalog_keys::patience(spec),
            budget: catalog_keys::git_budget(spec),
            base_limits,
            pull_branch: format!(
                "olm-release/{shown_package}-{}",
                shown_version.replace('+', "_")
            ),
            pull_title: format!("{shown_package} {shown_version}: add it to the catalog"),
        };
        catalog::catalog(
            spec,
            &file,
            &source,
            &out,
            args.insecure,
            &run,
            &mut problems,
        )
    });
    let operatorhub = p
        .operatorhub
        .as_ref()
        .and_then(|spec| operatorhub::operatorhub(spec, &file, args.insecure, &mut problems));
    let (skips, skip_range) = images::csv_edges(
        &p.skips,
        p.skip_range.as_deref(),
        p.catalog.as_ref(),
        &file,
        &mut problems,
    );
    problems.append(&mut image_problems);
    problems.append(&mut epoch_problems);
    let verify_spec = p.verify.unwrap_or_default();
    let categories = verify::categories(&verify_spec, &file, &source, env, &mut problems);
    verify::provided(&verify_spec, &file, &mut problems);
    let accepted = verify::accepted(&verify_spec, &file, &mut problems);
    problems.append(&mut git_problems);
    let bundle_limits = limits::bundle_limits(None, env)
        .map_err(|p| problems.push(p))
        .unwrap_or_default();
    problems.append(&mut base_problems);
    Ok(Settings {
        name: p.name,
        package: p.package,
        channel: channels.first().cloned(),
        channels,
        default_channel: p.default_channel,
        skips,
        skip_range,
        verify: verify_spec,
        accepted,
        categories,
        version,
        source,
        out,
        mode,
        stages: p.stages,
        render: p.render,
        registry,
        release,
        bundle_image,
        catalog,
        operatorhub,
        credentials: Creds {
            registry: credentials::registry(env),
            github: credentials::github(env),
            image: image_credentials,
        },
        source_date_epoch,
        ci: CiContext::from_env(env),
        bundle_limits,
        problems,
        warnings,
        file,
    })
}

/// Strict SemVer 2.0, with a hint for the usual mistakes.
pub(crate) fn parse_version(v: &str) -> std::result::Result<semver::Version, String> {
    semver::Version::parse(v).map_err(|e| {
        let hint = if v.starts_with('v') {
            " (drop the leading 'v', e.g. ${TRAVIS_TAG#v})"
        } else {
            " (expected MAJOR.MINOR.PATCH[-pre][+build])"
        };
        format!("'{v}' is not strict SemVer: {e}{hint}")
    })
}

/// `SOURCE_DATE_EPOCH` alone, for commands without a pipeline file (`publish`).
pub(crate) fn source_date_epoch(env: &Env) -> std::result::Result<Option<u64>, Problem> {
    match env.get("SOURCE_DATE_EPOCH") {
        None => Ok(None),
        Some(v) => v.parse().map(Some).map_err(|_| {
            Problem::new(
                "SOURCE_DATE_EPOCH",
                format!("'{v}' is not a number of seconds"),
            )
        }),
    }
}

/// `SOURCE_DATE_EPOCH` for a command without a pipeline file: 0 when unset (the archive and
/// image times then say 1970, reproducibly); a value that is not a number is added to
/// `problems` (and 0 stands in, so every other problem is still found).
pub(crate) fn epoch_or_zero(env: &Env, problems: &mut Vec<Problem>) -> u64 {
    source_date_epoch(env)
        .map_err(|p| problems.push(p))
        .ok()
        .flatten()
        .unwrap_or(0)
}

/// Registry credentials alone, for commands without a pipeline file.
pub(crate) fn registry_credentials(env: &Env) -> Option<Credentials> {
    credentials::registry(env)
}

/// Image registry credentials alone (`OCI_USERNAME` / `OCI_PASSWORD`), for `migrate`.
pub(crate) fn image_credentials(
    env: &Env,
    problems: &mut Vec<Problem>,
) -> Option<olm_release_oci::Credentials> {
    images::credentials(env, problems)
}

/// `dir:PATH` or a checked URL, for commands that take `--registry`.
pub(crate) fn registry_location(
    url: &str,
    insecure: bool,
) -> std::result::Result<Location, String> {
    urls::location(url, Path::new(""), insecure)
}

/// The time a run stamps on what it makes: `SOURCE_DATE_EPOCH`, else the commit time of the
/// source folder's `HEAD`, else the UNIX epoch; and where it came from.
pub(crate) fn epoch(epoch: Option<u64>, source: &Path) -> (u64, TimeSource) {
    match epoch {
        Some(e) => (e, TimeSource::SourceDateEpoch),
        None => match git_commit_time(source) {
            Some(e) => (e, TimeSource::GitCommit),
            None => (0, TimeSource::Epoch),
        },
    }
}

fn git_commit_time(source: &Path) -> Option<u64> {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(source)
        .args(["log", "-1", "--format=%ct", "HEAD"])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    String::from_utf8_lossy(&out.stdout).trim().parse().ok()
}

/// Where a run's time came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum TimeSource {
    /// `SOURCE_DATE_EPOCH`.
    SourceDateEpoch,
    /// The commit time of the source folder's `HEAD`.
    GitCommit,
    /// Neither: the UNIX epoch (render reports a warning).
    Epoch,
}
