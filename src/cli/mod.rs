//! The command line: clap types only, a doc line on every argument. Nothing here runs anything;
//! `settings` turns these into resolved settings and `app` runs the command. Domain enums
//! (the validation profile, the tarball layout) are parsed here by name, so the domain needs no
//! clap.

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum, ValueHint};

mod registry;

pub(crate) use registry::{PackageFlags, RegistryCommand, RegistryTarget};

use olm_release_olm::archive::Layout;
use olm_release_olm::validate::Profile;
use olm_release_olm::validate::accept::Acceptance;

/// `--version` output: the crate version and the commit it was built from.
pub(crate) const VERSION_LINE: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("OLM_RELEASE_COMMIT"),
    ")"
);

/// Run the release pipeline of an operator published through OLM: bundle images and file-based
/// catalogs, and the 2019 app registries.
#[derive(Debug, Parser)]
#[command(name = "olm-release", version = VERSION_LINE, propagate_version = true)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
    /// More detail (repeat for more).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub(crate) verbose: u8,
    /// Only errors and the final summary.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub(crate) quiet: bool,
    /// Output format: human lines on stderr, or a JSON summary on stdout (`graph --help` lists
    /// its drawing formats).
    #[arg(long, global = true, default_value = "human", value_parser = format_parser())]
    pub(crate) format: Format,
    /// Largest bundle read, uncompressed (a .tar.gz's tar, a bundle.yaml, a folder's YAML
    /// files): bytes, or with a KiB/MiB/GiB suffix [default: 64MiB, or
    /// OLM_RELEASE_MAX_BUNDLE_BYTES]. See the book, docs/src/limits.md.
    #[arg(long, global = true, value_name = "SIZE", value_parser = parse_size)]
    pub(crate) max_bundle_bytes: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// Lines for people (on stderr; `plan`, `verify` and `graph` print to stdout).
    Human,
    /// JSON on stdout.
    Json,
    /// Graphviz, for `graph`.
    Dot,
    /// Mermaid, for `graph`.
    Mermaid,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Run the pipeline's stages.
    Run(RunArgs),
    /// Print the resolved steps (inputs, versions, targets) and whether OLM v0 and OLM v1
    /// install the release, without touching anything.
    Plan(RunArgs),
    /// Render the manifests only, into --out.
    Render(PipelineArgs),
    /// Validate a bundle folder, a flattened bundle.yaml or a .tar.gz.
    Verify(VerifyArgs),
    /// Compare two registry+v1 bundle folders as data, object by object (exit 0 equal, 1
    /// different).
    Diff(DiffArgs),
    /// Draw a package's upgrade graph per channel (text, --format dot or --format mermaid).
    Graph(GraphArgs),
    /// Print the objects OLM v1 applies for a registry+v1 bundle folder, as one YAML stream.
    InstallManifests(InstallManifestsArgs),
    /// Print the version for an alpha build: after the last release, before the next one.
    NextVersion(NextVersionArgs),
    /// Scaffold an operator repository: release and alpha pipelines and a CI configuration.
    Init(InitArgs),
    /// Print shell completions for olm-release (bash, zsh, fish, elvish, powershell).
    Completions(CompletionsArgs),
    /// Print the man page of olm-release (roff): every command, the pipeline file, exit codes,
    /// environment variables and examples; --dir writes a page per command.
    Man(ManArgs),
    /// Inspect a 2019 app registry (Quay, appr or dir:): list, show, pull, channels, delete.
    #[command(subcommand)]
    Registry(RegistryCommand),
    /// Package, verify and push a bundle folder as one release to a 2019 app registry: the
    /// pipeline's package, verify and push stages on their own, without a pipeline file.
    Publish(PublishArgs),
    /// Migrate a package from an app registry: one bundle image per CSV and the file-based
    /// catalog that keeps the same upgrade graph.
    Migrate(MigrateArgs),
    /// Import a package of OperatorHub's community layout (operators/PACKAGE: ci.yaml, one
    /// bundle folder per version, catalog-templates/): every version's bundle image and catalog
    /// entry, in SemVer order.
    Import(ImportArgs),
}

