//! What can go wrong with a file-based catalog, typed, each variant knowing its class: input
//! (exit 2: a catalog file, a request or a migration input is wrong) or stage (exit 1: the
//! catalog and the release disagree, or a write failed). Messages name the file and document,
//! the package, channel and bundle, and say what to do.

use std::path::PathBuf;

use olm_release_base::Class;

/// A catalog error.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    /// Reading or writing a file or folder failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder being read or written.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// A symbolic link where the catalog a release writes back must have none (the root, a
    /// package's folder, a catalog file): never followed, so nothing outside the catalog is
    /// read into it or written for it.
    #[error("{0}")]
    Link(olm_release_base::links::Refused),
    /// The catalog root exists but is not a folder.
    #[error("{}: the catalog must be a folder (one sub-folder per package)", path.display())]
    NotAFolder {
        /// The catalog root, as given.
        path: PathBuf,
    },
    /// A YAML document of a catalog file does not parse.
    #[error("{file}, document {document}: not valid YAML: {source}")]
    Yaml {
        /// The file's path relative to the catalog root.
        file: String,
        /// The document's 1-based position in the file.
        document: usize,
        /// The parser's error.
        #[source]
        source: serde_yaml_ng::Error,
    },
    /// A JSON value of a catalog file does not parse.
    #[error("{file}, document {document}: not valid JSON: {source}")]
    Json {
        /// The file's path relative to the catalog root.
        file: String,
        /// The value's 1-based position in the file.
        document: usize,
        /// The parser's error.
        #[source]
        source: serde_json::Error,
    },
    /// A catalog file nests deeper, or would build more values, than a file may (measured in
    /// linear time before it is parsed).
    #[error("{0}")]
    Budget(#[source] crate::archive::ReadError),
    /// A catalog file cannot be read as one: too large, or not a regular file.
    #[error("{file}: {message}; a catalog file is a regular file of at most 64 MiB")]
    Unreadable {
        /// The file's path relative to the catalog root.
        file: String,
        /// Why (`is larger than the limit of … bytes`, `is a FIFO (named pipe), not a regular file`).
        message: String,
    },
    /// A catalog file is not UTF-8 text.
    #[error(
        "{file}: not UTF-8 text (invalid byte at offset {offset}); catalog files are YAML or JSON in UTF-8"
    )]
    NotUtf8 {
        /// The file's path (relative to the catalog root when read from one).
        file: String,
        /// The offset of the first byte that is not UTF-8.
        offset: usize,
    },
    /// A bundle's dependency or property is not of the shape its type needs.
    #[error("{from}: {message}")]
    BundleProperty {
        /// Where it was read: `metadata/dependencies.yaml`, `metadata/properties.yaml` or the CSV's
        /// `olm.properties` annotation.
        from: String,
        /// What is wrong with it.
        message: String,
    },
    /// A bundle's properties name another package or version than the bundle.
    #[error(
        "bundle {bundle} is package {package} version {version}, but {from} holds an olm.package property naming {named}; a bundle names one package everywhere (its annotations, the pipeline's package, its properties): correct or remove that property"
    )]
    PackageMismatch {
        /// The bundle's name.
        bundle: String,
        /// The bundle's package.
        package: String,
        /// The bundle's version.
        version: String,
        /// Where the other `olm.package` property is.
        from: String,
        /// The package and version it names.
        named: String,
    },
    /// A bundle folder lacks a part its catalog entry needs.
    #[error("{}: {message}", path.display())]
    BundleDir {
        /// The bundle folder.
        path: PathBuf,
        /// What is missing.
        message: String,
    },
    /// A document parses but a field has the wrong shape.
    #[error("{file}, document {document}: {field} {message}")]
    Field {
        /// The file's path relative to the catalog root.
        file: String,
        /// The document's 1-based position in the file.
        document: usize,
        /// The field's path in the document, such as `entries[2].skips`.
        field: String,
        /// What is wrong with it (`must be a string`, `is missing: …`).
        message: String,
    },
    /// A package name cannot be a folder name under the catalog root.
    #[error(
        "package name {name:?} cannot be written as a folder of the catalog; use a lowercase name without '/' (e.g. the CSV's package)"
    )]
    UnsafePackageName {
        /// The package name as given.
        name: String,
    },
    /// An add request is incomplete or contradicts itself.
    #[error("adding {bundle} to the catalog: {field} {message}")]
    Request {
        /// The bundle's name (`a bundle` when the request has none).
        bundle: String,
        /// The request's field at fault (`package`, `channels`, `default_channel`, …).
        field: &'static str,
        /// What is wrong with it.
        message: String,
    },
    /// The image is not pinned by digest.
    #[error(
        "adding {bundle} to the catalog: image {image} is not pinned by digest; catalogs list bundle images as NAME@sha256:<64 hex digits> so that what was validated is what clusters pull"
    )]
    ImageNotByDigest {
        /// The bundle's name.
        bundle: String,
        /// The image reference as given.
        image: String,
    },
    /// A `skipRange` does not parse as a semver range.
    #[error(
        "skipRange {range:?} of {bundle} does not parse ({message}); write comparisons such as \">=1.0.0 <1.2.0\", joined by spaces (and) or || (or)"
    )]
    SkipRange {
        /// The bundle's name.
        bundle: String,
        /// The `skipRange` as given.
        range: String,
        /// The range parser's message.
        message: String,
    },
    /// The bundle is in the catalog already, with another image.
    #[error(
        "package {package} already lists bundle {bundle} with image {existing}; this release's image is {requested}. Refusing to replace a published bundle (use --force to replace it)"
    )]
    ImageConflict {
        /// The package's name.
        package: String,
        /// The bundle's name.
        bundle: String,
        /// The image the catalog lists.
        existing: String,
        /// The image of this release.
        requested: String,
    },
    /// Another bundle of the package has this version.
    #[error(
        "package {package} already has version {version} as bundle {existing}; {requested} cannot have it too (versions are unique per package)"
    )]
    DuplicateVersion {
        /// The package's name.
        package: String,
        /// The version, as the request gives it.
        version: String,
        /// The bundle of the catalog that has it.
        existing: String,
        /// The bundle this release adds.
        requested: String,
    },
    /// The bundle's entry in a channel differs from what this release asks for.
    #[error(
        "channel {channel} of package {package} lists {bundle} with {existing}, this release asks for {requested} (use --force to rewrite the entry)"
    )]
    EntryConflict {
        /// The package's name.
        package: String,
        /// The channel's name.
        channel: String,
        /// The bundle's name.
        bundle: String,
        /// The entry's edges in the catalog (`replaces op.v0.1.0, skips [...]`).
        existing: String,
        /// The edges this release asks for, in the same form.
        requested: String,
    },
    /// The bundle is older than the head of the channel it joins.
    #[error("{0}")]
    OlderThanHead(Box<OlderThanHead>),
    /// The CSV's own `replaces` would leave the channel's head behind.
    #[error(transparent)]
    ReplacesConflict(Box<StrandedHead>),
    /// The channel has no head or several, so "the head" is undefined.
    #[error(
        "channel {channel} of package {package} {}",
        heads_message(heads, edges)
    )]
    Heads {
        /// The package's name.
        package: String,
        /// The channel's name.
        channel: String,
        /// The channel's heads (none, or several).
        heads: Vec<String>,
        /// The channel's edges as phrases (`b replaces a`, `c skips a`), for the message.
        edges: Vec<String>,
    },
    /// The app-registry release cannot become a catalog as it is.
    #[error("migrating package {package}: {message}")]
    Migration {
        /// The package's name (its package file's `packageName`).
        package: String,
        /// What stops the migration, and what to change.
        message: String,
    },
    /// A bundle of the migration has no image reference.
    #[error("migrating package {package}: no bundle image was given for {csv}")]
    MissingImage {
        /// The package's name.
        package: String,
        /// The CSV's `metadata.name` with no image.
        csv: String,
    },
    /// A catalog template cannot be read, updated or rendered.
    #[error("catalog template {file}: {message}")]
    Template {
        /// The template file, as the pipeline names it.
        file: String,
        /// What is wrong, and what to do.
        message: String,
    },
    /// A bug: an invariant of the catalog code does not hold.
    #[error("internal error: {0}")]
    Internal(String),
    /// The catalog's graph cannot be drawn as one CSV per bundle.
    #[error("drawing package {package}: {message}")]
    Drawing {
        /// The package's name.
        package: String,
        /// Why it cannot be drawn (a channel without a single head, a bundle whose edges differ
        /// between channels).
        message: String,
    },
}

