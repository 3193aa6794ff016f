//! What can go wrong reading a bundle, as one error type whose messages name the file, the
//! entry or field, and what was expected.
//!
//! Every variant is an input error (exit 2) when the bytes came from a file the user named: the
//! file is wrong, not the run. A caller that got the bytes from a registry wraps the error in its
//! own stage-class variant (the server answered with something unusable), keeping it as the
//! `source()`. The one variant that is never about the user's file is a digest mismatch between
//! what a registry listed and what it served.

use std::io;

use olm_release_base::Class;

/// Why a bundle (a `.tar.gz`, a flattened `bundle.yaml`, a folder, or a blob from a registry)
/// could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// A file or folder could not be read: missing, not permitted, a device or FIFO, too large.
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: io::Error,
    },
    /// The bytes do not start with the gzip magic number.
    #[error(
        "{what} is not gzip data: expected a gzip-compressed tar (.tar.gz), which starts with the bytes 1f 8b; it starts with {found}"
    )]
    NotGzip { what: String, found: String },
    /// The gzip stream ends early or fails its checks.
    #[error("{what} is not valid gzip data (truncated or corrupt): {source}")]
    CorruptGzip {
        what: String,
        #[source]
        source: io::Error,
    },
    /// The uncompressed stream is not a tar archive.
    #[error("{what} is not a valid tar archive (truncated or corrupt): {source}")]
    CorruptTar {
        what: String,
        #[source]
        source: io::Error,
    },
    /// More uncompressed bytes than the limit: refused while streaming, before holding them.
    #[error(
        "{what} expands past the limit of {limit} bytes uncompressed; refusing it as a possible gzip bomb (raise the limit with --max-bundle-bytes if the bundle is really that large)"
    )]
    TooLarge { what: String, limit: u64 },
    /// The compression ratio is beyond any real bundle's.
    #[error(
        "{what} expands more than {ratio}:1 ({expanded} bytes from {compressed} compressed); refusing a possible gzip bomb"
    )]
    Ratio {
        what: String,
        ratio: u64,
        expanded: u64,
        compressed: u64,
    },
    #[error("{what} has more than {limit} entries")]
    TooManyEntries { what: String, limit: usize },
    /// An entry that could write outside the bundle or is not a plain file or folder.
    #[error("{what}: entry {entry}: {reason}")]
    UnsafeEntry {
        what: String,
        entry: String,
        reason: String,
    },
    #[error("{what} holds no files")]
    Empty { what: String },
    #[error("{file}: not UTF-8 text; expected YAML")]
    NotText { file: String },
    /// The YAML parser's own error (it names line and column).
    #[error("{file}: {source}")]
    Yaml {
        file: String,
        #[source]
        source: serde_yaml_ng::Error,
    },
    #[error("{file}: empty document")]
    EmptyDocument { file: String },
    #[error("{file}: holds more than one YAML document")]
    SeveralDocuments { file: String },
    /// Nesting past the fixed depth, found by a linear scan before the parser runs.
    #[error(
        "{file}:{line}: YAML nested deeper than {limit} levels; refusing it before parsing (no manifest nests that deep)"
    )]
    TooDeep {
        file: String,
        line: usize,
        limit: usize,
    },
    /// More YAML nodes than the bundle's budget, found before the parser runs.
    #[error(
        "{file}:{line}: the bundle holds more than {limit} YAML values (the budget for --max-bundle-bytes); refusing it before parsing"
    )]
    TooManyNodes {
        file: String,
        line: usize,
        limit: u64,
    },
    /// A list of more manifests than a bundle may hold.
    #[error(
        "{file}: holds more than {limit} items; a bundle holds at most that many manifests (as a tarball holds at most that many entries)"
    )]
    TooManyItems { file: String, limit: u64 },
    /// Aliases (`*name`) that would expand the parsed text past the limit.
    #[error(
        "{file}:{line}: YAML aliases expand the bundle past {limit} bytes; refusing it before parsing"
    )]
    AliasExpansion {
        file: String,
        line: usize,
        limit: u64,
    },
    /// The document is not the kind of YAML a bundle file is.
    #[error("{file}: expected {expected}, found {found}")]
    Shape {
        file: String,
        expected: &'static str,
        found: &'static str,
    },
    /// A field of a flattened `bundle.yaml` is missing or has the wrong form.
    #[error("{file}: {field} {problem}")]
    Field {
        file: String,
        field: String,
        problem: String,
    },
    /// The package file does not have the package manifest's fields.
    #[error("{file}: {field}{source}")]
    Package {
        file: String,
        /// `"data.packages: "` in a flattened bundle, empty for a package file.
        field: &'static str,
        #[source]
        source: serde_yaml_ng::Error,
    },
    #[error("{file}: a second package file")]
    SecondPackage { file: String },
    #[error("{what} holds no package file (a YAML file with packageName)")]
    NoPackage { what: String },
    /// What a registry served is not what it listed.
    #[error(
        "blob digest mismatch: the registry said sha256:{expected}, the blob is sha256:{actual}"
    )]
    DigestMismatch { expected: String, actual: String },
    /// An error inside a named container (a `.tar.gz` file, a folder).
    #[error("{what}: {source}")]
    In {
        what: String,
        #[source]
        source: Box<ReadError>,
    },
}

