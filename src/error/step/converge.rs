//! How a publication that raced another one can fail: every variant is a stage failure (exit 1)
//! that says where the registry stands and what to rerun; a registry error stays the source.

use olm_release_appregistry::RegistryError;
use olm_release_base::Class;

#[derive(Debug, thiserror::Error)]
pub(crate) enum ConvergeError {
    #[error("locking {at} for publishing: {source}")]
    Lock {
        at: String,
        #[source]
        source: RegistryError,
    },
    #[error(
        "re-reading the releases of {at} after pushing {release} (to check no release landed concurrently): {source}; \
         rerun this job to check again (its push is idempotent)"
    )]
    Read {
        at: String,
        release: String,
        #[source]
        source: RegistryError,
    },
    #[error(
        "release {release} of {at} changed while this job converged (now sha256:{now}, this job pushed sha256:{ours}); \
         another job or a --force run wrote it. Rerun this job when the others have finished"
    )]
    Replaced {
        at: String,
        release: String,
        now: String,
        ours: String,
    },
    #[error(
        "release {release} of {at} disappeared while this job converged; rerun this job to publish it again"
    )]
    Vanished { at: String, release: String },
    #[error(
        "releases kept landing below {release} of {at} while it was re-based {attempts} times; it does not carry {missing} yet. \
         Rerun this job when the other jobs have finished: it takes in every release below it that it finds"
    )]
    Diverged {
        at: String,
        release: String,
        attempts: u32,
        missing: String,
    },
    #[error(
        "release {top} of {at} landed while this job ran and is above {release}, and in {waited} s it did not take in \
         {csv} (registry.concurrent_wait_seconds); release {release} was withdrawn so that the channel does not fork. \
         A rerun of {release} is now older than the head and refused: publish these changes as a version above {top}"
    )]
    Withdrawn {
        at: String,
        release: String,
        top: String,
        csv: String,
        waited: u64,
    },
    #[error(
        "release {top} of {at} landed while this job ran and is above {release} without carrying {csv}, and \
         withdrawing {release} failed: {source}. The channel forks until {release} is deleted \
         (olm-release registry delete) or {top} is re-published by its job"
    )]
    NotWithdrawn {
        at: String,
        release: String,
        top: String,
        csv: String,
        #[source]
        source: RegistryError,
    },
}

impl olm_release_base::Classified for ConvergeError {
    fn class(&self) -> Class {
        Class::Stage
    }
}
