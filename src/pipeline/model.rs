//! The pipeline file's shape. Unknown keys are errors everywhere (`deny_unknown_fields`).
//!
//! Only string values are expanded (`${VAR}` forms); see [`super::interpolate`]. Sections that a
//! pipeline's stages do not use may be left out (a release-only pipeline has no `render`,
//! `registry`, `package` or `channel`); the plan builder names the stage that needs a missing
//! one.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use crate::pipeline::render_spec::RenderSpec;
use olm_release_olm::archive::Layout;
use olm_release_olm::validate::Profile;

/// A whole pipeline file.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Pipeline {
    /// A name for the pipeline, used in messages and the default output folder.
    pub name: String,
    /// The OLM package name, which is also the app-registry repository.
    #[serde(default)]
    pub package: Option<String>,
    /// The OLM channel this pipeline publishes to (or use `channels`).
    #[serde(default)]
    pub channel: Option<String>,
    /// The OLM channels this release joins, each with its own head (instead of `channel`);
    /// the first is the one whose head the CSV `replaces`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub channels: Vec<String>,
    /// The package's `defaultChannel` (one of the package's channels).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_channel: Option<String>,
    /// `spec.skips` of the new CSV: CSV names it replaces besides its `replaces`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skips: Vec<String>,
    /// The `olm.skipRange` annotation of the new CSV, e.g. `>=0.1.0 <0.3.0`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skip_range: Option<String>,
    /// The release version (strict SemVer; a leading `v` is an error, use `${TAG#v}`).
    pub version: String,
    /// How to render the manifests.
    #[serde(default)]
    pub render: Option<RenderSpec>,
    /// Where the bundle is published.
    #[serde(default)]
    pub registry: Option<RegistrySpec>,
    /// Where release artifacts are attached (optional).
    #[serde(default)]
    pub release: Option<ReleaseSpec>,
    /// How the bundle is validated (the verify stage; `verify` and `publish` take the same as
    /// options).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verify: Option<VerifySpec>,
    /// Where the registry+v1 bundle image is pushed (the `bundle-image` stage).
    #[serde(default)]
    pub bundle_image: Option<BundleImageSpec>,
    /// The file-based catalog the bundle image is added to (the `catalog` stage).
    #[serde(default)]
    pub catalog: Option<CatalogSpec>,
    /// The community catalog pull request (the `operatorhub` stage).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operatorhub: Option<OperatorHubSpec>,
    /// The stages to run, in order.
    pub stages: Vec<StageName>,
    /// Other jobs of the same pipeline: by name, the keys each replaces (`--variant NAME`).
    /// Empty once a pipeline is parsed: the chosen variant is merged in.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub variants: BTreeMap<String, serde_yaml_ng::Value>,
}

/// The `verify:` section.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct VerifySpec {
    /// The validation profile: `appregistry-2019` (default) or `modern`.
    #[serde(default)]
    pub profile: Profile,
    /// Also the OperatorHub rules (courier's `--ui_validate_io`, or api's OperatorHub
    /// validator).
    #[serde(default)]
    pub operatorhub: bool,
    /// A categories file (JSON `{"categories": ["Name", ...]}`) whose names are accepted instead
    /// of the catalog's list, relative to the source folder; default `$OPERATOR_BUNDLE_CATEGORIES`,
    /// as `verify --categories`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub categories: Option<String>,
    /// Let a release stop listing a CRD version the channel head serves (default `false`: an
    /// error, since the objects stored in that version would be stranded).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allow_removed_crd_versions: bool,
    /// Objects the cluster admin creates in the install namespace before installing, as
    /// `Kind/name` (`Secret`, `ConfigMap`, `PersistentVolumeClaim` or `ServiceAccount`): a
    /// Deployment naming one is not refused by `deployment-references`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub provided: Vec<String>,
    /// Errors of olm-release's own rules the project ships anyway, each with its reason: they
    /// are reported as warnings that carry it. Only rules no upstream tool enforces under the
    /// profile (`verify --list-rules`: `olm-release only`) can be accepted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub accept: Vec<AcceptSpec>,
}

/// One entry of `verify.accept`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AcceptSpec {
    /// The rule's id, e.g. `crd-conversion-schemas`.
    pub rule: String,
    /// The object (`metadata.name`) it is accepted for; every finding of the rule without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
    /// Why the project ships it anyway (required; the warning says it).
    pub because: String,
}

