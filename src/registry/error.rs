//! What can go wrong with an app registry, as the user reads it, and its class: a wrong name,
//! token or URL is an input error (exit 2); a server that fails or refuses, or a registry
//! folder that cannot be read or written, is a stage failure (exit 1). Messages come from the
//! server's answer only, with every secret the client holds scrubbed out.

use std::path::PathBuf;

use super::appr::errors::Failure;
use crate::error::Class;

#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    /// A call failed (after its retries): status, code and text, or the transport's reason.
    #[error(transparent)]
    Call(#[from] Failure),
    #[error("logging in to {base} as {username}: {source}")]
    Login {
        base: String,
        username: String,
        #[source]
        source: Failure,
    },
    /// Context for a failed read: which package's releases.
    #[error("reading the releases of {namespace}/{package}: {source}")]
    Releases {
        namespace: String,
        package: String,
        #[source]
        source: Box<RegistryError>,
    },
    /// An answer with values the API does not promise (a digest that is not hex sha256).
    #[error("{base}: {namespace}/{package}: {message}")]
    Answer {
        base: String,
        namespace: String,
        package: String,
        message: String,
    },
    #[error("invalid {what} '{value}' ({allowed})")]
    Name {
        what: &'static str,
        value: String,
        allowed: &'static str,
    },
    #[error("{what} is empty or 'null' (a failed login?); refusing to send it as credentials")]
    NullToken { what: &'static str },
    #[error("registry URL: {0}")]
    Url(String),
    #[error("{0}")]
    Digest(String),
    #[error("{registry}: {namespace}/{package} has no release {release}")]
    NoRelease {
        registry: String,
        namespace: String,
        package: String,
        release: String,
    },
    #[error(
        "{registry}: the dir: registry has no delete; remove the release from {namespace}/{package}/releases.json by hand"
    )]
    NoDelete {
        registry: String,
        namespace: String,
        package: String,
    },
    #[error("{namespace}/{package}: no release {release} to put on channel {channel}")]
    NoChannelRelease {
        namespace: String,
        package: String,
        release: String,
        channel: String,
    },
    #[error("{}: corrupt registry index: {message}", path.display())]
    CorruptIndex { path: PathBuf, message: String },
    #[error("invalid release '{release}': not strict SemVer ({reason}); the registry refuses it")]
    NotSemver { release: String, reason: String },
    #[error("refusing to store release {release}: {reason}")]
    Refused { release: String, reason: String },
    #[error("{doing}{}: {source}", path.display())]
    Io {
        /// What was being done, with a trailing `": "`, or empty.
        doing: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl RegistryError {
    /// Whether this is the user's to fix (exit 2) or the registry's failure (exit 1).
    pub fn class(&self) -> Class {
        match self {
            RegistryError::Name { .. }
            | RegistryError::NullToken { .. }
            | RegistryError::Url(_)
            | RegistryError::NoDelete { .. } => Class::Input,
            RegistryError::Releases { source, .. } => source.class(),
            _ => Class::Stage,
        }
    }

    pub(crate) fn io(path: &std::path::Path, source: std::io::Error) -> Self {
        RegistryError::Io {
            doing: "",
            path: path.to_path_buf(),
            source,
        }
    }
}
