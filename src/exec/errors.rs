//! What can go wrong in each step, one enum per step, each variant with its class: a bad
//! template, bundle folder or asset name is an input error (exit 2); a decision the registry's
//! state forces (an older version, a conflict), an invalid bundle or a server's refusal is a
//! stage failure (exit 1). Registry and GitHub errors stay attached as sources.

use std::path::PathBuf;

use crate::error::{Class, Kind};
use crate::olm::archive::{ReadError, WriteError};
use crate::registry::RegistryError;

/// A step's own failure.
#[derive(Debug, thiserror::Error)]
pub(crate) enum StepError {
    #[error(transparent)]
    Render(#[from] RenderError),
    #[error(transparent)]
    Fetch(#[from] FetchError),
    #[error(transparent)]
    Package(#[from] PackageError),
    #[error(transparent)]
    Verify(#[from] VerifyError),
    #[error(transparent)]
    Push(#[from] PushError),
    #[error(transparent)]
    Assets(#[from] AssetError),
    #[error(transparent)]
    Preflight(#[from] PreflightError),
    #[error(transparent)]
    Catalog(#[from] CatalogInvalid),
    #[error(transparent)]
    Heads(#[from] HeadsDiffer),
    #[error(transparent)]
    Converge(#[from] super::converge::ConvergeError),
}

impl StepError {
    pub(crate) fn class(&self) -> Class {
        match self {
            StepError::Render(e) => e.class(),
            StepError::Fetch(e) => e.class(),
            StepError::Package(e) => e.class(),
            StepError::Verify(_) => Class::Stage,
            StepError::Push(e) => e.class(),
            StepError::Assets(e) => e.class(),
            StepError::Preflight(e) => e.class(),
            StepError::Catalog(_) | StepError::Heads(_) => Class::Stage,
            StepError::Converge(e) => e.class(),
        }
    }
}

macro_rules! into_error {
    ($($t:ty),*) => {$(
        impl From<$t> for Kind {
            fn from(e: $t) -> Kind {
                Kind::StepFailed(e.into())
            }
        }
    )*};
}
into_error!(
    RenderError,
    FetchError,
    PackageError,
    VerifyError,
    PushError,
    AssetError,
    CatalogInvalid,
    HeadsDiffer,
    PreflightError,
    super::converge::ConvergeError
);

/// Rendering the templates and reading the bundle out of them.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RenderError {
    #[error(transparent)]
    Template(#[from] crate::template::Error),
    #[error("assembling the CSV: {0}")]
    Parts(#[source] crate::olm::csv_build::CsvError),
    /// Setting the assembled parts into the CSV of `file`.
    #[error("{file}: {source}")]
    Apply {
        file: String,
        #[source]
        source: crate::olm::csv_build::CsvError,
    },
    /// A rendered file that is not YAML (the message names it).
    #[error("{0}")]
    Yaml(String),
    #[error("{file}: the CSV has no metadata.name")]
    NoCsvName { file: String },
    #[error("{file}: writing the CSV: {message}")]
    WriteCsv { file: String, message: String },
    #[error("{}: no templates found (render.templates)", dir.display())]
    NoTemplates { dir: PathBuf },
    #[error("{file}: package file: {message}")]
    PackageFile { file: String, message: String },
    #[error("{file}: a second package file in the bundle")]
    SecondPackage { file: String },
    #[error(
        "{file}: {kind} does not belong in a bundle (OLM installs only the CSV, the package file and {allowed}); move it out of the bundle folder"
    )]
    Unexpected {
        file: String,
        kind: String,
        allowed: String,
    },
    #[error(
        "the bundle folder '{dir}' must render exactly one CSV, found {found} (render.bundle names the folder; '.' is the templates folder itself)"
    )]
    CsvCount { dir: String, found: usize },
    #[error(
        "the bundle folder '{dir}' has no package file (packageName); name one elsewhere with render.package"
    )]
    NoPackage { dir: String },
}

impl RenderError {
    pub(crate) fn class(&self) -> Class {
        match self {
            RenderError::WriteCsv { .. } => Class::Stage,
            _ => Class::Input,
        }
    }
}

/// Reading the previous release and deciding what the new CSV replaces.
#[derive(Debug, thiserror::Error)]
pub(crate) enum FetchError {
    #[error("reading the releases of {at} (fetch-previous): {source}")]
    Read {
        at: String,
        #[source]
        source: RegistryError,
    },
    #[error("pulling release {release} of {at}: {source}")]
    Pull {
        release: String,
        at: String,
        #[source]
        source: RegistryError,
    },
    /// The pulled blob cannot be read as a bundle: the registry's failure (exit 1).
    #[error("release {release} of {at}: {source}")]
    Unpack {
        release: String,
        at: String,
        #[source]
        source: ReadError,
    },
    #[error(
        "release {release} of {at} is package '{found}', not '{package}'; refusing to build on another package's bundle"
    )]
    OtherPackage {
        release: String,
        at: String,
        found: String,
        package: String,
    },
    #[error("{csv}: spec.version is not SemVer")]
    NotSemver { csv: String },
    #[error(
        "release {release} is broken: channel {channel} names head {head}, which is not in its bundle"
    )]
    MissingHead {
        release: String,
        channel: String,
        head: String,
    },
    #[error("release {release}: {head} has no SemVer spec.version")]
    HeadVersion { release: String, head: String },
    /// `at`: where the head is (`release 0.3.0` of the app registry, or `the catalog DIR`);
    /// `why`: why that refuses it, and the fix.
    #[error(
        "{csv} (version {version}) is older than {head} (version {head_version}), the head of channel \
         {channel} in {at}. {why}"
    )]
    Older {
        csv: String,
        version: String,
        head: String,
        head_version: String,
        channel: String,
        at: String,
        why: &'static str,
    },
    #[error(
        "{csv} is already published (release {release}) and differs from what this run rendered: {changes}. \
         A published CSV is immutable, so it can join another channel only unchanged: publish these changes \
         as a new version, or render the published CSV to add it to the channel"
    )]
    PublishedChanged {
        csv: String,
        release: String,
        changes: String,
    },
    #[error(
        "channel {channel} has head {head} in release {release}; {csv} is already published and cannot become \
         its head because its replaces is fixed (it neither replaces nor skips {head}); publish a new version \
         that replaces {head}"
    )]
    ChannelHeaded {
        channel: String,
        head: String,
        csv: String,
        release: String,
    },
    /// The catalog fetch-previous reads breaks `opm validate`'s rules: its heads cannot be
    /// trusted (`first` names the file and document).
    #[error(
        "the catalog {dir} has {}, so fetch-previous cannot tell what this release replaces; nothing was written. First: {first}. Correct the catalog (or restore it from version control) and run again",
        crate::words::count(*.errors, "error")
    )]
    CatalogInvalid {
        dir: String,
        errors: usize,
        first: String,
    },
}

