//! The bundle format's annotation keys and what can be wrong with a bundle or its folder: a
//! leaf the other modules of `bundle_image` import, importing none of them.

use std::path::PathBuf;

/// `operators.operatorframework.io.bundle.mediatype.v1`: the bundle format.
pub(crate) const MEDIATYPE_KEY: &str = "operators.operatorframework.io.bundle.mediatype.v1";
/// `operators.operatorframework.io.bundle.manifests.v1`: where the manifests are in the image.
pub(crate) const MANIFESTS_KEY: &str = "operators.operatorframework.io.bundle.manifests.v1";
/// `operators.operatorframework.io.bundle.metadata.v1`: where the metadata is in the image.
pub(crate) const METADATA_KEY: &str = "operators.operatorframework.io.bundle.metadata.v1";
/// `operators.operatorframework.io.bundle.package.v1`: the OLM package.
pub(crate) const PACKAGE_KEY: &str = "operators.operatorframework.io.bundle.package.v1";
/// `operators.operatorframework.io.bundle.channels.v1`: comma-separated channels.
pub(crate) const CHANNELS_KEY: &str = "operators.operatorframework.io.bundle.channels.v1";
/// `operators.operatorframework.io.bundle.channel.default.v1`: the default channel.
pub(crate) const DEFAULT_CHANNEL_KEY: &str =
    "operators.operatorframework.io.bundle.channel.default.v1";

/// The six keys, in the order operator-registry's documentation lists them.
pub const LABEL_KEYS: [&str; 6] = [
    MEDIATYPE_KEY,
    MANIFESTS_KEY,
    METADATA_KEY,
    PACKAGE_KEY,
    CHANNELS_KEY,
    DEFAULT_CHANNEL_KEY,
];

/// The bundle format this module writes.
pub(crate) const REGISTRY_V1: &str = "registry+v1";

/// What can be wrong with a bundle or its folder.
#[derive(Debug, thiserror::Error)]
pub enum BundleImageError {
    /// The package or channel names are not usable (from the pipeline file).
    #[error("{field}: {why}")]
    Spec {
        /// The pipeline file's field: `package`, `channels` or `default_channel`.
        field: &'static str,
        /// What is wrong with its value.
        why: String,
    },
    /// A manifest cannot go into a registry+v1 bundle.
    #[error("{file}: {why}")]
    Manifest {
        /// The file the manifest came from.
        file: String,
        /// Why it cannot go in (not a CSV, a second CSV, a kind OLM does not install from a
        /// bundle, no `metadata.name`).
        why: String,
    },
    /// Two objects would be written under one file name (same kind and `metadata.name`).
    #[error(
        "{first} and {second} would both be written as {path} (the same kind and metadata.name); give them distinct metadata.name values or drop one"
    )]
    DuplicateFile {
        /// The file both would be written as, such as `manifests/NAME.configmap.yaml`.
        path: String,
        /// The file the first object came from.
        first: String,
        /// The file the second object came from.
        second: String,
    },
    /// A bundle folder on disk is not a registry+v1 bundle.
    #[error("{}: {why}", path.display())]
    Folder {
        /// The file or folder at fault: a non-file entry, `metadata/annotations.yaml` or an empty
        /// `manifests/`.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// Reading or writing the folder failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder being read or written.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// Building the image's JSON or layer failed (a bug, not an input problem).
    #[error("building the bundle image: {0}")]
    Build(String),
}

impl BundleImageError {
    pub(super) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        BundleImageError::Io {
            path: path.into(),
            source,
        }
    }
}

impl olm_release_base::Classified for BundleImageError {
    /// Input errors (names from the pipeline file) exit 2; a bad bundle or an I/O failure
    /// fails the stage (exit 1).
    fn class(&self) -> olm_release_base::Class {
        match self {
            BundleImageError::Spec { .. } => olm_release_base::Class::Input,
            _ => olm_release_base::Class::Stage,
        }
    }
}
