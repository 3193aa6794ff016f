//! What can go wrong publishing an image, and how it reads to a user.
//!
//! Every message names the method and URL path (or the layout folder), the status and the
//! registry's own error text (the distribution spec's `{"errors":[{"code","message"}]}`), and
//! what to do. Messages are built from answers and paths only, never from request headers, and
//! the client scrubs its secrets from server text before it lands here.

use std::path::PathBuf;

use olm_release_base::Class;

/// An error of the OCI client, the layout target or the push operation.
#[derive(Debug, thiserror::Error)]
pub enum OciError {
    /// The target or tag is not usable (from the pipeline file).
    #[error("{target}: {why}")]
    Target { target: String, why: String },
    /// Plain HTTP to a host that is not loopback, without `insecure`.
    #[error(
        "{url} uses plain http:// on a non-loopback host; use https:// or set insecure (only for a registry you trust on that network)"
    )]
    InsecureHttp { url: String },
    /// Credentials that cannot be sent (e.g. characters not allowed in a header).
    #[error("{what}")]
    Credentials { what: String },
    /// No answer: connection refused or reset, timeout, truncated body.
    #[error("{at}: {detail}")]
    Transport { at: String, detail: String },
    /// The registry answered with an error status.
    #[error("{at}: HTTP {status}{}{}", message.as_deref().map(|m| format!(": {m}")).unwrap_or_default(), hint(*status))]
    Status {
        at: String,
        status: u16,
        /// The registry's error codes and messages, shortened and scrubbed.
        message: Option<String>,
        /// `Retry-After`, for 429 and 503.
        retry_after: Option<std::time::Duration>,
    },
    /// An answer that is not what the distribution API promises.
    #[error("{at}: the answer is not what the OCI distribution API returns: {detail}")]
    Invalid { at: String, detail: String },
    /// A different image is already at the tag and `force` was not given.
    #[error(
        "{target}:{tag} already holds {existing}, not this bundle's {ours}; a published tag is not moved silently: bump the version, or pass --force to overwrite it"
    )]
    Conflict {
        target: String,
        tag: String,
        existing: String,
        ours: String,
    },
    /// The manifest read back after the push differs from what was pushed.
    #[error("read-back of {target}@{digest} failed: {detail}")]
    ReadBack {
        target: String,
        digest: String,
        detail: String,
    },
    /// The OCI image layout folder is unreadable or corrupt.
    #[error("{}: {detail}", path.display())]
    Layout { path: PathBuf, detail: String },
    /// Reading or writing the layout failed.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl OciError {
    /// The status of an error answer.
    pub fn status(&self) -> Option<u16> {
        match self {
            OciError::Status { status, .. } => Some(*status),
            _ => None,
        }
    }

    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        OciError::Io {
            path: path.into(),
            source,
        }
    }
}

impl olm_release_base::Classified for OciError {
    /// Input errors (target, tag, insecure URL, credentials) exit 2; everything else fails
    /// the stage (exit 1).
    fn class(&self) -> Class {
        match self {
            OciError::Target { .. }
            | OciError::InsecureHttp { .. }
            | OciError::Credentials { .. } => Class::Input,
            _ => Class::Stage,
        }
    }
}

/// What to do about a status.
fn hint(status: u16) -> &'static str {
    match status {
        401 => " (the registry needs credentials, or refused the ones given)",
        403 => " (the credentials lack push access to this repository)",
        404 => " (no such repository, or no access to it)",
        _ => "",
    }
}