/// The details of [`CatalogError::ReplacesConflict`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{bundle} replaces {replaces} (its spec.replaces), but the head of channel {channel} of package {package} is {head}, {why}: publishing it would strand {head}. Replace {head} instead, or add it to spec.skips"
)]
pub struct StrandedHead {
    pub(crate) package: String,
    pub(crate) channel: String,
    pub(crate) bundle: String,
    pub(crate) replaces: String,
    pub(crate) head: String,
    /// Why the two do not fit (`which it neither replaces nor skips`, `and the channel has no
    /// entry …`).
    pub(crate) why: String,
}

/// The details of [`CatalogError::OlderThanHead`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{bundle} (version {version}) is not newer than {head} (version {head_version}), the head of channel {channel} of package {package}; replacing the head would point replaces forward. Publish it to its own channel, or give the entry it replaces explicitly"
)]
pub struct OlderThanHead {
    pub(crate) package: String,
    pub(crate) channel: String,
    pub(crate) bundle: String,
    pub(crate) version: String,
    pub(crate) head: String,
    pub(crate) head_version: String,
}

impl olm_release_base::Classified for OlderThanHead {
    /// The catalog's state refuses the release: the stage fails.
    fn class(&self) -> Class {
        Class::Stage
    }
}

fn heads_message(heads: &[String], edges: &[String]) -> String {
    let edges = if edges.is_empty() {
        "no edges".to_string()
    } else {
        edges.join(", ")
    };
    if heads.is_empty() {
        format!(
            "has no head: every entry is replaced or skipped by another, so the replaces chain loops (edges: {edges})"
        )
    } else {
        format!(
            "has {} heads, {} (entries nothing replaces or skips); exactly one is allowed. Make the newer one replace or skip the other (edges: {edges})",
            heads.len(),
            heads.join(" and ")
        )
    }
}

impl CatalogError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        CatalogError::Io {
            path: path.into(),
            source,
        }
    }
}

impl olm_release_base::Classified for CatalogError {
    /// Input (exit 2) or stage (exit 1).
    fn class(&self) -> Class {
        use CatalogError::*;
        match self {
            NotAFolder { .. }
            | Yaml { .. }
            | Json { .. }
            | Field { .. }
            | UnsafePackageName { .. }
            | Request { .. }
            | ImageNotByDigest { .. }
            | SkipRange { .. }
            | Migration { .. }
            | MissingImage { .. }
            | NotUtf8 { .. }
            | Unreadable { .. }
            | BundleProperty { .. }
            | PackageMismatch { .. }
            | BundleDir { .. }
            | Template { .. }
            | Link(_)
            | Budget(_) => Class::Input,
            Io { .. }
            | ImageConflict { .. }
            | DuplicateVersion { .. }
            | EntryConflict { .. }
            | OlderThanHead { .. }
            | ReplacesConflict(_)
            | Heads { .. }
            | Drawing { .. } => Class::Stage,
            Internal(_) => Class::Internal,
        }
    }
}