#[derive(Debug, Args)]
pub(crate) struct ImportArgs {
    /// The package folder, e.g. operators/widget-operator of a community-operators checkout.
    #[arg(value_hint = ValueHint::DirPath)]
    pub(crate) dir: PathBuf,
    /// Where the bundle images go: oci:PATH or HOST[:PORT]/REPOSITORY (each tagged with its
    /// CSV's version). Credentials come from OCI_USERNAME and OCI_PASSWORD.
    #[arg(long, value_name = "TARGET")]
    pub(crate) image_target: String,
    /// The image name the catalog pins by digest (default: the registry target; required with
    /// an oci: target), e.g. quay.io/example/widget-operator-bundle.
    #[arg(long, value_name = "NAME")]
    pub(crate) image: Option<String>,
    /// The catalog to write: dir:PATH (or a plain folder), git:URL (a folder of a branch; see
    /// --catalog-branch and --catalog-path) or image:REF:TAG (a catalog image; see
    /// --base-image), as a pipeline's catalog.target.
    #[arg(long, value_name = "TARGET")]
    pub(crate) catalog: String,
    /// With a git: catalog, the branch (default: the remote's default branch).
    #[arg(long, value_name = "BRANCH")]
    pub(crate) catalog_branch: Option<String>,
    /// With a git: catalog, the catalog folder in the repository [default: catalog].
    #[arg(long, value_name = "PATH")]
    pub(crate) catalog_path: Option<String>,
    /// With an image: catalog, the opm base image pinned by digest, as catalog.base_image.
    #[arg(long, value_name = "REF@DIGEST")]
    pub(crate) base_image: Option<String>,
    /// With a git: catalog on GitHub, propose the catalog as a pull request instead of pushing
    /// it, as catalog.pull_request: opened on the repository of the git: URL (or
    /// --pull-request-repository) from the branch olm-release/PACKAGE-import of the fork (the
    /// token in GITHUB_TOKEN or GH_TOKEN).
    #[arg(long)]
    pub(crate) pull_request: bool,
    /// The repository the pull request is opened on, OWNER/REPO [default: read from a github.com
    /// git: URL].
    #[arg(long, value_name = "OWNER/REPO", requires = "pull_request")]
    pub(crate) pull_request_repository: Option<String>,
    /// The fork the pull request's branch is pushed to, OWNER/REPO [default: the repository].
    #[arg(long, value_name = "OWNER/REPO", requires = "pull_request")]
    pub(crate) pull_request_fork: Option<String>,
    /// GitHub's REST API base [default: https://api.github.com; GitHub Enterprise:
    /// https://HOST/api/v3].
    #[arg(long, value_name = "URL", requires = "pull_request")]
    pub(crate) github_api: Option<String>,
    /// Read every version and build every image, then print what would be pushed and the
    /// catalog diff instead of writing.
    #[arg(long)]
    pub(crate) dry_run: bool,
    /// Overwrite a tag that holds another image, and a catalog entry listing another image.
    #[arg(long)]
    pub(crate) force: bool,
    /// Write each entry's manifests as olm.bundle.object properties instead of one
    /// olm.csv.metadata property.
    #[arg(long)]
    pub(crate) bundle_objects: bool,
    /// Allow plain http:// targets on a host other than loopback.
    #[arg(long)]
    pub(crate) insecure: bool,
}

#[derive(Debug, Args)]
pub(crate) struct DiffArgs {
    /// A registry+v1 bundle folder (manifests/, metadata/), e.g. the project's bundle/.
    #[arg(value_hint = ValueHint::DirPath)]
    pub(crate) a: PathBuf,
    /// The bundle folder compared with A, e.g. a release's bundle-image folder.
    #[arg(value_hint = ValueHint::DirPath)]
    pub(crate) b: PathBuf,
    /// Leave out what every release changes in the CSV: metadata.name, spec.version,
    /// spec.replaces, the createdAt and containerImage annotations, and the image of every
    /// container, init container and related image.
    #[arg(long)]
    pub(crate) ignore_release_fields: bool,
}

