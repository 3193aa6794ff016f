//! What can go wrong with an app registry, as the user reads it, and its class: a wrong name,
//! token or URL is an input error (exit 2); a server that fails or refuses, or a registry
//! folder that cannot be read or written, is a stage failure (exit 1). Messages come from the
//! server's answer only, with every secret the client holds scrubbed out.

use std::path::PathBuf;

use super::appr::errors::Failure;
use olm_release_base::Class;

/// A registry call that failed, by cause.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    /// A call failed (after its retries): status, code and text, or the transport's reason.
    #[error(transparent)]
    Call(#[from] Failure),
    #[error("logging in to {base} as {username}: {source}")]
    /// Logging in with `QUAY_USERNAME`/`QUAY_PASSWORD` failed.
    Login {
        /// The registry base URL.
        base: String,
        /// The user name (not a secret).
        username: String,
        /// The failed call.
        #[source]
        source: Failure,
    },
    /// Context for a failed read: which package's releases.
    #[error("reading the releases of {namespace}/{package}: {source}")]
    Releases {
        /// The namespace (Quay organisation).
        namespace: String,
        /// The package (app repository).
        package: String,
        /// The failure.
        #[source]
        source: Box<RegistryError>,
    },
    /// An answer with values the API does not promise (a digest that is not hex sha256).
    #[error("{base}: {namespace}/{package}: {message}")]
    Answer {
        /// The registry base URL.
        base: String,
        /// The namespace (Quay organisation).
        namespace: String,
        /// The package (app repository).
        package: String,
        /// What is wrong.
        message: String,
    },
    #[error("invalid {what} '{value}' ({allowed})")]
    /// A name that cannot go into a URL path or a folder.
    Name {
        /// What the value names (namespace, package, release, …) or where it came from.
        what: &'static str,
        /// The value as given.
        value: String,
        /// What a valid value may hold.
        allowed: &'static str,
    },
    /// A token of `null` or nothing.
    #[error("{what} is empty or 'null' (a failed login?); refusing to send it as credentials")]
    NullToken {
        /// Where it came from.
        what: &'static str,
    },
    #[error("registry URL: {0}")]
    /// A base URL that is not an http(s) URL with a host.
    Url(String),
    #[error("{0}")]
    /// A digest that is not a hex sha256.
    Digest(String),
    #[error("{registry}: {namespace}/{package} has no release {release}")]
    /// The package has no such release.
    NoRelease {
        /// The registry (`dir:PATH` or base URL).
        registry: String,
        /// The namespace (Quay organisation).
        namespace: String,
        /// The package (app repository).
        package: String,
        /// The release.
        release: String,
    },
    #[error(
        "{registry}: the dir: registry has no delete; remove the release from {namespace}/{package}/releases.json by hand"
    )]
    /// `delete` on a `dir:` registry.
    NoDelete {
        /// The registry (`dir:PATH` or base URL).
        registry: String,
        /// The namespace (Quay organisation).
        namespace: String,
        /// The package (app repository).
        package: String,
    },
    #[error("{namespace}/{package}: no release {release} to put on channel {channel}")]
    /// A channel pointed at a release that does not exist.
    NoChannelRelease {
        /// The namespace (Quay organisation).
        namespace: String,
        /// The package (app repository).
        package: String,
        /// The release.
        release: String,
        /// The app-registry channel.
        channel: String,
    },
    /// A `dir:` registry index that is not the JSON it writes.
    #[error("{}: corrupt registry index: {message}", path.display())]
    CorruptIndex {
        /// The index file.
        path: PathBuf,
        /// The parser's complaint.
        message: String,
    },
    /// A release that is not strict SemVer (the server would answer 422).
    #[error("invalid release '{release}': not strict SemVer ({reason}); the registry refuses it")]
    NotSemver {
        /// The release.
        release: String,
        /// The parser's complaint.
        reason: String,
    },
    /// A blob the `dir:` registry will not store.
    #[error("refusing to store release {release}: {reason}")]
    Refused {
        /// The release.
        release: String,
        /// Why.
        reason: String,
    },
    #[error("{doing}{}: {source}", path.display())]
    /// Reading or writing the `dir:` registry.
    Io {
        /// What was being done, with a trailing `": "`, or empty.
        doing: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
}

impl RegistryError {
    pub(crate) fn io(path: &std::path::Path, source: std::io::Error) -> Self {
        RegistryError::Io {
            doing: "",
            path: path.to_path_buf(),
            source,
        }
    }
}

impl olm_release_base::Classified for RegistryError {
    /// Whether this is the user's to fix (exit 2) or the registry's failure (exit 1).
    fn class(&self) -> Class {
        match self {
            RegistryError::Name { .. }
            | RegistryError::NullToken { .. }
            | RegistryError::Url(_)
            | RegistryError::NoDelete { .. } => Class::Input,
            RegistryError::Releases { source, .. } => source.class(),
            _ => Class::Stage,
        }
    }
}
