//! Fetch-previous's failures: reading the registry's releases and the previous bundle, and the
//! decisions its state forces (a version below the head, a published CSV that changed, a
//! channel another CSV heads).

use olm_release_appregistry::RegistryError;
use olm_release_base::Class;
use olm_release_olm::archive::ReadError;

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
    /// The published state refuses the release.
    #[error(transparent)]
    Decision(#[from] olm_release_olm::decision::DecisionError),
    /// The catalog fetch-previous reads breaks `opm validate`'s rules: its heads cannot be
    /// trusted (`first` names the file and document).
    #[error(
        "the catalog {dir} has {}, so fetch-previous cannot tell what this release replaces; nothing was written. First: {first}. Correct the catalog (or restore it from version control) and run again",
        olm_release_base::words::count(*.errors, "error")
    )]
    CatalogInvalid {
        dir: String,
        errors: usize,
        first: String,
    },
    /// The release stops listing CRD versions the channel head serves (the message names
    /// them, the head and the fix).
    #[error("{0}")]
    RemovedCrdVersions(String),
}

impl olm_release_base::Classified for FetchError {
    fn class(&self) -> Class {
        match self {
            FetchError::Read { source, .. } | FetchError::Pull { source, .. } => source.class(),
            _ => Class::Stage,
        }
    }
}