impl FetchError {
    pub(crate) fn class(&self) -> Class {
        match self {
            FetchError::Read { source, .. } | FetchError::Pull { source, .. } => source.class(),
            _ => Class::Stage,
        }
    }
}

/// Reading a bundle folder and packing the tarball.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PackageError {
    /// The bundle folder, file or tarball `publish` was given cannot be read as a bundle.
    #[error(transparent)]
    Read(ReadError),
    #[error(
        "{}: the bundle's packageName is '{found}', but --package is '{package}'; OLM finds a package by \
         its packageName, so publish it under that name", path.display()
    )]
    OtherPackage {
        path: PathBuf,
        found: String,
        package: String,
    },
    /// A package-manifest tree (`publish --history`) that cannot be read.
    #[error("{0}")]
    History(String),
    /// Laying out, flattening or packing the bundle.
    #[error(transparent)]
    Pack(WriteError),
    /// Writing the bundle folder.
    #[error(transparent)]
    Folder(WriteError),
}

impl PackageError {
    pub(crate) fn class(&self) -> Class {
        match self {
            PackageError::Read(e) => e.class(),
            PackageError::OtherPackage { .. } | PackageError::History(_) => Class::Input,
            PackageError::Pack(e) | PackageError::Folder(e) => e.class(),
        }
    }
}

/// An invalid bundle: nothing is pushed or released.
#[derive(Debug, thiserror::Error)]
#[error(
    "the bundle has {} and {} under profile {profile}; nothing was pushed or released. First: {first}",
    crate::words::count(*.errors, "error"),
    crate::words::count(*.warnings, "warning")
)]
pub(crate) struct VerifyError {
    pub(crate) errors: usize,
    pub(crate) warnings: usize,
    pub(crate) profile: &'static str,
    pub(crate) first: String,
}

/// A catalog that would not pass `opm validate`: nothing is written to it.
#[derive(Debug, thiserror::Error)]
#[error(
    "the catalog {dir} would have {} with this bundle; nothing was written to it. First: {first}",
    crate::words::count(*.errors, "error")
)]
pub(crate) struct CatalogInvalid {
    pub(crate) dir: String,
    pub(crate) errors: usize,
    pub(crate) first: String,
}

