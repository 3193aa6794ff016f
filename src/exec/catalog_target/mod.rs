//! Catalog stores: where the catalog is kept, as one trait ([`Store`]) with one implementation
//! per kind of target. A store is opened once for a decision
//! ([`catalog::open`](super::catalog::open), the one match on the kind of target): its catalog is read
//! into a local folder ([`Snapshot`]), the file-based catalog logic runs on that folder as for
//! any folder (`fbc::disk` read, [`fbc::apply`](olm_release_olm::fbc::apply), validate, planned
//! file changes), and the changes are published back with a compare-and-swap against what was
//! read.
//!
//! - `dir:` ([`dir`]): the folder itself, locked (as a `dir:` app registry's namespace is)
//!   from the moment it is read to the end of the write, so racing jobs on one folder read,
//!   decide and write one after the other; a dry-run takes no lock.
//! - git ([`git`]): a scratch checkout of the branch's commit; publishing commits the change
//!   and pushes it without force. A push the remote rejects because the branch moved is
//!   [`Published::Moved`], with the paths the branch's new commits changed: the executor
//!   applies the change again on a fresh checkout when they are other packages' only, else
//!   decides again ([`fbc::swap`](olm_release_olm::fbc::swap)).
//! - git on GitHub with `catalog.pull_request` ([`pull`]): the base branch's catalog folder read
//!   through GitHub's API into a scratch folder; publishing proposes the change as a pull
//!   request (found and updated on a rerun; a merged one means nothing to do).
//! - `image:` ([`image`]): the tag's catalog read into a scratch folder; publishing builds the
//!   image on the base and moves the tag only if it still names the digest read.
//!
//! Publishing asks the run's gate once, right before the write, so a dry-run reads the target,
//! shows the change and writes nothing. The executor owns the snapshot from the step that reads
//! it (fetch-previous, or the check that the app registry and the catalog agree) to the catalog
//! step, so the write is a swap against exactly what the decision was taken on.

pub(crate) mod dir;
pub(crate) mod git;
pub(crate) mod image;
pub(crate) mod pull;

use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;

use crate::error::Result;
use olm_release_base::{Class, Classified};
use olm_release_http::events::{Gate, Write};
use olm_release_olm::fbc::swap::Moved;
use olm_release_olm::fbc::{AddBundle, FileChange};

/// What publishing did.
#[derive(Debug)]
pub(crate) enum Published {
    /// The target holds the change (written now, or found there); a line saying where (a
    /// commit, a pull request).
    Written(String),
    /// A dry-run: the gate skipped the write.
    Skipped,
    /// Someone else changed the target since it was read; nothing of this run landed. `moved`:
    /// what changed, as far as the store can tell (the paths of the branch's new commits, the
    /// packages whose documents differ in the image now under the tag).
    Moved { reason: String, moved: Moved },
}

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
    /// Another job kept moving the target: every attempt lost the swap until the deadline (or
    /// the retries) ran out.
    #[error(
        "the catalog {target} moved {} in {seconds:.1} s while this job decided and wrote ({reason}); nothing of this release is in it. Run again once the other jobs publishing to it have finished (a rerun decides on what they published), or give it longer (catalog.publish_deadline_seconds, catalog.retries)",
        olm_release_base::words::count(*.attempts as usize, "time")
    )]
    Moved {
        target: String,
        attempts: u32,
        seconds: f64,
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

/// A change to publish: the files that change in the catalog folder, and what they add.
pub(crate) struct Change<'a> {
    /// The file changes, relative to the catalog folder.
    pub(crate) files: &'a [FileChange],
    /// The commit message (git, pull request).
    pub(crate) message: &'a str,
    /// The release the change adds: a store that finds its target moved on to a catalog holding
    /// it has nothing to decide again.
    pub(crate) release: &'a AddBundle,
}

/// What publishing will have done, once awaited.
pub(crate) type Publishing<'a> = Pin<Box<dyn Future<Output = Result<Published>> + 'a>>;

/// A catalog store, opened: what it holds on to from the read to the write (a lock, a scratch
/// checkout, the clients of a pull request, the digest the tag named).
pub(crate) trait Store {
    /// Where a write goes, for the gate's record: the folder, the branch, the pull request, the
    /// tag.
    fn target(&self) -> String;

    /// What writing `files` would change, as a unified diff with the store's own paths (for
    /// git, the repository's; for an image, with the new layer's listing).
    fn diff(&self, files: &[FileChange]) -> String;

    /// Publishes `change` with a compare-and-swap against what was read, asking `gate` for
    /// `write` once, right before it: [`Published::Moved`] when another job changed the target
    /// meanwhile (nothing of this change landed).
    fn publish<'a>(
        &'a self,
        change: &'a Change<'a>,
        write: Write,
        gate: &'a dyn Gate,
    ) -> Publishing<'a>;

    /// After a [`Published::Moved`] whose new head the store fetched while finding what moved
    /// (git): moves the snapshot onto that head, so the change can be applied again without a
    /// fresh read; whether it did (`false`: read the target again).
    fn advance(&mut self) -> Result<bool> {
        Ok(false)
    }
}

/// A store's catalog, read into a local folder, and the store to publish it to.
pub(crate) struct Snapshot {
    /// The folder holding the catalog files.
    pub(crate) dir: PathBuf,
    /// How the catalog reads in messages (`./catalog`, `catalog/ of branch main of URL at
    /// 1a2b3c4`).
    pub(crate) shown: String,
    /// The target holds no catalog yet (no folder, branch or tag).
    pub(crate) fresh: bool,
    /// The store, as opened.
    pub(crate) store: Box<dyn Store>,
}

/// `done` as the gate records it: a write that landed (or was found there) is `write` done.
fn recorded(done: Published, write: Write, gate: &dyn Gate) -> Published {
    if matches!(done, Published::Written(_)) {
        gate.done(write);
    }
    done
}
