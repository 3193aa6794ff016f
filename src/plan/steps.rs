//! The steps a plan is made of, each with every input it needs, resolved.
//!
//! Fields a user reads in `plan --format json` are serialised; what only the executor needs
//! (a credential, a CSV assembly spec, retry timings) is not, and a credential is shown only
//! by the name of the variable it came from.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use semver::Version;
use serde::{Serialize, Serializer};

use super::release_step::{GitHubJob, ReleaseStep};
use super::time::CreatedAt;
use crate::pipeline::OlderPolicy;
use olm_release_appregistry::Location;
use olm_release_appregistry::appr::Credentials;
use olm_release_http::HttpOptions;
use olm_release_http::retry::RetryPolicy;
use olm_release_olm::archive::{Layout, Limits};
use olm_release_olm::csv_build::spec::CsvSpec;
use olm_release_olm::validate::{Categories, Profile};

/// One step of a plan.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "step", rename_all = "kebab-case")]
pub(crate) enum Step {
    Preflight(PreflightStep),
    Render(Box<RenderStep>),
    FetchPrevious(FetchStep),
    Package(PackageStep),
    Verify(VerifyStep),
    Push(PushStep),
    Release(ReleaseStep),
    BundleImage(super::images::BundleImageStep),
    Catalog(super::catalog::CatalogStep),
    Operatorhub(Box<super::operatorhub::OperatorhubStep>),
    Migrate(Box<MigrateStep>),
    Import(Box<super::import::ImportStep>),
}

impl Step {
    /// The stage name, as pipelines and logs write it.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Step::Preflight(_) => "preflight",
            Step::Render(_) => "render",
            Step::FetchPrevious(_) => "fetch-previous",
            Step::Package(_) => "package",
            Step::Verify(_) => "verify",
            Step::Push(_) => "push",
            Step::Release(_) => "release",
            Step::BundleImage(_) => "bundle-image",
            Step::Catalog(_) => "catalog",
            Step::Operatorhub(_) => "operatorhub",
            Step::Migrate(_) => "migrate",
            Step::Import(_) => "import",
        }
    }
}

/// The app registry a step reads or writes, and how to talk to it.
#[derive(Debug, Clone)]
pub(crate) struct RegistryJob {
    pub(crate) location: Location,
    pub(crate) credentials: Option<Credentials>,
    pub(crate) http: HttpOptions,
    pub(crate) retry: RetryPolicy,
    /// How long a job whose release landed below a concurrently published higher one waits
    /// for that job to include it (`registry.concurrent_wait_seconds`).
    pub(crate) concurrent_wait: std::time::Duration,
}

impl Serialize for RegistryJob {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Shown<'a> {
            url: String,
            credentials: Option<&'a str>,
        }
        Shown {
            url: self.location.to_string(),
            credentials: self.credentials.as_ref().map(Credentials::source),
        }
        .serialize(s)
    }
}

/// Render the templates into `into`.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct RenderStep {
    /// The templates folder, resolved.
    pub(crate) templates: PathBuf,
    /// The templates folder as the pipeline names it (in messages and findings).
    #[serde(skip)]
    pub(crate) templates_shown: String,
    /// Sub-folder of the templates whose outputs form the bundle.
    pub(crate) bundle_dir: String,
    pub(crate) into: PathBuf,
    #[serde(skip)]
    pub(crate) source: PathBuf,
    #[serde(serialize_with = "super::json::as_text")]
    pub(crate) version: Version,
    pub(crate) package: String,
    pub(crate) channel: String,
    /// Every channel the release joins, `channel` first.
    #[serde(skip_serializing_if = "super::images::single")]
    pub(crate) channels: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) default_channel: Option<String>,
    /// `spec.skips` and `olm.skipRange` of the new CSV.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) skips: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) skip_range: Option<String>,
    /// The package file when it is read from outside the bundle folder (`render.package`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) package_file: Option<PathBuf>,
    /// A folder of CRDs outside the bundle folder (`render.crds`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) crds: Option<PathBuf>,
    pub(crate) created_at: CreatedAt,
    pub(crate) includes: BTreeMap<String, PathBuf>,
    /// Folders whose files templates insert as they are (`render.files`).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) files: BTreeMap<String, PathBuf>,
    pub(crate) vars: BTreeMap<String, serde_yaml_ng::Value>,
    /// The functions templates may call besides Go's builtins.
    pub(crate) functions: crate::pipeline::render_spec::TemplateFunctions,
    #[serde(skip)]
    pub(crate) csv: CsvSpec,
    /// `render.kustomize`: checked against a fresh build before rendering.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) kustomize: Option<crate::pipeline::render_spec::KustomizeSnapshot>,
    /// The pipeline file (where a createdAt warning points).
    #[serde(skip)]
    pub(crate) pipeline_file: String,
    /// The tag this release is made from (the CI's tag, else `release.tag`); `None` for an
    /// untagged build, whose images may well be `latest`.
    #[serde(skip)]
    pub(crate) release_tag: Option<String>,
}