#[derive(Debug, Args)]
pub(crate) struct MigrateArgs {
    #[command(flatten)]
    pub(crate) at: RegistryTarget,
    /// The registry namespace (Quay organisation), e.g. kubevirt.
    #[arg(long)]
    pub(crate) namespace: String,
    /// The package (app repository) whose releases are migrated.
    #[arg(long)]
    pub(crate) package: String,
    /// Where the bundle images go: oci:PATH or HOST[:PORT]/REPOSITORY (each tagged with its
    /// CSV's version). Credentials come from OCI_USERNAME and OCI_PASSWORD.
    #[arg(long, value_name = "TARGET")]
    pub(crate) image_target: String,
    /// The image name the catalog pins by digest (default: the registry target; required with
    /// an oci: target), e.g. quay.io/kubevirt/kubevirt-bundle.
    #[arg(long, value_name = "NAME")]
    pub(crate) image: Option<String>,
    /// The catalog folder to write (this package's documents in it are replaced).
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub(crate) catalog: PathBuf,
    /// Read everything and build every image, then print what would be pushed and the catalog
    /// diff instead of writing.
    #[arg(long)]
    pub(crate) dry_run: bool,
    /// Overwrite a tag that holds another image.
    #[arg(long)]
    pub(crate) force: bool,
    /// Write each entry's manifests as olm.bundle.object properties (what opm render writes
    /// without a migration) instead of one olm.csv.metadata property.
    #[arg(long)]
    pub(crate) bundle_objects: bool,
}

#[derive(Debug, Args)]
pub(crate) struct PublishArgs {
    /// The bundle folder: flat (package file, every CSV, each CRD) or nested (one folder per
    /// version).
    pub(crate) dir: PathBuf,
    #[command(flatten)]
    pub(crate) at: RegistryTarget,
    /// The registry namespace (Quay organisation), e.g. kubevirt.
    #[arg(long)]
    pub(crate) namespace: String,
    /// The package (app repository); must equal the bundle's packageName.
    #[arg(long)]
    pub(crate) package: String,
    /// The release to publish, strict SemVer (e.g. 0.22.0); with --history, each version
    /// folder's own.
    #[arg(long, value_name = "VERSION", required_unless_present = "history")]
    pub(crate) release: Option<String>,
    /// DIR is a package-manifest tree (the package file at the top, one folder per version):
    /// publish every version in SemVer order, each release cumulative, as the tree says.
    #[arg(long, conflicts_with = "release")]
    pub(crate) history: bool,
    /// Package and verify, then print the exact push request instead of sending it.
    #[arg(long)]
    pub(crate) dry_run: bool,
    /// Overwrite a release already published with different content.
    #[arg(long)]
    pub(crate) force: bool,
    /// Tarball layout: one flattened bundle.yaml, or the package plus a folder per version.
    #[arg(long, default_value = "flat", value_parser = layout_parser())]
    pub(crate) layout: Layout,
    /// The validation profile, as for `verify` (the same checks `verify DIR` runs).
    #[arg(long, default_value = "appregistry-2019", value_parser = profile_parser())]
    pub(crate) profile: Profile,
    /// Also the OperatorHub rules, as for `verify`.
    #[arg(long)]
    pub(crate) operatorhub: bool,
    /// Accept these categories instead of the catalog's list, as for `verify`.
    #[arg(long, value_name = "FILE", env = "OPERATOR_BUNDLE_CATEGORIES")]
    pub(crate) categories: Option<PathBuf>,
    /// An object the cluster admin creates before installing, as for `verify` (repeatable).
    #[arg(long, value_name = "KIND/NAME", value_parser = provided_parser)]
    pub(crate) provided: Vec<String>,
    /// An error of olm-release's own to report as a warning, as for `verify` (repeatable).
    #[arg(long, value_name = "RULE:OBJECT=WHY", value_parser = accept_parser)]
    pub(crate) accept: Vec<Acceptance>,
}

#[derive(Debug, Args)]
pub(crate) struct GraphArgs {
    /// A bundle folder, bundle.yaml, .tar.gz or a file-based catalog folder; omit to read
    /// --registry instead.
    #[arg(required_unless_present = "registry")]
    pub(crate) bundle: Option<PathBuf>,
    /// An app registry (dir:PATH or the CNR base URL) whose default release is drawn.
    #[arg(long, requires_all = ["namespace", "package"], conflicts_with = "bundle")]
    pub(crate) registry: Option<String>,
    /// The registry namespace, with --registry.
    #[arg(long)]
    pub(crate) namespace: Option<String>,
    /// The package (app repository), with --registry; with a catalog folder holding several
    /// packages, the one to draw.
    #[arg(long)]
    pub(crate) package: Option<String>,
    /// Output format: a text drawing, JSON, Graphviz dot or Mermaid (the same argument as the
    /// global --format, with the drawing formats added).
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub(crate) format: Format,
    /// Allow a plain http:// --registry URL on a host other than loopback.
    #[arg(long, requires = "registry")]
    pub(crate) insecure: bool,
}

