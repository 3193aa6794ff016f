//! Resolved settings: the command line, the environment and the pipeline file, combined once.
//!
//! This is the only module that reads the environment (through the map `main` captures at
//! start-up). The pipeline file is read, checked and expanded ([`crate::pipeline`]); then every
//! value is turned into its type: relative paths resolved against the source folder, URLs
//! checked, the version parsed as strict SemVer, credentials read into [`Secret`]s, and
//! `release.options` parsed into the target's configuration. A value that cannot be turned
//! into its type is recorded as a [`Problem`] naming `FILE:LINE` (or the variable), and
//! resolution goes on, so the plan builder can report every problem at once. Only a pipeline
//! file that cannot be read or parsed at all stops here. Nothing downstream looks at clap or
//! the environment.

mod credentials;
mod images;
mod limits;
mod locate;
mod network;
mod notes;
mod options;
mod unread;
mod urls;
mod verify;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub(crate) use credentials::{github_problem, registry_problem};
pub(crate) use images::{BundleImageSettings, CatalogSettings, OCI_PASSWORD, OCI_USERNAME};
pub(crate) use limits::{bundle_limits, parse_size};
pub(crate) use network::network;
use network::{registry_http, registry_retry};
pub(crate) use notes::NotesSource;
pub(crate) use urls::{Target, is_loopback, resolve_path};

use crate::ci::CiContext;
use crate::cli::PipelineArgs;
use crate::error::{Problem, Result};
use crate::pipeline::model::AssetEntry;
use crate::pipeline::render_spec::RenderSpec;
use crate::pipeline::{self, OlderPolicy, StageName, Vars};
use olm_release_appregistry::Location;
use olm_release_appregistry::appr::Credentials;
use olm_release_base::secret::Secret;
use olm_release_http::HttpOptions;
use olm_release_http::retry::RetryPolicy;
use olm_release_olm::archive::{Layout, Limits};
use olm_release_targets::github::Config as GitHubConfig;

/// The process environment, captured once.
pub type Env = BTreeMap<String, String>;

/// Options of `run` that other commands do not have.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct RunMode {
    /// Skip every write to the registry and the release target.
    pub(crate) dry_run: bool,
    /// Overwrite a release already published with different content.
    pub(crate) force: bool,
}

/// Everything a pipeline command needs, resolved, with the problems found on the way.
#[derive(Debug, Clone)]
pub(crate) struct Settings {
    pub(crate) file: PipelineFile,
    pub(crate) name: String,
    pub(crate) package: Option<String>,
    /// The first of `channels`: the channel whose head the new CSV replaces.
    pub(crate) channel: Option<String>,
    /// Every channel the release joins (`channel:` or `channels:`), the first being `channel`.
    pub(crate) channels: Vec<String>,
    pub(crate) default_channel: Option<String>,
    pub(crate) skips: Vec<String>,
    pub(crate) skip_range: Option<String>,
    /// The verify profile and OperatorHub rules (`verify:`).
    pub(crate) verify: crate::pipeline::model::VerifySpec,
    /// The categories file `verify.categories` or `$OPERATOR_BUNDLE_CATEGORIES` names, read.
    pub(crate) categories: Option<olm_release_olm::validate::Categories>,
    /// `None` when the version is not strict SemVer (a problem says why).
    pub(crate) version: Option<semver::Version>,
    pub(crate) source: PathBuf,
    pub(crate) out: PathBuf,
    pub(crate) mode: RunMode,
    pub(crate) stages: Vec<StageName>,
    pub(crate) render: Option<RenderSpec>,
    pub(crate) registry: Option<RegistrySettings>,
    pub(crate) release: Option<ReleaseSettings>,
    pub(crate) bundle_image: Option<BundleImageSettings>,
    pub(crate) catalog: Option<CatalogSettings>,
    pub(crate) credentials: Creds,
    /// `SOURCE_DATE_EPOCH`, for reproducible timestamps.
    pub(crate) source_date_epoch: Option<u64>,
    pub(crate) ci: CiContext,
    /// Limits on the bundles read (the previous release's blob): `--max-bundle-bytes`.
    pub(crate) bundle_limits: Limits,
    /// What could not be resolved; the plan builder adds its own and reports them all.
    pub(crate) problems: Vec<Problem>,
    /// What is probably wrong but stops nothing (a `--var` the pipeline never reads).
    pub(crate) warnings: Vec<String>,
}

