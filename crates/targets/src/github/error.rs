//! What can go wrong with a GitHub release, as the user reads it: a failed call (method, URL
//! path, status, GitHub's message and `errors`), or a release that does not end up holding the
//! assets as uploaded. A token or API base GitHub cannot be given is an input error (exit 2);
//! everything else is a stage failure (exit 1), and a re-run converges.

use std::fmt;

use serde_json::Value;

use olm_release_base::Class;
use olm_release_http::retry::Verdict;

#[derive(Debug, thiserror::Error)]
pub enum GitHubError {
    /// A call failed (after its retries).
    #[error(transparent)]
    Api(#[from] ApiError),
    #[error(
        "GITHUB_TOKEN / GH_TOKEN holds characters an HTTP header cannot carry (a stray newline or space?)"
    )]
    Token,
    #[error("release.api_url '{api}': {message}")]
    ApiUrl { api: String, message: String },
    #[error(
        "release {tag}: its upload_url {url} is not under {root}, the upload root for the API base {api}; \
         refusing to send the token there (for GitHub Enterprise set release.api_url to https://HOST/api/v3)"
    )]
    UploadUrl {
        tag: String,
        url: String,
        root: String,
        api: String,
    },
    #[error(
        "{target}: the release is published and immutable, so its assets cannot be replaced or deleted; \
         publish a new tag instead"
    )]
    Immutable { target: String },
    #[error(
        "{target}: published asset(s) differ from the local ones: {}; published assets are not replaced \
         (fix the inputs, publish a new tag, or re-run with --force to replace them)",
        changed.join("; ")
    )]
    AssetChanged {
        target: String,
        changed: Vec<String>,
    },
    #[error("{source}; yet no release for the tag can be found (does the token have push access?)")]
    Vanished {
        #[source]
        source: ApiError,
    },
    #[error("{target}: {} failed: {}; the release is left as it is, re-run to converge", olm_release_base::words::count(failures.len(), "asset"), failures.join("; "))]
    Assets {
        target: String,
        failures: Vec<String>,
    },
    #[error("renaming the new copy of {name}: GitHub named it '{got}'")]
    Renamed { name: String, got: String },
    #[error(
        "uploading {name}: GitHub stored it as '{got}' (it renames names with special characters or leading/trailing dots); rename the file"
    )]
    StoredAs { name: String, got: String },
    #[error(
        "uploading {name}: GitHub holds {size} bytes with digest {digest}, expected {want_size} bytes with {want}"
    )]
    Stored {
        name: String,
        size: u64,
        digest: String,
        want_size: usize,
        want: String,
    },
    #[error(
        "{target}: the release does not hold the assets as uploaded: {}; it is not published, re-run to converge",
        problems.join("; ")
    )]
    Unconverged {
        target: String,
        problems: Vec<String>,
    },
    /// Something the client's own invariants rule out happened (a bug).
    #[error("internal error (a bug in olm-release; please report it with this message): {0}")]
    Internal(String),
}

impl GitHubError {
    /// A bug: something the client's own invariants rule out happened.
    pub(crate) fn internal(message: impl Into<String>) -> Self {
        GitHubError::Internal(message.into())
    }
}

impl olm_release_base::Classified for GitHubError {
    fn class(&self) -> Class {
        match self {
            GitHubError::Token | GitHubError::ApiUrl { .. } => Class::Input,
            GitHubError::Internal(_) => Class::Internal,
            _ => Class::Stage,
        }
    }
}

/// One failed call: what was asked, what came back, and whether to retry.
#[derive(Debug)]
pub struct ApiError {
    /// Method and URL path, e.g. `POST /repos/o/r/releases` (never a header or the token).
    pub(crate) what: String,
    pub(crate) status: Option<u16>,
    pub(crate) message: String,
    /// GitHub's `errors` array (422 details).
    pub(crate) errors: Vec<Value>,
    pub(crate) verdict: Verdict,
}

impl ApiError {
    /// A 422 whose details say the resource (release tag or asset name) already exists.
    pub(crate) fn already_exists(&self) -> bool {
        self.status == Some(422)
            && self
                .errors
                .iter()
                .any(|e| e.get("code").and_then(Value::as_str) == Some("already_exists"))
    }
}

impl ApiError {
    /// What went wrong, without the call: `HTTP 503: Service Unavailable` or the transport's
    /// message.
    pub(crate) fn why(&self) -> String {
        match self.status {
            Some(s) => format!("HTTP {s}: {}", self.message),
            None => self.message.clone(),
        }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.what, self.why())?;
        if !self.errors.is_empty() {
            let errors: Vec<String> = self.errors.iter().map(Value::to_string).collect();
            write!(f, " {}", errors.join(", "))?;
        }
        if self.status == Some(401) {
            f.write_str(" (check GITHUB_TOKEN / GH_TOKEN)")?;
        }
        Ok(())
    }
}

impl std::error::Error for ApiError {}

impl olm_release_base::Classified for ApiError {
    /// GitHub refused or could not be reached: the stage fails.
    fn class(&self) -> Class {
        Class::Stage
    }
}

pub type ApiResult<T> = std::result::Result<T, ApiError>;

/// Why a 2xx answer could not be read: not JSON at all (an HTML login page, plain text), or
/// JSON of another shape (a missing field).
pub(super) fn unexpected(text: &str, e: &serde_json::Error) -> String {
    let t = text.trim();
    if serde_json::from_str::<Value>(t).is_ok() {
        format!("unexpected answer: {e}")
    } else {
        format!(
            "unexpected answer: {} is not the API's JSON",
            olm_release_http::answer::describe_non_json(t)
        )
    }
}