#[derive(Debug, Args)]
pub(crate) struct InstallManifestsArgs {
    /// A registry+v1 bundle folder (manifests/ and metadata/), or a bundle image:
    /// oci:PATH[:TAG|@sha256:…] or HOST/REPOSITORY[:TAG|@sha256:…] (OCI_USERNAME and
    /// OCI_PASSWORD when set).
    #[arg(value_name = "BUNDLE")]
    pub(crate) bundle: String,
    /// The namespace the operator is installed into (a ClusterExtension's spec.namespace).
    #[arg(long, value_name = "NS")]
    pub(crate) install_namespace: String,
    /// The one namespace the operator watches (its watchNamespace): the install namespace for
    /// OwnNamespace, another for SingleNamespace; default: all namespaces.
    #[arg(long, value_name = "NS")]
    pub(crate) watch_namespace: Option<String>,
    /// A deploymentConfig (YAML or JSON, as in a ClusterExtension's config.inline) applied to
    /// every Deployment.
    #[arg(long, value_name = "FILE")]
    pub(crate) deployment_config: Option<PathBuf>,
    /// Who provides the webhooks' serving certificates.
    #[arg(long, value_enum, default_value_t = CertificateProviderArg::CertManager)]
    pub(crate) certificate_provider: CertificateProviderArg,
}

/// `--certificate-provider` of `install-manifests`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum CertificateProviderArg {
    /// cert-manager (OLM v1's default).
    CertManager,
    /// OpenShift's service CA operator.
    OpenshiftServiceCa,
}

#[derive(Debug, Args)]
pub(crate) struct NextVersionArgs {
    /// The last release tag (e.g. v0.22.0); default: the highest release tag reachable from
    /// HEAD in --source, or on a release branch cut from its history.
    #[arg(long)]
    pub(crate) last: Option<String>,
    /// Count pre-release tags (v1.2.0-rc1, v1.14.0-unstable) as releases; by default they are
    /// skipped.
    #[arg(long)]
    pub(crate) pre_releases: bool,
    /// The branch being built: a release branch (release-1.17, release-1.2.x, release/0.22)
    /// builds the next patch, X.Y.(Z+1)-alpha.N. Default: the CI's branch, else git's.
    #[arg(long, value_name = "NAME")]
    pub(crate) branch: Option<String>,
    /// The CI build number that orders alpha builds (e.g. $TRAVIS_BUILD_NUMBER).
    #[arg(long)]
    pub(crate) build: u64,
    /// The git checkout to read tags from (it needs the history and the tags, not a shallow
    /// clone).
    #[arg(long, value_name = "DIR", default_value = ".", value_hint = ValueHint::DirPath)]
    pub(crate) source: PathBuf,
}

#[derive(Debug, Args)]
pub(crate) struct InitArgs {
    /// The operator repository to scan.
    #[arg(long, value_name = "DIR", default_value = ".", value_hint = ValueHint::DirPath)]
    pub(crate) source: PathBuf,
    /// Write the files under DIR instead of the repository, to review them first (their paths
    /// stay relative to the repository: run them with --source).
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub(crate) out: Option<PathBuf>,
    /// Replace files you changed since init wrote them (without it they are kept and named as
    /// conflicts; files still as init wrote them are refreshed either way).
    #[arg(long)]
    pub(crate) force: bool,
    /// The OLM package; default: the bundle's annotations or the package file.
    #[arg(long)]
    pub(crate) package: Option<String>,
    /// The channels releases go to, comma-separated (stable,stable-v1.5; the first is the one
    /// whose head a release replaces); default: the Makefile's CHANNELS, else the bundle's
    /// channels or the package file's default channel, else alpha.
    #[arg(long, value_name = "CHANNEL[,CHANNEL…]")]
    pub(crate) channel: Option<String>,
    /// The package's default channel; default: the Makefile's DEFAULT_CHANNEL, else the
    /// bundle's or the package file's.
    #[arg(long, value_name = "CHANNEL")]
    pub(crate) default_channel: Option<String>,
    /// The organisation of the bundle image (and of the app registry), lowercased; default:
    /// the GitHub owner.
    #[arg(long)]
    pub(crate) namespace: Option<String>,
    /// The GitHub repository whose releases get the assets, OWNER/REPO; default: the origin
    /// remote's.
    #[arg(long, value_name = "OWNER/REPO")]
    pub(crate) github: Option<String>,
    /// The CI configurations to write (repeatable); default: those of the CI the repository
    /// uses (.github/workflows/, .travis.yml, .gitlab-ci.yml), none if it uses none.
    #[arg(long, value_enum)]
    pub(crate) ci: Vec<CiKind>,
    /// The operator to release when the repository holds several (init lists them): a
    /// package, the name of the operator's Deployment, or a bundle folder (bundle/stable)
    /// where the repository holds several flavours of one package.
    #[arg(long, value_name = "NAME|PATH")]
    pub(crate) operator: Option<String>,
    /// Also publish to an app registry (the 2019 path: Quay's CNR API), besides the bundle
    /// image and the catalog.
    #[arg(long)]
    pub(crate) app_registry: bool,
}

