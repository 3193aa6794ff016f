//! The resolved settings as data: what every command that reads a pipeline file gets, typed,
//! with the problems found while resolving it.

use std::path::PathBuf;
use std::time::Duration;

use super::catalog::CatalogSettings;
use super::images::BundleImageSettings;
use super::inputs::PipelineFile;
use super::notes::NotesSource;
use super::urls::Target;
use crate::ci::CiContext;
use crate::error::Problem;
use crate::pipeline::model::AssetEntry;
use crate::pipeline::render_spec::RenderSpec;
use crate::pipeline::{OlderPolicy, StageName};
use olm_release_appregistry::Location;
use olm_release_appregistry::appr::Credentials;
use olm_release_base::secret::Secret;
use olm_release_github::Config as GitHubConfig;
use olm_release_http::HttpOptions;
use olm_release_http::retry::RetryPolicy;
use olm_release_olm::archive::{Layout, Limits};

/// The default of `registry.concurrent_wait_seconds`: how long a job whose release landed
/// below a concurrently published higher one waits for that job to include it.
pub(crate) const CONCURRENT_WAIT: Duration = Duration::from_secs(30);

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
    /// `verify.accept`, checked against the profile.
    pub(crate) accepted: Vec<olm_release_olm::validate::accept::Acceptance>,
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
    /// `operatorhub:` (`None` also when a key is unusable; a problem says why).
    pub(crate) operatorhub: Option<super::operatorhub::OperatorHubSettings>,
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