/// The app registry and the catalog folder name different heads for the channel.
#[derive(Debug, thiserror::Error)]
#[error(
    "channel {channel} has two different heads: {registry} says {registry_head}, the catalog {catalog} says {catalog_head}; \
     publishing {csv} to both would fork the upgrade graph, so nothing was written (bring them in line first: \
     `olm-release migrate` rebuilds the catalog from the app registry, or publish the missing release to the side that lacks it, then run again)"
)]
pub(crate) struct HeadsDiffer {
    pub(crate) channel: String,
    pub(crate) registry: String,
    pub(crate) registry_head: String,
    pub(crate) catalog: String,
    pub(crate) catalog_head: String,
    pub(crate) csv: String,
}

/// Publishing the bundle and proving it.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PushError {
    /// Looking the release up (before or after the push).
    #[error(transparent)]
    Lookup(#[from] RegistryError),
    #[error(
        "release {release} of {namespace}/{package} is already published with different content (published sha256:{published}, \
         this bundle sha256:{ours}); nothing was pushed. Bump the version, or pass --force to overwrite it"
    )]
    Conflict {
        release: String,
        namespace: String,
        package: String,
        published: String,
        ours: String,
    },
    #[error(
        "the registry refused release {release} of {namespace}/{package} as existing (409), but does not list it"
    )]
    ExistsUnlisted {
        release: String,
        namespace: String,
        package: String,
    },
    /// The push failed; `state` says where things stand after looking again.
    #[error("pushing release {release} of {namespace}/{package}: {source}; {state}")]
    Failed {
        release: String,
        namespace: String,
        package: String,
        state: String,
        #[source]
        source: RegistryError,
    },
    #[error("pulling release {release} back: {source}")]
    PullBack {
        release: String,
        #[source]
        source: RegistryError,
    },
    #[error("pulled release {release} back: {source}")]
    Unreadable {
        release: String,
        #[source]
        source: ReadError,
    },
    #[error(
        "pulled release {release} of {namespace}/{package} back, but its digest is sha256:{pulled}, not sha256:{digest}"
    )]
    Pulled {
        release: String,
        namespace: String,
        package: String,
        pulled: String,
        digest: String,
    },
}

impl PushError {
    pub(crate) fn class(&self) -> Class {
        match self {
            PushError::Lookup(e) | PushError::Failed { source: e, .. } => e.class(),
            _ => Class::Stage,
        }
    }
}

/// Resolving the release's assets to files.
#[derive(Debug, thiserror::Error)]
pub(crate) enum AssetError {
    #[error("release.assets: '{name}' matches {} files ({}); name exactly one", files.len(), files.join(", "))]
    Ambiguous { name: String, files: Vec<String> },
    #[error("release.assets: '{name}' matches no rendered file; available: {}", available.join(", "))]
    NoMatch {
        name: String,
        available: Vec<String>,
    },
    #[error("release.assets: '{name}' is listed twice")]
    Twice { name: String },
    #[error(
        "release.assets: the given SHA256SUMS does not match the assets: {}; regenerate it (sha256sum FILE… > SHA256SUMS) or leave it out and let the release generate one",
        problems.join("; ")
    )]
    Sums { problems: Vec<String> },
    #[error(
        "release.assets: '{name}' would be renamed by GitHub; use letters, digits, '.', '-', '_' and '+' only, without a leading or trailing dot"
    )]
    Renamed { name: String },
}

impl AssetError {
    pub(crate) fn class(&self) -> Class {
        Class::Input
    }
}

/// The preflight's checks that failed, all of them.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PreflightError {
    #[error(
        "the registry check (reading the releases of {namespace}/{package} at {location}): {source}"
    )]
    Registry {
        namespace: String,
        package: String,
        location: String,
        #[source]
        source: RegistryError,
    },
    #[error("the GitHub check (reading the releases of {owner}/{repo}): {source}")]
    GitHub {
        owner: String,
        repo: String,
        #[source]
        source: crate::target::github::GitHubError,
    },
    #[error("the image check (reading the tag {tag} at {target}): {source}")]
    Image {
        target: String,
        tag: String,
        #[source]
        source: crate::oci::OciError,
    },
    #[error("{} checks failed; nothing was written:{}", .0.len(), .0.iter().map(|e| format!("\n  - {e}")).collect::<String>())]
    All(Vec<PreflightError>),
}

impl PreflightError {
    /// A server that said no is a stage failure; only a check that could not be asked is input.
    pub(crate) fn class(&self) -> Class {
        match self {
            PreflightError::Registry { source, .. } => source.class(),
            PreflightError::GitHub { source, .. } => source.class(),
            PreflightError::Image { source, .. } => source.class(),
            PreflightError::All(all) => {
                if all.iter().any(|e| e.class() == Class::Stage) {
                    Class::Stage
                } else {
                    Class::Input
                }
            }
        }
    }
}
