//! The push step's failures: the registry refusing or losing the push, a release already
//! published with other content, and a pulled-back release that is not what was sent.

use olm_release_appregistry::RegistryError;
use olm_release_base::Class;
use olm_release_olm::archive::ReadError;

/// Publishing the bundle and proving it.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PushError {
    /// Looking the release up (before or after the push).
    #[error(transparent)]
    Lookup(#[from] RegistryError),
    #[error(
        "release {release} of {namespace}/{package} is already published with different content (published sha256:{published}, \
         this bundle sha256:{ours}); nothing was pushed. Bump the version, or pass --force to overwrite it"
    )]
    Conflict {
        release: String,
        namespace: String,
        package: String,
        published: String,
        ours: String,
    },
    #[error(
        "the registry refused release {release} of {namespace}/{package} as existing (409), but does not list it"
    )]
    ExistsUnlisted {
        release: String,
        namespace: String,
        package: String,
    },
    /// The push failed; `state` says where things stand after looking again.
    #[error("pushing release {release} of {namespace}/{package}: {source}; {state}")]
    Failed {
        release: String,
        namespace: String,
        package: String,
        state: String,
        #[source]
        source: RegistryError,
    },
    #[error("pulling release {release} back: {source}")]
    PullBack {
        release: String,
        #[source]
        source: RegistryError,
    },
    #[error("pulled release {release} back: {source}")]
    Unreadable {
        release: String,
        #[source]
        source: ReadError,
    },
    #[error(
        "pulled release {release} of {namespace}/{package} back, but its digest is sha256:{pulled}, not sha256:{digest}"
    )]
    Pulled {
        release: String,
        namespace: String,
        package: String,
        pulled: String,
        digest: String,
    },
}

impl olm_release_base::Classified for PushError {
    fn class(&self) -> Class {
        match self {
            PushError::Lookup(e) | PushError::Failed { source: e, .. } => e.class(),
            _ => Class::Stage,
        }
    }
}
