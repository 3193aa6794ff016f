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
    ImageLocation {
        /// The target or tag as given (credentials in a target shown as `****`).
        target: String,
        /// What is wrong with it, and the form expected.
        why: String,
    },
    /// Plain HTTP to a host that is not loopback, without `insecure`.
    #[error(
        "{url} uses plain http:// on a non-loopback host; use https:// or set insecure (only for a registry you trust on that network)"
    )]
    InsecureHttp {
        /// The registry's base URL, or the token realm.
        url: String,
    },
    /// Credentials that cannot be sent (e.g. characters not allowed in a header).
    #[error("{what}")]
    Credentials {
        /// What is wrong with them.
        what: String,
    },
    /// No answer: connection refused or reset, timeout, truncated body.
    #[error("{at}: {detail}")]
    Transport {
        /// The request: its method and URL path (`GET /v2/…`), or the token request.
        at: String,
        /// The innermost cause (connection refused, `no answer within 30s`, …).
        detail: String,
    },
    /// The registry answered with an error status.
    #[error("{at}: HTTP {status}{}{}", message.as_deref().map(|m| format!(": {m}")).unwrap_or_default(), hint(*status))]
    Status {
        /// The request: its method and URL path, or the token request.
        at: String,
        /// The HTTP status code.
        status: u16,
        /// The registry's error codes and messages, shortened and scrubbed.
        message: Option<String>,
        /// `Retry-After`, for 429 and 503.
        retry_after: Option<std::time::Duration>,
    },
    /// An answer that is not what the distribution API promises.
    #[error("{at}: the answer is not what the OCI distribution API returns: {detail}")]
    Invalid {
        /// The request (its method and URL path, with the status for a redirect), or the token
        /// realm.
        at: String,
        /// What is wrong with the answer (a TLS failure, a body past its cap, JSON that is not the
        /// API's, a redirect off the origin, …).
        detail: String,
    },
    /// A different image is already at the tag and `force` was not given.
    #[error(
        "{target}:{tag} already holds {existing}, not this bundle's {ours}; a published tag is not moved silently: bump the version, or pass --force to overwrite it"
    )]
    Conflict {
        /// The target: `HOST[:PORT]/REPOSITORY` or `oci:PATH`.
        target: String,
        /// The tag.
        tag: String,
        /// The manifest digest the tag holds.
        existing: String,
        /// This image's manifest digest.
        ours: String,
    },
    /// The manifest read back after the push differs from what was pushed.
    #[error("read-back of {target}@{digest} failed: {detail}")]
    ReadBack {
        /// The target: `HOST[:PORT]/REPOSITORY` or `oci:PATH`.
        target: String,
        /// The manifest digest that was pushed.
        digest: String,
        /// How the read-back differs: not served, other bytes, the tag pointing elsewhere, or
        /// another digest reported at the push.
        detail: String,
    },
    /// The OCI image layout folder is unreadable or corrupt.
    #[error("{}: {detail}", path.display())]
    Layout {
        /// The layout folder, or its `index.json` or `oci-layout` file.
        path: PathBuf,
        /// What is wrong (not JSON, no `manifests` list, not an image layout 1.0.0, not a sha256
        /// digest, the lock not taken, …).
        detail: String,
    },
    /// A symbolic link inside an OCI image layout (the layout folder itself, `blobs`,
    /// `index.json`, …): never followed.
    #[error("the OCI layout {}: {source}", layout.display())]
    Link {
        /// The layout folder.
        layout: PathBuf,
        /// The link and where it points.
        source: olm_release_base::links::Refused,
    },
    /// A catalog image's base or current image is not what a catalog image is built from.
    #[error("{image}: {detail}")]
    CatalogImage {
        /// The image: `HOST[:PORT]/REPOSITORY@sha256:…`, `…:TAG` or `oci:PATH…`.
        image: String,
        /// What is wrong with it, and what to do.
        detail: String,
    },
    /// Reading or writing the layout failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder being read or written.
        path: PathBuf,
        /// The operating system's error.
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
            OciError::ImageLocation { .. }
            | OciError::InsecureHttp { .. }
            | OciError::Credentials { .. }
            | OciError::Link { .. } => Class::Input,
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