/// A CI service `init` writes a configuration for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum CiKind {
    /// `.travis.yml`.
    Travis,
    /// `.github/workflows/olm-release.yml` (GitHub Actions).
    Github,
    /// `.gitlab/olm-release.gitlab-ci.yml`, for `.gitlab-ci.yml` to include (GitLab CI/CD).
    Gitlab,
    /// No CI configuration.
    None,
}

#[derive(Debug, Args)]
pub(crate) struct ManArgs {
    /// Write olm-release.1 and one olm-release-COMMAND.1 per command into DIR (created if
    /// missing) instead of printing the single page.
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub(crate) dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub(crate) shell: clap_complete::Shell,
}

/// Arguments shared by every command that reads a pipeline file.
#[derive(Debug, Args)]
pub struct PipelineArgs {
    /// The pipeline file (YAML), e.g. pipelines/sample.yaml.
    pub pipeline: PathBuf,
    /// Run a variant of the pipeline: the keys its `variants.NAME` section replaces merged
    /// over the file, e.g. --variant alpha.
    #[arg(long, value_name = "NAME")]
    pub variant: Option<String>,
    /// Set a variable, overriding the environment (repeatable), e.g. --var VERSION=0.2.0.
    #[arg(long = "var", value_name = "KEY=VALUE", value_parser = parse_var)]
    pub vars: Vec<(String, String)>,
    /// The operator's source folder; relative paths in the pipeline resolve against it.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub source: PathBuf,
    /// The output folder for rendered files and the bundle (default: `_out/` + the pipeline's
    /// name).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Allow http:// registry or GitHub URLs on hosts other than loopback (set from `run` and
    /// `plan`'s --insecure; `render` uses no network).
    #[arg(skip)]
    pub insecure: bool,
}

/// `run` and `plan`: a pipeline file and the run's mode.
#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    #[command(flatten)]
    pub(crate) common: PipelineArgs,
    /// Do everything except the writes to the registry and the release target; print each
    /// skipped write (with plan: plan such a run).
    #[arg(long)]
    pub(crate) dry_run: bool,
    /// Overwrite a release already published with different content.
    #[arg(long)]
    pub(crate) force: bool,
    /// Allow http:// registry or GitHub URLs on hosts other than loopback.
    #[arg(long)]
    pub(crate) insecure: bool,
}

#[derive(Debug, Args)]
pub(crate) struct VerifyArgs {
    /// A bundle folder (a flat bundle, or a package tree with one folder per version), a
    /// flattened bundle.yaml, or a bundle .tar.gz.
    #[arg(required_unless_present = "list_rules")]
    pub(crate) path: Option<PathBuf>,
    /// Which tools' rules apply: appregistry-2019 (operator-courier 2.1.11 and the registry
    /// loader), modern (operator-framework/api and opm validate) or olm-v1 (modern and what OLM
    /// v1, operator-controller, refuses or does not support) [default: modern for a
    /// registry+v1 bundle folder (manifests/ and metadata/), appregistry-2019 otherwise].
    #[arg(long, value_parser = profile_parser())]
    pub(crate) profile: Option<Profile>,
    /// Also enforce OperatorHub's rules as errors (courier's --ui_validate_io, api's
    /// OperatorHub validator).
    #[arg(long)]
    pub(crate) operatorhub: bool,
    /// Accept these categories instead of the catalog's list: a JSON file
    /// {"categories": ["Name", ...]}, as operator-framework/api's OPERATOR_BUNDLE_CATEGORIES.
    #[arg(long, value_name = "FILE", env = "OPERATOR_BUNDLE_CATEGORIES")]
    pub(crate) categories: Option<PathBuf>,
    /// An object the cluster admin creates in the install namespace before installing, as
    /// KIND/NAME (Secret, ConfigMap, PersistentVolumeClaim or ServiceAccount; repeatable): a
    /// Deployment naming it is not refused by deployment-references.
    #[arg(long, value_name = "KIND/NAME", value_parser = provided_parser)]
    pub(crate) provided: Vec<String>,
    /// An error of olm-release's own rules the project ships anyway, reported as a warning with
    /// the reason WHY (repeatable; :OBJECT, one object by metadata.name, and =WHY may be left
    /// out). Only rules no upstream tool enforces under the profile can be accepted (verify
    /// --list-rules: "olm-release only").
    #[arg(long, value_name = "RULE:OBJECT=WHY", value_parser = accept_parser)]
    pub(crate) accept: Vec<Acceptance>,
    /// Print the rule catalogue (each rule, the tools that enforce it, its level per profile)
    /// and exit; with --format json as JSON.
    #[arg(long)]
    pub(crate) list_rules: bool,
}