impl ReadError {
    /// Names the container the error happened in (`bundle.tar.gz: pkg/bundle.yaml: …`).
    pub(crate) fn within(self, what: impl Into<String>) -> Self {
        ReadError::In {
            what: what.into(),
            source: Box::new(self),
        }
    }

    /// The innermost error (below every [`ReadError::In`]).
    pub fn innermost(&self) -> &ReadError {
        match self {
            ReadError::In { source, .. } => source.innermost(),
            other => other,
        }
    }

    pub(crate) fn io(path: impl Into<String>, source: io::Error) -> Self {
        ReadError::Io {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn field(
        file: impl Into<String>,
        field: impl Into<String>,
        problem: impl Into<String>,
    ) -> Self {
        ReadError::Field {
            file: file.into(),
            field: field.into(),
            problem: problem.into(),
        }
    }
}

impl olm_release_base::Classified for ReadError {
    /// Input (exit 2) when the bytes came from the user's file; the registry's digest mismatch
    /// is a stage failure (exit 1).
    fn class(&self) -> Class {
        match self {
            ReadError::DigestMismatch { .. } => Class::Stage,
            ReadError::In { source, .. } => source.class(),
            ReadError::Io { .. }
            | ReadError::NotGzip { .. }
            | ReadError::CorruptGzip { .. }
            | ReadError::CorruptTar { .. }
            | ReadError::TooLarge { .. }
            | ReadError::Ratio { .. }
            | ReadError::TooManyEntries { .. }
            | ReadError::UnsafeEntry { .. }
            | ReadError::Empty { .. }
            | ReadError::NotText { .. }
            | ReadError::Yaml { .. }
            | ReadError::EmptyDocument { .. }
            | ReadError::SeveralDocuments { .. }
            | ReadError::TooDeep { .. }
            | ReadError::TooManyNodes { .. }
            | ReadError::TooManyItems { .. }
            | ReadError::AliasExpansion { .. }
            | ReadError::Shape { .. }
            | ReadError::Field { .. }
            | ReadError::Package { .. }
            | ReadError::SecondPackage { .. }
            | ReadError::NoPackage { .. } => Class::Input,
        }
    }
}

/// What can go wrong writing a bundle: a CSV without what its path needs, or a value or tar
/// entry that cannot be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The nested layout names folders and files after a CSV's version and name.
    #[error(
        "{file}: the CSV has no {field}; the nested layout needs it for the folder and file name"
    )]
    MissingField { file: String, field: &'static str },
    #[error("serialising {what}: {source}")]
    Serialize {
        what: &'static str,
        #[source]
        source: serde_yaml_ng::Error,
    },
    #[error("writing tar entry {path}: {source}")]
    Tar {
        path: String,
        #[source]
        source: io::Error,
    },
    /// Writing the bundle folder failed.
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: io::Error,
    },
    /// Two manifests of the bundle would be written to the same file of the flat folder.
    #[error(
        "two bundle files would both be named {name}; give the CSVs (or CRDs) distinct metadata.name values"
    )]
    SameName { name: String },
}

impl olm_release_base::Classified for WriteError {
    /// A CSV missing a field or two manifests with one file name are the bundle's fault (input,
    /// exit 2); the rest is a failure of this run (exit 1).
    fn class(&self) -> Class {
        match self {
            WriteError::MissingField { .. } | WriteError::SameName { .. } => Class::Input,
            WriteError::Serialize { .. } | WriteError::Tar { .. } | WriteError::Io { .. } => {
                Class::Stage
            }
        }
    }
}

/// How a YAML value reads in a message ("found a sequence").
pub(crate) fn describe(v: &serde_yaml_ng::Value) -> &'static str {
    use serde_yaml_ng::Value;
    match v {
        Value::Null => "an empty document (null)",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Sequence(_) => "a sequence (a YAML list)",
        Value::Mapping(_) => "a mapping",
        Value::Tagged(_) => "a tagged value",
    }
}
