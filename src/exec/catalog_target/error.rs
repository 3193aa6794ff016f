//! What can go wrong reading or writing a catalog target, besides what its client says.

use std::path::PathBuf;

use olm_release_base::{Class, Classified};

/// A catalog target's failure.
#[derive(Debug, thiserror::Error)]
pub(crate) enum TargetError {
    /// The `dir:` folder cannot be created or locked.
    #[error("locking the catalog {} for publishing: {source}", dir.display())]
    Lock {
        dir: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The git client failed.
    #[error("the catalog in {at}: {source}")]
    Git {
        at: String,
        #[source]
        source: olm_release_git::GitError,
    },
    /// The branch a pull request would go into does not exist.
    #[error(
        "github:{repository} has no branch {branch}; catalog.branch must name the branch pull requests go into"
    )]
    NoBranch { repository: String, branch: String },
    /// Another job kept moving the target: every decision taken lost the swap.
    #[error(
        "the catalog {target} moved {} while this job decided and wrote ({reason}); nothing of this release is in it. Run again once the other jobs publishing to it have finished (a rerun decides on what they published)",
        olm_release_base::words::count(*.attempts as usize, "time")
    )]
    Moved {
        target: String,
        attempts: u32,
        reason: String,
    },
}

impl Classified for TargetError {
    fn class(&self) -> Class {
        match self {
            TargetError::Git { source, .. } => source.class(),
            _ => Class::Stage,
        }
    }
}
