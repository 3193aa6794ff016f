//! Resolved settings: the command line, the environment and the pipeline file, combined once.
//!
//! This is the only module that reads the environment (through the map `main` captures at
//! start-up). Relative paths are resolved against the source folder, URLs are checked, the
//! version is parsed as strict SemVer, stage order is checked, and credentials are read into
//! [`Secret`]s. Everything downstream gets a [`Settings`] and never looks at clap or `env`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use std::time::Duration;

use crate::ci::CiContext;
use crate::cli::PipelineArgs;
use crate::error::{Error, Result};
use crate::http::HttpOptions;
use crate::olm::archive::Layout;
use crate::pipeline::{self, OlderPolicy, Pipeline, RegistrySpec, StageName, Vars};
use crate::registry::Location;
use crate::registry::appr::Credentials;
use crate::retry::RetryPolicy;
use crate::secret::Secret;

/// The process environment, captured once.
pub type Env = BTreeMap<String, String>;

/// Everything a command needs, resolved.
#[derive(Debug, Clone)]
pub struct Settings {
    pub pipeline_file: PathBuf,
    pub pipeline: Pipeline,
    pub version: semver::Version,
    pub source: PathBuf,
    pub out: PathBuf,
    pub dry_run: bool,
    pub force: bool,
    pub stages: Vec<StageName>,
    pub registry: RegistrySettings,
    pub release: Option<ReleaseSettings>,
    /// `SOURCE_DATE_EPOCH`, for reproducible timestamps.
    pub source_date_epoch: Option<u64>,
    pub ci: CiContext,
}

#[derive(Debug, Clone)]
pub struct RegistrySettings {
    pub location: Location,
    pub namespace: String,
    pub credentials: Option<Credentials>,
    pub older: OlderPolicy,
    pub layout: Layout,
    /// Timeouts and body limits of registry requests.
    pub http: HttpOptions,
    /// Retries of registry requests.
    pub retry: RetryPolicy,
}

#[derive(Debug, Clone)]
pub struct ReleaseSettings {
    pub target: Target,
    pub tag: String,
    pub assets: Vec<String>,
    pub prerelease: bool,
    pub draft: bool,
    pub token: Option<Secret>,
}

/// Where release artifacts go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A local folder; assets land in `<path>/<tag>/`.
    Dir(PathBuf),
    /// A GitHub repository through the REST API at `api`.
    GitHub {
        api: String,
        owner: String,
        repo: String,
    },
}

/// Options of `run` that other commands do not have.
#[derive(Debug, Clone, Copy, Default)]
pub struct RunOptions {
    pub dry_run: bool,
    pub force: bool,
}

/// Resolves the settings of a command that reads a pipeline file.
pub fn resolve(args: &PipelineArgs, run: RunOptions, env: &Env) -> Result<Settings> {
    let vars = Vars {
        overrides: args.vars.iter().cloned().collect(),
        env: env.clone(),
    };
    let pipeline = pipeline::load(&args.pipeline, &vars)?;
    let origin = args.pipeline.display().to_string();
    let version = parse_version(&pipeline.version)
        .map_err(|e| Error::input(format!("{origin}: version: {e}")))?;
    check_stages(&origin, &pipeline.stages)?;
    let source = args.source.clone();
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| source.join("_out").join(&pipeline.name));
    let location = match Location::parse(&pipeline.registry.url)
        .map_err(|e| Error::input(format!("{origin}: registry.url: {e}")))?
    {
        Location::Dir(p) => Location::Dir(resolve_path(&source, &p)),
        Location::Http(u) => {
            check_url(&u, args.insecure)
                .map_err(|e| Error::input(format!("{origin}: registry.url: {e}")))?;
            Location::Http(u)
        }
    };
    let registry = RegistrySettings {
        location,
        namespace: pipeline.registry.namespace.clone(),
        credentials: registry_credentials(env),
        older: pipeline.registry.older,
        layout: pipeline.registry.layout,
        http: registry_http(&pipeline.registry),
        retry: registry_retry(&pipeline.registry),
    };
    let release = match &pipeline.release {
        None => None,
        Some(spec) => Some(ReleaseSettings {
            target: parse_target(
                &spec.target,
                spec.api_url.as_deref(),
                &source,
                args.insecure,
            )
            .map_err(|e| Error::input(format!("{origin}: release.target: {e}")))?,
            tag: spec.tag.clone(),
            assets: spec.assets.clone(),
            prerelease: spec.prerelease,
            draft: spec.draft,
            token: ["GITHUB_TOKEN", "GH_TOKEN"]
                .iter()
                .find_map(|k| env.get(*k))
                .filter(|v| !v.is_empty())
                .map(Secret::new),
        }),
    };
    if pipeline.stages.contains(&StageName::Release) && release.is_none() {
        return Err(Error::input(format!(
            "{origin}: the release stage needs a release: section"
        )));
    }
    let source_date_epoch = match env.get("SOURCE_DATE_EPOCH") {
        None => None,
        Some(v) => Some(v.parse().map_err(|_| {
            Error::input(format!(
                "SOURCE_DATE_EPOCH='{v}' is not a number of seconds"
            ))
        })?),
    };
    Ok(Settings {
        pipeline_file: args.pipeline.clone(),
        stages: pipeline.stages.clone(),
        pipeline,
        version,
        source,
        out,
        dry_run: run.dry_run,
        force: run.force,
        registry,
        release,
        source_date_epoch,
        ci: CiContext::from_env(env),
    })
}