/// `--profile` by name (the domain's [`Profile`] has no clap).
fn profile_parser() -> impl TypedValueParser<Value = Profile> {
    PossibleValuesParser::new(["appregistry-2019", "modern", "olm-v1"]).map(|s| match s.as_str() {
        "modern" => Profile::Modern,
        "olm-v1" => Profile::OlmV1,
        _ => Profile::Appregistry2019,
    })
}

/// The global `--format`: human or json (`graph` has its own `--format` with dot and mermaid;
/// both fill the same value, so `--format json` works before or after any command).
fn format_parser() -> impl TypedValueParser<Value = Format> {
    PossibleValuesParser::new(["human", "json"]).map(|s| match s.as_str() {
        "json" => Format::Json,
        _ => Format::Human,
    })
}

/// `--layout` by name (the domain's [`Layout`] has no clap).
fn layout_parser() -> impl TypedValueParser<Value = Layout> {
    PossibleValuesParser::new(["flat", "nested"]).map(|s| match s.as_str() {
        "nested" => Layout::Nested,
        _ => Layout::Flat,
    })
}

fn parse_var(s: &str) -> Result<(String, String), String> {
    let (k, v) = s
        .split_once('=')
        .ok_or_else(|| format!("'{s}' is not KEY=VALUE"))?;
    if k.is_empty() || !k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!(
            "'{k}' is not a variable name (letters, digits, '_')"
        ));
    }
    Ok((k.to_string(), v.to_string()))
}

/// `1048576`, `512KiB`, `64MiB`, `1GiB` (also `K`, `M`, `G`, `KB`, `MB`, `GB` as powers of 1024):
/// `--max-bundle-bytes`, and the variable that stands in for it.
pub(crate) fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (n, unit) = t.split_at(digits);
    let not_a_size = || format!("'{s}' is not a size (e.g. 67108864, 64MiB, 1GiB)");
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        _ => return Err(not_a_size()),
    };
    let n: u64 = n.parse().map_err(|_| not_a_size())?;
    match n.checked_mul(1 << shift) {
        Some(0) => Err("the size must be more than 0".into()),
        Some(v) => Ok(v),
        None => Err(format!("'{s}' is too large")),
    }
}

/// `--accept RULE[:OBJECT][=BECAUSE]`: a rule of the catalogue (whether the profile lets it be
/// accepted is the command's to check, once the profile is known).
fn accept_parser(value: &str) -> Result<Acceptance, String> {
    let (what, because) = match value.split_once('=') {
        Some((what, because)) if !because.trim().is_empty() => (what, because.trim()),
        Some(_) => return Err(format!("{value:?}: the reason after = is empty")),
        None => (value, "accepted with --accept"),
    };
    let (rule, object) = match what.split_once(':') {
        Some((rule, object)) if !object.is_empty() => (rule, Some(object.to_string())),
        Some(_) => return Err(format!("{value:?}: the object after : is empty")),
        None => (what, None),
    };
    if olm_release_olm::validate::rules::by_id(rule).is_none() {
        return Err(format!(
            "there is no rule {rule:?} (verify --list-rules lists them)"
        ));
    }
    Ok(Acceptance {
        rule: rule.to_string(),
        object,
        because: because.to_string(),
    })
}

/// `--provided KIND/NAME`: one of the kinds a Deployment names, and a name.
fn provided_parser(value: &str) -> Result<String, String> {
    olm_release_olm::validate::check_provided(value).map(|()| value.to_string())
}