/// The pipeline file as shown in messages, and its text (to find the line of a key).
#[derive(Debug, Clone)]
pub(crate) struct PipelineFile {
    pub(crate) shown: String,
    text: String,
}

impl PipelineFile {
    /// `FILE:LINE` of the key at `path` (or of its nearest written ancestor), else `FILE`.
    pub(crate) fn at(&self, path: &[&str]) -> String {
        match locate::line_of(&self.text, path) {
            Some(line) => format!("{}:{line}", self.shown),
            None => self.shown.clone(),
        }
    }
}

/// The registry section, resolved.
#[derive(Debug, Clone)]
pub(crate) struct RegistrySettings {
    /// `None` when the URL is unusable (a problem says why).
    pub(crate) location: Option<Location>,
    pub(crate) namespace: String,
    pub(crate) older: OlderPolicy,
    pub(crate) layout: Layout,
    /// Timeouts and body limits of registry requests.
    pub(crate) http: HttpOptions,
    /// Retries of registry requests.
    pub(crate) retry: RetryPolicy,
    /// How long a job whose release landed below a concurrent higher one waits to be included.
    pub(crate) concurrent_wait: Duration,
}

/// The release section, resolved.
#[derive(Debug, Clone)]
pub(crate) struct ReleaseSettings {
    /// `None` when the target is unusable (a problem says why).
    pub(crate) target: Option<Target>,
    pub(crate) tag: String,
    pub(crate) assets: Vec<AssetEntry>,
    pub(crate) prerelease: bool,
    pub(crate) draft: bool,
    /// `release.options` of a `github:` target, parsed.
    pub(crate) github: GitHubConfig,
    /// Where the release notes come from (`release.notes`).
    pub(crate) notes: NotesSource,
}

/// Credentials from the environment (never printed).
#[derive(Debug, Clone, Default)]
pub(crate) struct Creds {
    pub(crate) registry: Option<Credentials>,
    pub(crate) github: Option<Secret>,
    /// The image registry's (`OCI_USERNAME` / `OCI_PASSWORD`).
    pub(crate) image: Option<olm_release_oci::Credentials>,
}

/// Resolves the settings of a command that reads a pipeline file. Fails only when the file
/// cannot be read or parsed; everything else lands in [`Settings::problems`].
pub(crate) fn resolve(args: &PipelineArgs, mode: RunMode, env: &Env) -> Result<Settings> {
    let vars = Vars {
        overrides: args.vars.iter().cloned().collect(),
        env: env.clone(),
    };
    let shown = args.pipeline.display().to_string();
    let text = pipeline::read(&args.pipeline)?;
    let p = pipeline::parse(&shown, &text, &vars)?;
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
            .map_or(crate::plan::CONCURRENT_WAIT, Duration::from_secs),
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
    let catalog = p
        .catalog
        .as_ref()
        .map(|spec| images::catalog(spec, &file, &source, &out, &mut problems));
    let image_credentials = images::credentials(env, &mut problems);
    let source_date_epoch = source_date_epoch(env)
        .map_err(|p| problems.push(p))
        .ok()
        .flatten();
    let verify_spec = p.verify.unwrap_or_default();
    let categories = verify::categories(&verify_spec, &file, &source, env, &mut problems);
    Ok(Settings {
        name: p.name,
        package: p.package,
        channel: channels.first().cloned(),
        channels,
        default_channel: p.default_channel,
        skips: p.skips,
        skip_range: p.skip_range,
        verify: verify_spec,
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
        credentials: Creds {
            registry: credentials::registry(env),
            github: credentials::github(env),
            image: image_credentials,
        },
        source_date_epoch,
        ci: CiContext::from_env(env),
        bundle_limits: limits::bundle_limits(None, env)
            .map_err(|p| problems.push(p))
            .unwrap_or_default(),
        problems,
        warnings,
        file,
    })
}

impl Settings {
    /// The settings with `--max-bundle-bytes` applied when it was given (it wins over the
    /// variable `resolve` read).
    pub(crate) fn with_max_bundle_bytes(mut self, flag: Option<u64>) -> Self {
        if flag.is_some() {
            self.bundle_limits = Limits::with_max_bytes(flag);
        }
        self
    }
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
