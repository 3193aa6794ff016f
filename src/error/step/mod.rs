//! What can go wrong in each step, one type per step, each variant with its class: a bad
//! template, bundle folder or asset name is an input error (exit 2); a decision the registry's
//! state forces (an older version, a conflict), an invalid bundle or a server's refusal is a
//! stage failure (exit 1). Registry and GitHub errors stay attached as sources.

use std::path::PathBuf;

use olm_release_appregistry::RegistryError;
use olm_release_base::{Class, Classified};
use olm_release_olm::archive::{ReadError, WriteError};

mod converge;
mod fetch;
mod push;

pub(crate) use converge::ConvergeError;
pub(crate) use fetch::FetchError;
pub(crate) use push::PushError;

#[derive(Debug, thiserror::Error)]
pub(crate) enum RenderError {
    #[error(transparent)]
    Template(#[from] olm_release_gotemplate::Error),
    /// A rendered file that is not YAML (the message names it).
    #[error("{0}")]
    Yaml(String),
    /// `render.kustomize`: the snapshot is stale, or the kustomization could not be built.
    #[error("{0}")]
    Kustomize(String),
    #[error("{}: no templates found (render.templates)", dir.display())]
    NoTemplates { dir: PathBuf },
    /// The bundle's parts cannot be found among the rendered files.
    #[error(transparent)]
    Bundle(#[from] olm_release_olm::rendered_bundle::RenderedBundleError),
}

impl Classified for RenderError {
    fn class(&self) -> Class {
        Class::Input
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

impl Classified for PackageError {
    fn class(&self) -> Class {
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
    olm_release_base::words::count(*.errors, "error"),
    olm_release_base::words::count(*.warnings, "warning")
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
    olm_release_base::words::count(*.errors, "error")
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

impl Classified for AssetError {
    fn class(&self) -> Class {
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
        source: olm_release_github::GitHubError,
    },
    #[error("the image check (reading the tag {tag} at {target}): {source}")]
    Image {
        target: String,
        tag: String,
        #[source]
        source: olm_release_oci::OciError,
    },
    #[error("{} checks failed; nothing was written:{}", .0.len(), .0.iter().map(|e| format!("\n  - {e}")).collect::<String>())]
    All(Vec<PreflightError>),
}

impl Classified for PreflightError {
    /// A server that said no is a stage failure; only a check that could not be asked is input.
    fn class(&self) -> Class {
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

/// An invalid bundle, an invalid catalog, or heads that disagree: the stage fails.
macro_rules! stage_failure {
    ($($t:ty),*) => {$(
        impl Classified for $t {
            fn class(&self) -> Class {
                Class::Stage
            }
        }
    )*};
}
stage_failure!(VerifyError, CatalogInvalid, HeadsDiffer);

/// The `operatorhub` step's refusal.
#[derive(Debug, thiserror::Error)]
pub(crate) enum OperatorhubError {
    /// The community catalog already has this version with other files.
    #[error(
        "{repository} already has {folder}/ with other files ({}); a published bundle is not changed: publish a new version, or pass --force to propose replacing it",
        differ.join(", ")
    )]
    Changed {
        repository: String,
        folder: String,
        differ: Vec<String>,
    },
}

impl Classified for OperatorhubError {
    fn class(&self) -> Class {
        Class::Stage
    }
}

/// What stops `import` before anything is written: a package folder that cannot be read as the
/// community layout, versions whose bundles cannot be built (every one named), or a catalog
/// target another job moved while the import wrote it.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ImportError {
    /// The folder cannot be read (the message names the file).
    #[error("{0}")]
    Read(String),
    #[error("{}: {errors}", dir.display())]
    Layout {
        dir: PathBuf,
        errors: olm_release_olm::community::LayoutErrors,
    },
    #[error("{}: {} cannot be built; nothing was pushed or written:{}", dir.display(), olm_release_base::words::count(.problems.len(), "version"), .problems.iter().map(|p| format!("\n  {p}")).collect::<String>())]
    Bundles { dir: PathBuf, problems: Vec<String> },
    #[error(
        "the catalog {target} moved while the import wrote it ({reason}); the bundle images are pushed, run the import again to write the catalog"
    )]
    Moved { target: String, reason: String },
}

impl Classified for ImportError {
    fn class(&self) -> Class {
        match self {
            ImportError::Read(_) | ImportError::Layout { .. } | ImportError::Bundles { .. } => {
                Class::Input
            }
            ImportError::Moved { .. } => Class::Stage,
        }
    }
}
