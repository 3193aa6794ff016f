//! What can go wrong with a GitHub release, as the user reads it: a failed call (method, URL
//! path, status, GitHub's message and `errors`), or a release that does not end up holding the
//! assets as uploaded. A token or API base GitHub cannot be given is an input error (exit 2);
//! everything else is a stage failure (exit 1), and a re-run converges.

use std::fmt;

use serde_json::Value;

use olm_release_base::Class;
use olm_release_http::retry::Verdict;

/// What can go wrong attaching assets to a GitHub release.
#[derive(Debug, thiserror::Error)]
pub enum GitHubError {
    /// A call failed (after its retries).
    #[error(transparent)]
    Api(#[from] ApiError),
    /// The token (`GITHUB_TOKEN` or `GH_TOKEN`) is empty or holds characters an HTTP header cannot
    /// carry.
    #[error(
        "GITHUB_TOKEN / GH_TOKEN holds characters an HTTP header cannot carry (a stray newline or space?)"
    )]
    Token,
    /// `release.api_url` is not a URI.
    #[error("release.api_url '{api}': {message}")]
    ApiUrl {
        /// The API base as given, without a trailing slash.
        api: String,
        /// The URI parser's message.
        message: String,
    },
    /// A release's `upload_url` lies outside the upload root of the API base, where the token must
    /// not be sent.
    #[error(
        "release {tag}: its upload_url {url} is not under {root}, the upload root for the API base {api}; \
         refusing to send the token there (for GitHub Enterprise set release.api_url to https://HOST/api/v3)"
    )]
    UploadUrl {
        /// The release's tag.
        tag: String,
        /// Its `upload_url`, without the `{?name,label}` template.
        url: String,
        /// The upload root derived from the API base (`https://uploads.github.com` for
        /// `https://api.github.com`).
        root: String,
        /// The API base.
        api: String,
    },
    /// The release is published and immutable, and bringing its assets in line would replace or
    /// delete one.
    #[error(
        "{target}: the release is published and immutable, so its assets cannot be replaced or deleted; \
         publish a new tag instead"
    )]
    Immutable {
        /// The release, as `github:OWNER/REPO release TAG`.
        target: String,
    },
    /// Assets of the published release differ from the local ones, and `--force` was not given.
    #[error(
        "{target}: {} from the local {}: {}; published assets are not replaced \
         (fix the inputs, publish a new tag, or re-run with --force to replace them)",
        if changed.len() == 1 { "a published asset differs" } else { "published assets differ" },
        if changed.len() == 1 { "one" } else { "ones" },
        changed.join("; ")
    )]
    AssetChanged {
        /// The release, as `github:OWNER/REPO release TAG`.
        target: String,
        /// One entry per differing asset: its name, the published digest and the local sha256.
        changed: Vec<String>,
    },
    /// Creating the release failed because it exists (another run created it meanwhile), yet no
    /// release for the tag can be found.
    #[error("{source}; yet no release for the tag can be found (does the token have push access?)")]
    Vanished {
        /// The create call's error (a 422 `already_exists`).
        #[source]
        source: ApiError,
    },
    /// Some asset uploads, replacements or deletions failed (the others went through).
    #[error("{target}: {} failed: {}; the release is left as it is, re-run to converge", olm_release_base::words::count(failures.len(), "asset"), failures.join("; "))]
    Assets {
        /// The release, as `github:OWNER/REPO release TAG`.
        target: String,
        /// Each failed asset's error, as its message reads.
        failures: Vec<String>,
    },
    /// An asset's new copy, uploaded under a temporary name, did not get the asset's name when
    /// renamed.
    #[error("renaming the new copy of {name}: GitHub named it '{got}'")]
    Renamed {
        /// The asset's name.
        name: String,
        /// The name GitHub gave it.
        got: String,
    },
    /// GitHub stored an upload under another name than the one sent.
    #[error(
        "uploading {name}: GitHub stored it as '{got}' (it renames names with special characters or leading/trailing dots); rename the file"
    )]
    StoredAs {
        /// The asset's name.
        name: String,
        /// The name GitHub stored it under.
        got: String,
    },
    /// GitHub's answer to an upload gives another size or digest than the local file's.
    #[error(
        "uploading {name}: GitHub holds {size} bytes with digest {digest}, expected {want_size} bytes with {want}"
    )]
    Stored {
        /// The asset's name.
        name: String,
        /// The size GitHub reports, in bytes.
        size: u64,
        /// The digest GitHub reports (`sha256:<hex>`, or `null` when it gives none).
        digest: String,
        /// The local file's size in bytes.
        want_size: usize,
        /// The local file's digest, `sha256:<hex>`.
        want: String,
    },
    /// After the uploads, the release's asset list does not hold the local assets as uploaded.
    #[error(
        "{target}: the release does not hold the assets as uploaded: {}; it is not published, re-run to converge",
        problems.join("; ")
    )]
    Unconverged {
        /// The release, as `github:OWNER/REPO release TAG`.
        target: String,
        /// One entry per asset that is missing, not in state `uploaded`, or of another size or
        /// digest.
        problems: Vec<String>,
    },
    /// A pull request from the branch was closed without being merged.
    #[error(
        "{target}: pull request #{number} ({url}) was closed without merging; reopen it, or delete the branch {branch} of {fork} to propose the change again"
    )]
    PullClosed {
        /// The proposal, as `github:OWNER/REPO pull request from FORK:BRANCH into BASE`.
        target: String,
        /// The pull request's number.
        number: u64,
        /// Its page.
        url: String,
        /// The pull request's branch.
        branch: String,
        /// The fork it is on, `OWNER/REPO`.
        fork: String,
    },
    /// The branch a pull request should go into does not exist.
    #[error("{target}: the repository has no branch {branch}; name an existing one")]
    NoBase {
        /// The proposal.
        target: String,
        /// The missing branch.
        branch: String,
    },
    /// The fork cannot see the base branch's commit.
    #[error(
        "the fork {fork} does not have {commit}, the head of {base}; sync the fork with its upstream (GitHub's \"Sync fork\", or gh repo sync {fork}) and run again"
    )]
    ForkBehind {
        /// The fork, `OWNER/REPO`.
        fork: String,
        /// The base branch's commit.
        commit: String,
        /// The base branch, `OWNER/REPO BRANCH`.
        base: String,
    },
    /// A symbolic link in the repository's tree on the way to, or under, a path read: never
    /// followed, never read as a file.
    #[error(
        "{path} in github:{repository} is a symbolic link to {to}; links in the catalog path are never followed: replace it by the folder or file itself"
    )]
    Link {
        /// The repository, `OWNER/REPO`.
        repository: String,
        /// The link's path in the repository.
        path: String,
        /// Where it points, as its blob holds it.
        to: String,
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
            GitHubError::Token | GitHubError::ApiUrl { .. } | GitHubError::Link { .. } => {
                Class::Input
            }
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
    /// The same error, never retried (an answer that will not change).
    pub(crate) fn fail(mut self) -> Self {
        self.verdict = Verdict::Fail;
        self
    }

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