/// Read what is published for the package (the app registry's default release, or the
/// catalog folder's channel heads) and decide what the new CSV replaces.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct FetchStep {
    /// Where the published heads are read.
    #[serde(flatten)]
    pub(crate) source: FetchSource,
    pub(crate) package: String,
    pub(crate) channel: String,
    /// Every channel the release joins, `channel` first; each gets the new CSV as its head.
    #[serde(skip_serializing_if = "super::images::single")]
    pub(crate) channels: Vec<String>,
    pub(crate) older: OlderPolicy,
    /// Show the diff against the published head normally (a dry-run), not only with `-v`.
    pub(crate) show_diff: bool,
    /// A CRD version the channel head serves may be removed (`verify.allow_removed_crd_versions`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) allow_removed_crd_versions: bool,
    /// The bundle image name the pipeline publishes and where it pushes it: a catalog head
    /// whose image is that name is read from there for the cluster diff.
    #[serde(skip)]
    pub(crate) head_images: Option<(String, super::images::ImageJob)>,
    /// Limits on reading the pulled blob (`--max-bundle-bytes`).
    #[serde(skip)]
    pub(crate) limits: Limits,
}

/// Where fetch-previous reads what is published: the app registry when the pipeline has a
/// `registry:` section; else the catalog folder of its `catalog:` section (a pipeline that
/// publishes only bundle images listed in a file-based catalog).
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "source", rename_all = "kebab-case")]
pub(crate) enum FetchSource {
    Registry {
        registry: Box<RegistryJob>,
        namespace: String,
        /// The catalog the plan's catalog step writes, whose channel head must agree with the
        /// app registry's decision (checked right after it).
        #[serde(skip)]
        catalog: Option<Arc<crate::settings::CatalogTarget>>,
        /// The plan pushes to this app registry: a `dir:` registry's publication lock is taken
        /// before the read and held to the push, so racing jobs on one folder read, decide and
        /// write one after the other.
        #[serde(skip)]
        lock: bool,
    },
    /// The catalog the catalog stage keeps (the plan's one catalog target).
    Catalog(super::catalog::CatalogSource),
}

impl FetchStep {
    /// The app registry and namespace read, when that is the source.
    pub(crate) fn registry(&self) -> Option<(&RegistryJob, &str)> {
        match &self.source {
            FetchSource::Registry {
                registry,
                namespace,
                ..
            } => Some((registry, namespace)),
            FetchSource::Catalog(_) => None,
        }
    }
}

/// Where the package step takes the bundle from.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "from", rename_all = "kebab-case")]
pub(crate) enum BundleSource {
    /// What render (and fetch-previous) built.
    Pipeline,
    /// A bundle folder, file or tarball someone has (`publish`); its package name must be
    /// `package`.
    Folder { path: PathBuf },
    /// The cumulative bundle of a package-manifest tree once its version folders up to
    /// `version` are published (`publish --history`).
    History {
        tree: PathBuf,
        #[serde(serialize_with = "super::json::as_text")]
        version: Version,
    },
}

/// Write the bundle folder and the reproducible tarball.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct PackageStep {
    pub(crate) bundle: BundleSource,
    /// The flat bundle folder written for people and courier (`None`: not written).
    pub(crate) folder: Option<PathBuf>,
    /// The `.tar.gz` written (`None`: kept in memory only).
    pub(crate) tarball: Option<PathBuf>,
    /// How the tarball is named in messages.
    pub(crate) shown: String,
    #[serde(serialize_with = "layout_name")]
    pub(crate) layout: Layout,
    /// Tar entry times (`SOURCE_DATE_EPOCH`, else 0).
    pub(crate) mtime: u64,
    pub(crate) package: String,
    #[serde(serialize_with = "super::json::as_text")]
    pub(crate) version: Version,
    /// The channel whose head the summary names (`None`: the bundle's default channel).
    pub(crate) channel: Option<String>,
    /// Show the bundle's contents normally (a dry-run), not only with `-v`.
    pub(crate) show_contents: bool,
    /// The verify step's profile: a bundle read one CSV at a time (`publish`) is checked per
    /// CSV as it is read, with the same rules the verify step then applies to the whole.
    #[serde(skip)]
    pub(crate) checks: VerifyStep,
    /// Limits on reading a [`BundleSource::Folder`] (`--max-bundle-bytes`).
    #[serde(skip)]
    pub(crate) limits: Limits,
}

