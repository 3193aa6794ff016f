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
        /// The file or folder that could not be read, as shown to the user.
        path: String,
        /// The operating system's error.
        #[source]
        source: io::Error,
    },
    /// The bytes do not start with the gzip magic number.
    #[error(
        "{what} is not gzip data: expected a gzip-compressed tar (.tar.gz), which starts with the bytes 1f 8b; it starts with {found}"
    )]
    NotGzip {
        /// What was read, as messages name it: the file's path, or `the blob` for bytes from a
        /// registry.
        what: String,
        /// The first bytes of the data, in hex (and as text when they are printable).
        found: String,
    },
    /// The gzip stream ends early or fails its checks.
    #[error("{what} is not valid gzip data (truncated or corrupt): {source}")]
    CorruptGzip {
        /// What was read: the file's path, or `the blob`.
        what: String,
        /// The decoder's error.
        #[source]
        source: io::Error,
    },
    /// The uncompressed stream is not a tar archive.
    #[error("{what} is not a valid tar archive (truncated or corrupt): {source}")]
    CorruptTar {
        /// What was read: the file's path, or `the blob`.
        what: String,
        /// The tar reader's error.
        #[source]
        source: io::Error,
    },
    /// More uncompressed bytes than the limit: refused while streaming, before holding them.
    #[error(
        "{what} expands past the limit of {limit} bytes uncompressed; refusing it as a possible gzip bomb (raise the limit with --max-bundle-bytes if the bundle is really that large)"
    )]
    TooLarge {
        /// What was read: the file's path or `the blob`, or a folder's YAML files with their total
        /// size.
        what: String,
        /// [`Limits::max_bytes`](super::Limits::max_bytes), in bytes.
        limit: u64,
    },
    /// The compression ratio is beyond any real bundle's.
    #[error(
        "{what} expands more than {ratio}:1 ({expanded} bytes from {compressed} compressed); refusing a possible gzip bomb"
    )]
    Ratio {
        /// What was read: the file's path, or `the blob`.
        what: String,
        /// [`Limits::max_ratio`](super::Limits::max_ratio): the most uncompressed bytes allowed per
        /// compressed byte.
        ratio: u64,
        /// Uncompressed bytes read when the ratio was passed.
        expanded: u64,
        /// Compressed bytes consumed by then.
        compressed: u64,
    },
    /// More entries in a tarball, or files in a folder, than
    /// [`Limits::max_entries`](super::Limits::max_entries).
    #[error("{what} has more than {limit} entries")]
    TooManyEntries {
        /// What was read: the file's path, `the blob`, a folder, or a package-manifest tree's YAML
        /// files.
        what: String,
        /// [`Limits::max_entries`](super::Limits::max_entries).
        limit: usize,
    },
    /// An entry that could write outside the bundle or is not a plain file or folder.
    #[error("{what}: entry {entry}: {reason}")]
    UnsafeEntry {
        /// What was read: the file's path, or `the blob`.
        what: String,
        /// The entry's path inside the tar, as written there.
        entry: String,
        /// Why it is refused (an absolute path, `..`, or an entry type other than file or folder).
        reason: String,
    },
    /// A tarball with no file in it.
    #[error("{what} holds no files")]
    Empty {
        /// What was read (`the archive`).
        what: String,
    },
    /// A file that is not UTF-8.
    #[error("{file}: not UTF-8 text; expected YAML")]
    NotText {
        /// The file's path (inside the tarball or folder, or on disk).
        file: String,
    },
    /// The YAML parser's own error (it names line and column).
    #[error("{file}: {source}")]
    Yaml {
        /// The file's path (inside the tarball or folder, or on disk), or a flattened bundle's
        /// `data.*` string.
        file: String,
        /// The parser's error.
        #[source]
        source: serde_yaml_ng::Error,
    },
    /// A file, or a `data.*` string, with no YAML document in it.
    #[error("{file}: empty document")]
    EmptyDocument {
        /// The file's path, or `path: data.key` for a flattened bundle's string.
        file: String,
    },
    /// A file, or a `data.*` string, with a second YAML document after the first.
    #[error("{file}: holds more than one YAML document")]
    SeveralDocuments {
        /// The file's path, or `path: data.key` for a flattened bundle's string.
        file: String,
    },
    /// Nesting past the fixed depth, found by a linear scan before the parser runs.
    #[error(
        "{file}:{line}: YAML nested deeper than {limit} levels; refusing it before parsing (no manifest nests that deep)"
    )]
    TooDeep {
        /// The file's path, or `path: data.key` for a flattened bundle's string.
        file: String,
        /// The 1-based line the nesting passed the limit on.
        line: usize,
        /// [`Limits::max_depth`](super::Limits::max_depth).
        limit: usize,
    },
    /// More YAML nodes than the bundle's budget, found before the parser runs.
    #[error(
        "{file}:{line}: the bundle holds more than {limit} YAML values (the budget for --max-bundle-bytes); refusing it before parsing"
    )]
    TooManyNodes {
        /// The file's path, or `path: data.key` for a flattened bundle's string.
        file: String,
        /// The 1-based line the budget ran out on.
        line: usize,
        /// [`Limits::max_nodes`](super::Limits::max_nodes): the values the whole bundle may parse
        /// into.
        limit: u64,
    },
    /// A list of more manifests than a bundle may hold.
    #[error(
        "{file}: holds more than {limit} items; a bundle holds at most that many manifests (as a tarball holds at most that many entries)"
    )]
    TooManyItems {
        /// The flattened bundle's `path: data.key` string.
        file: String,
        /// [`Limits::max_entries`](super::Limits::max_entries).
        limit: u64,
    },
    /// Aliases (`*name`) that would expand the parsed text past the limit.
    #[error(
        "{file}:{line}: YAML aliases expand the bundle past {limit} bytes; refusing it before parsing"
    )]
    AliasExpansion {
        /// The file's path, or `path: data.key` for a flattened bundle's string.
        file: String,
        /// The 1-based line of the alias that passed the limit.
        line: usize,
        /// The bytes aliases may add to the whole bundle:
        /// [`Limits::max_bytes`](super::Limits::max_bytes).
        limit: u64,
    },
    /// The document is not the kind of YAML a bundle file is.
    #[error("{file}: expected {expected}, found {found}")]
    Shape {
        /// The flattened `bundle.yaml`'s path.
        file: String,
        /// What a flattened `bundle.yaml` holds: a mapping with a `data` key.
        expected: &'static str,
        /// What the document is instead (`a sequence (a YAML list)`, `a mapping with no top-level
        /// 'data' key`, …).
        found: &'static str,
    },
    /// A field of a flattened `bundle.yaml` is missing or has the wrong form.
    #[error("{file}: {field} {problem}")]
    Field {
        /// The flattened `bundle.yaml`'s path.
        file: String,
        /// The field's path, such as `data.packages`.
        field: String,
        /// What is wrong with it (`is missing`, `must hold a YAML list, not a string`, …).
        problem: String,
    },
    /// The package file does not have the package manifest's fields.
    #[error("{file}: {field}{source}")]
    Package {
        /// The package file's path, or the flattened `bundle.yaml`'s.
        file: String,
        /// `"data.packages: "` in a flattened bundle, empty for a package file.
        field: &'static str,
        /// The deserialiser's error: the field missing or of the wrong type.
        #[source]
        source: serde_yaml_ng::Error,
    },
    /// A second package file (a YAML document with `packageName`) in one bundle.
    #[error("{file}: a second package file")]
    SecondPackage {
        /// The second package file's path.
        file: String,
    },
    /// A tarball or folder with no package file.
    #[error("{what} holds no package file (a YAML file with packageName)")]
    NoPackage {
        /// What was read: `the archive`, or the folder.
        what: String,
    },
    /// What a registry served is not what it listed.
    #[error(
        "blob digest mismatch: the registry said sha256:{expected}, the blob is sha256:{actual}"
    )]
    DigestMismatch {
        /// The digest the registry listed (sha256 hex of the uncompressed tar).
        expected: String,
        /// The sha256 hex of the tar the registry served.
        actual: String,
    },
    /// An error inside a named container (a `.tar.gz` file, a folder).
    #[error("{what}: {source}")]
    In {
        /// The container: the `.tar.gz`'s or the folder's path.
        what: String,
        /// The error inside it.
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
    MissingField {
        /// The CSV's file name.
        file: String,
        /// The missing field: `spec.version` or `metadata.name`.
        field: &'static str,
    },
    /// A value could not be serialised to YAML.
    #[error("serialising {what}: {source}")]
    Serialize {
        /// What was serialised: `the package file` or `bundle.yaml`.
        what: &'static str,
        /// The serialiser's error.
        #[source]
        source: serde_yaml_ng::Error,
    },
    /// An entry could not be added to the tarball, or the tarball could not be finished.
    #[error("writing tar entry {path}: {source}")]
    Tar {
        /// The entry's path inside the tar, or `(end of archive)`.
        path: String,
        /// The error of the tar or gzip writer.
        #[source]
        source: io::Error,
    },
    /// Writing the bundle folder failed.
    #[error("{path}: {source}")]
    Io {
        /// The folder or file that could not be written.
        path: String,
        /// The operating system's error.
        #[source]
        source: io::Error,
    },
    /// Manifests of the bundle that would be written to the same file of the flat folder:
    /// every such file name with the files its manifests came from.
    #[error("{}", same_names(.names))]
    SameName {
        /// Each file name several manifests would take, and the files they came from.
        names: Vec<(String, Vec<String>)>,
    },
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

fn same_names(names: &[(String, Vec<String>)]) -> String {
    let one =
        |(name, from): &(String, Vec<String>)| format!("{name} (from {})", from.join(" and "));
    let fix = "give the CSVs (or CRDs) distinct metadata.name values, or keep one copy of each";
    match names {
        [single] => format!(
            "two bundle files would both be named {}; {fix}",
            one(single)
        ),
        _ => format!(
            "{} would each be written more than once: {}; {fix}",
            olm_release_base::words::count(names.len(), "bundle file"),
            names.iter().map(one).collect::<Vec<_>>().join("; ")
        ),
    }
}