/// The app registry target.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RegistrySpec {
    /// `dir:PATH` (embedded registry) or the CNR base URL, e.g. `https://quay.io/cnr`.
    pub url: String,
    /// The registry namespace (Quay organisation).
    pub namespace: String,
    /// What to do when the new version is below the channel head (a z-stream on an older
    /// branch): `refuse` (default, exit 1) or `skip` (publish nothing, exit 0).
    #[serde(default)]
    pub older: OlderPolicy,
    /// Tarball layout: `flat` (default) or `nested`.
    #[serde(default)]
    pub layout: Layout,
    /// Retries of one registry request after a connection error, a timeout, a 5xx or a 429
    /// (never after another 4xx). Default 4.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retries: Option<u32>,
    /// Bound on the time one request may take with its retries and waits, in seconds.
    /// Default 120.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_max_seconds: Option<u64>,
    /// Timeout of one registry request, in seconds. Default 60.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_seconds: Option<u64>,
    /// How long a job whose release landed below a concurrently published higher one waits for
    /// that job to include it before withdrawing its own release, in seconds. Default 30.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrent_wait_seconds: Option<u64>,
}

pub use olm_release_olm::decision::OlderPolicy;

/// The release target for artifacts.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ReleaseSpec {
    /// `dir:PATH` (a folder per tag) or `github:OWNER/REPO`.
    pub target: String,
    /// The tag of the release, e.g. `v${VERSION}`.
    pub tag: String,
    /// The files to attach: rendered file names, `{csv}` for this release's CSV, or
    /// `{file: PATH}` for a file of the source folder.
    #[serde(default)]
    pub assets: Vec<AssetEntry>,
    /// Mark the GitHub release as a pre-release.
    #[serde(default)]
    pub prerelease: bool,
    /// Leave the GitHub release as a draft.
    #[serde(default)]
    pub draft: bool,
    /// GitHub API base URL (GitHub Enterprise: `https://HOST/api/v3`).
    #[serde(default)]
    pub api_url: Option<String>,
    /// The release notes: `changelog` (this version's section of `CHANGELOG.md`), `summary`
    /// (the semantic summary against the previous head), `none`, or a file of the source
    /// folder. Default: `changelog` when the source has a `CHANGELOG.md`, else `summary`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// Settings of the target by name (strings), checked by `settings` against what the target
    /// knows.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, String>,
}

/// The bundle image target.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct BundleImageSpec {
    /// `oci:PATH` (an OCI image layout folder) or `[http://|https://]HOST[:PORT]/REPOSITORY`.
    pub target: String,
    /// The tag pushed; default: the version (a `+` written as `_`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    /// The image name the catalog pins by digest; default: the registry target. Required for
    /// an `oci:` target (e.g. `quay.io/example/sample-operator-bundle`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
}

/// The file-based catalog, and where it is kept (its target).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CatalogSpec {
    /// Where the catalog is kept: `dir:PATH` (a folder inside the source or the output folder),
    /// `git:URL` (a folder of a branch of a git repository: any URL or path the `git` CLI
    /// reaches), `image:HOST[:PORT]/REPOSITORY:TAG` or `image:oci:PATH:TAG` (a catalog image).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// The catalog folder: the same as `target: dir:PATH` (kept for pipelines written before
    /// `target`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dir: Option<String>,
    /// git targets: the branch (default: the remote's default branch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// git targets: the catalog folder inside the repository (default `catalog`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// git targets: the commit's author, `Name <email>` (default
    /// `olm-release <olm-release@users.noreply.github.com>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// image targets: the opm base image, pinned by digest (`HOST/REPOSITORY@sha256:…`, or
    /// `oci:PATH@sha256:…`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_image: Option<String>,
    /// git targets on GitHub: propose the change as a pull request instead of pushing it to the
    /// branch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pull_request: Option<PullRequestSpec>,
    /// At most how many times a job tries again after another job moved the target between
    /// the read and the write (git and image targets). Default: as many times as
    /// `publish_deadline_seconds` allows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retries: Option<u32>,
    /// git and image targets: how long after its first lost compare-and-swap a job keeps
    /// trying again, in seconds (exponential backoff with jitter between attempts). Default
    /// 300.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publish_deadline_seconds: Option<u64>,
    /// git targets: how long one git command that talks to the remote (`ls-remote`, `fetch`,
    /// `push`) may take before it is stopped, in seconds. Default 120 (the image registries'
    /// retry budget).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_max_seconds: Option<u64>,
    /// Names of bundles this release's entry skips; added to the CSV's `spec.skips` too, so the
    /// CSV in the bundle image says what its catalog entry says.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skips: Vec<String>,
    /// The entry's `skipRange`, set as the CSV's `olm.skipRange` annotation too (default: the
    /// CSV's; a top-level `skip_range` must be the same).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skip_range: Option<String>,
    /// When fetch-previous reads this catalog (a pipeline without `registry:`), what to do
    /// when the new version is below a channel head: `refuse` (default, exit 1) or `skip`
    /// (publish nothing, exit 0).
    #[serde(default)]
    pub older: OlderPolicy,
    // Entries, templates and deprecations.
    /// Write each entry's manifests as `olm.bundle.object` properties (what `opm render` writes
    /// without a migration) instead of one `olm.csv.metadata` property; unset: as the package's
    /// existing entries are written, `olm.csv.metadata` for a new package.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bundle_objects: Option<bool>,
    /// A catalog template kept in the source (`olm.template.basic` or `olm.semver`): the release
    /// is added to it and it is rendered into `dir`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<String>,
    /// What this release deprecates, recorded in the package's `olm.deprecations`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deprecate: Vec<DeprecateSpec>,
}