/// Strict SemVer 2.0, with a hint for the usual mistakes.
pub fn parse_version(v: &str) -> std::result::Result<semver::Version, String> {
    semver::Version::parse(v).map_err(|e| {
        let hint = if v.starts_with('v') {
            " (drop the leading 'v', e.g. ${TRAVIS_TAG#v})"
        } else {
            " (expected MAJOR.MINOR.PATCH[-pre][+build])"
        };
        format!("'{v}' is not strict SemVer: {e}{hint}")
    })
}

/// A relative path resolved against the source folder.
pub fn resolve_path(source: &Path, p: &Path) -> PathBuf {
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        source.join(p)
    }
}

/// Stages must appear once each, in an order that respects what each needs.
fn check_stages(origin: &str, stages: &[StageName]) -> Result<()> {
    use StageName::*;
    let pos = |s: StageName| stages.iter().position(|x| *x == s);
    for (i, s) in stages.iter().enumerate() {
        if stages[..i].contains(s) {
            return Err(Error::input(format!(
                "{origin}: stages: '{s}' is listed twice"
            )));
        }
    }
    let needs: &[(StageName, &[StageName])] = &[
        (FetchPrevious, &[Render]),
        (Package, &[Render]),
        (Verify, &[Package]),
        (Push, &[Package, Verify]),
        (Release, &[Render]),
    ];
    for (stage, deps) in needs {
        let Some(at) = pos(*stage) else { continue };
        for dep in *deps {
            match pos(*dep) {
                Some(d) if d < at => {}
                _ => {
                    return Err(Error::input(format!(
                        "{origin}: stages: '{stage}' needs '{dep}' before it (a bundle is never pushed unverified)"
                    )));
                }
            }
        }
    }
    if let (Some(f), Some(p)) = (pos(FetchPrevious), pos(Package))
        && f > p
    {
        return Err(Error::input(format!(
            "{origin}: stages: 'fetch-previous' must come before 'package'"
        )));
    }
    Ok(())
}

/// Timeouts of registry requests: `registry.timeout_seconds` or the defaults.
pub fn registry_http(spec: &RegistrySpec) -> HttpOptions {
    let mut http = HttpOptions::default();
    if let Some(t) = spec.timeout_seconds {
        http.timeout = Duration::from_secs(t.max(1));
        http.connect_timeout = http.connect_timeout.min(http.timeout);
    }
    http
}

/// Retries of registry requests: `registry.retries` / `retry_max_seconds` or the defaults.
pub fn registry_retry(spec: &RegistrySpec) -> RetryPolicy {
    let mut retry = RetryPolicy::default();
    if let Some(n) = spec.retries {
        retry.max_attempts = n.saturating_add(1);
    }
    if let Some(t) = spec.retry_max_seconds {
        retry.max_total = Duration::from_secs(t);
    }
    retry
}

/// `QUAY_TOKEN`, or `QUAY_USERNAME` with `QUAY_PASSWORD`.
pub fn registry_credentials(env: &Env) -> Option<Credentials> {
    let get = |k: &str| env.get(k).filter(|v| !v.is_empty());
    if let Some(token) = get("QUAY_TOKEN") {
        return Some(Credentials::Token(Secret::new(token.clone())));
    }
    match (get("QUAY_USERNAME"), get("QUAY_PASSWORD")) {
        (Some(u), Some(p)) => Some(Credentials::Login {
            username: u.clone(),
            password: Secret::new(p.clone()),
        }),
        _ => None,
    }
}

fn parse_target(
    target: &str,
    api_url: Option<&str>,
    source: &Path,
    insecure: bool,
) -> std::result::Result<Target, String> {
    if let Some(path) = target.strip_prefix("dir:") {
        if path.is_empty() {
            return Err("dir: needs a path".into());
        }
        return Ok(Target::Dir(resolve_path(source, Path::new(path))));
    }
    if let Some(repo) = target.strip_prefix("github:") {
        let (owner, name) = repo
            .split_once('/')
            .filter(|(o, r)| !o.is_empty() && !r.is_empty() && !r.contains('/'))
            .ok_or_else(|| format!("'{target}': expected github:OWNER/REPO"))?;
        let api = api_url
            .unwrap_or("https://api.github.com")
            .trim_end_matches('/')
            .to_string();
        check_url(&api, insecure).map_err(|e| format!("api_url: {e}"))?;
        return Ok(Target::GitHub {
            api,
            owner: owner.into(),
            repo: name.into(),
        });
    }
    Err(format!(
        "'{target}' is neither dir:PATH nor github:OWNER/REPO"
    ))
}

/// `https://` anywhere; `http://` only on loopback, unless `insecure`. The host is the one an
/// HTTP client would connect to (parsed as a URL, so `http://localhost:80@evil.example` is
/// `evil.example`), and a URL holding credentials is refused outright.
pub fn check_url(url: &str, insecure: bool) -> std::result::Result<(), String> {
    let parsed =
        reqwest::Url::parse(url).map_err(|e| format!("'{url}' is not an http(s) URL ({e})"))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(format!("'{url}' is not an http(s) URL"));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(format!(
            "the URL of {} holds credentials (user:password@); remove them and use the environment (QUAY_TOKEN, GITHUB_TOKEN, …)",
            parsed.host_str().unwrap_or("the URL")
        ));
    }
    let host = parsed
        .host_str()
        .ok_or_else(|| format!("'{url}' has no host"))?;
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let loopback = bare.eq_ignore_ascii_case("localhost")
        || bare
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    if parsed.scheme() == "https" || loopback || insecure {
        Ok(())
    } else {
        Err(format!(
            "'{url}' uses plain http:// on a non-loopback host; use https:// or pass --insecure"
        ))
    }
}