/// Validate the packaged bundle and stop on any error.
#[derive(Debug, Clone, Default, Serialize)]
pub(crate) struct VerifyStep {
    pub(crate) profile: Profile,
    /// The OperatorHub rules too.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) operatorhub: bool,
    /// The categories accepted instead of the catalog's list (shown as the file's path).
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "categories_path"
    )]
    pub(crate) categories: Option<Categories>,
    /// Objects the cluster admin creates before installing (`verify.provided`, `Kind/name`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) provided: Vec<String>,
    /// Errors of olm-release's own the project ships anyway (`verify.accept`), with reasons.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) accepted: Vec<olm_release_olm::validate::accept::Acceptance>,
}

fn categories_path<S: serde::Serializer>(
    c: &Option<Categories>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    s.collect_str(
        &c.as_ref()
            .map_or_else(String::new, |c| c.path.display().to_string()),
    )
}

impl VerifyStep {
    /// The validator's options: the one place a step's profile becomes them, for the verify
    /// step and for the per-CSV checks of a folder `publish` reads one CSV at a time.
    pub(crate) fn options(&self) -> olm_release_olm::validate::Options {
        olm_release_olm::validate::Options {
            operatorhub: self.operatorhub,
            categories: self.categories.as_ref().map(|c| c.names.clone()),
            provided: self.provided.clone().into(),
            accepted: self.accepted.clone().into(),
            ..olm_release_olm::validate::Options::new(self.profile)
        }
    }
}

/// Ask each server once, with the credentials, before anything is written.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct PreflightStep {
    pub(crate) checks: Vec<Check>,
}

/// One cheap authenticated read.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "of", rename_all = "kebab-case")]
pub(crate) enum Check {
    /// The package's releases on the registry.
    Registry {
        registry: RegistryJob,
        namespace: String,
        package: String,
    },
    /// The repository's release list on GitHub.
    GitHub(GitHubJob),
    /// The bundle image's tag in its registry.
    Image {
        image: super::images::ImageJob,
        tag: String,
    },
}

/// Publish the verified bundle, idempotently by digest.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct PushStep {
    pub(crate) registry: RegistryJob,
    pub(crate) namespace: String,
    pub(crate) package: String,
    /// The release's name on the registry: its version.
    #[serde(serialize_with = "super::json::as_text")]
    pub(crate) release: Version,
    /// The channel whose head messages name (`None`: the bundle's default channel).
    pub(crate) channel: Option<String>,
    pub(crate) force: bool,
    /// Look the release up before pushing (a dry-run, to say what it would do; `--force`, so
    /// as not to overwrite an identical release). Otherwise a 409 answer is resolved instead.
    pub(crate) look_up_first: bool,
}

/// Migrate a package: read its releases, push a bundle image per CSV, write the catalog.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct MigrateStep {
    pub(crate) registry: RegistryJob,
    pub(crate) namespace: String,
    pub(crate) package: String,
    pub(crate) image: super::images::ImageJob,
    /// The name the catalog pins by digest; each CSV's image is tagged with its version.
    pub(crate) name: String,
    pub(crate) catalog: std::path::PathBuf,
    /// Tar entry times and the config's `created`.
    pub(crate) epoch: u64,
    pub(crate) force: bool,
    #[serde(skip)]
    pub(crate) show_diff: bool,
    /// Limits on reading each pulled release (`--max-bundle-bytes`).
    #[serde(skip)]
    pub(crate) limits: olm_release_olm::archive::Limits,
    /// How entries carry their manifests (`--bundle-objects`).
    pub(crate) style: olm_release_olm::fbc::ObjectStyle,
}

fn layout_name<S: Serializer>(l: &Layout, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(layout_str(*l))
}

pub(crate) fn layout_str(l: Layout) -> &'static str {
    match l {
        Layout::Flat => "flat",
        Layout::Nested => "nested",
    }
}