/// One entry of `catalog.deprecate`: exactly one of `bundle`, `channel` or `package: true`, and
/// the message users see.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DeprecateSpec {
    /// A bundle of the package (its CSV's `metadata.name`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bundle: Option<String>,
    /// A channel of the package.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<String>,
    /// The whole package.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub package: bool,
    /// Why, and what to use instead.
    pub message: String,
}

/// `catalog.pull_request`: the catalog change proposed as a GitHub pull request.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PullRequestSpec {
    /// The repository the pull request is opened on, `OWNER/REPO` (default: read from a
    /// `github.com` target URL).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repository: Option<String>,
    /// The fork the branch is pushed to, `OWNER/REPO` (default: the repository itself).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fork: Option<String>,
    /// The pull request's branch (default `olm-release/<package>-<version>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// The pull request's title (default `<package> <version>: add it to the catalog`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Open it as a draft.
    #[serde(default)]
    pub draft: bool,
    /// The GitHub REST API base (GitHub Enterprise: `https://HOST/api/v3`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_url: Option<String>,
}

/// The `operatorhub:` section: the `operatorhub` stage's pull request to a community catalog.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct OperatorHubSpec {
    /// The community catalog repository, `OWNER/REPO` (default
    /// `k8s-operatorhub/community-operators`; or `redhat-openshift-ecosystem/community-operators-prod`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repository: Option<String>,
    /// The fork the branch is pushed to, `OWNER/REPO` (required: the community repositories
    /// take pull requests from forks).
    pub fork: String,
    /// The branch the pull request targets (default: the repository's default branch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
    /// The pull request's branch (default `olm-release/<package>-<version>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// The pull request's title (default `operator <package> (<version>)`, the form the
    /// community pipelines expect).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The commit's author and `Signed-off-by:` line, `Name <email>` (required: the community
    /// repositories check the DCO sign-off).
    pub author: String,
    /// Open it as a draft.
    #[serde(default)]
    pub draft: bool,
    /// The GitHub REST API base (GitHub Enterprise: `https://HOST/api/v3`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_url: Option<String>,
}

/// One entry of `release.assets`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum AssetEntry {
    /// A rendered file's exact name, or `{csv}`.
    Name(String),
    /// A file of the source folder, attached under its base name.
    File(FileAsset),
}

/// `- file: PATH` in `release.assets`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FileAsset {
    /// Relative to `--source`.
    pub file: String,
}

/// A pipeline stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StageName {
    /// Render the templates.
    Render,
    /// Read the registry's default release; decide `replaces`.
    FetchPrevious,
    /// Write the bundle folder and the tarball.
    Package,
    /// Validate the bundle.
    Verify,
    /// Publish the bundle to the registry.
    Push,
    /// Attach the assets to the release target.
    Release,
    /// Build the registry+v1 bundle image and push it.
    BundleImage,
    /// Add the bundle image to the file-based catalog.
    Catalog,
    /// Propose the bundle to a community catalog (OperatorHub) as a pull request.
    Operatorhub,
}

impl StageName {
    /// The name as pipelines write it.
    pub fn as_str(self) -> &'static str {
        match self {
            StageName::Render => "render",
            StageName::FetchPrevious => "fetch-previous",
            StageName::Package => "package",
            StageName::Verify => "verify",
            StageName::Push => "push",
            StageName::Release => "release",
            StageName::BundleImage => "bundle-image",
            StageName::Catalog => "catalog",
            StageName::Operatorhub => "operatorhub",
        }
    }
}

impl std::fmt::Display for StageName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
