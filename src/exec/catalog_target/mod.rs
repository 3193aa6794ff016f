//! Where the catalog comes from and goes to: a catalog target's catalog read into a local
//! folder ([`Snapshot`]), the file-based catalog logic run on that folder as for any folder
//! (`fbc::disk` read, `fbc::add`, validate, planned file changes), and the changes published
//! back with a compare-and-swap.
//!
//! - `dir:` ([`dir`]): the folder itself, locked (as a `dir:` app registry's namespace is)
//!   from the moment it is read to the end of the write, so racing jobs on one folder read,
//!   decide and write one after the other; a dry-run takes no lock.
//! - git ([`git`]): a scratch checkout of the branch's commit; publishing commits the change
//!   and pushes it without force. A push the remote rejects because the branch moved is
//!   [`Published::Moved`]: the executor decides again on a fresh checkout.
//!
//! A snapshot lives from the first step that reads the catalog (fetch-previous, or the check
//! that the app registry and the catalog agree) to the catalog step, so the write is a swap
//! against exactly what the decision was taken on.

mod dir;
mod error;
mod git;
mod image;

use std::path::PathBuf;

pub(crate) use error::TargetError;

use crate::error::Result;
use crate::plan::TargetJob;
use crate::report::Reporter;
use olm_release_olm::fbc::FileChange;

/// A target's catalog, read into a local folder.
pub(crate) struct Snapshot {
    /// The folder holding the catalog files.
    pub(crate) dir: PathBuf,
    /// How the catalog reads in messages (`./catalog`, `catalog/ of branch main of URL at
    /// 1a2b3c4`).
    pub(crate) shown: String,
    /// The target holds no catalog yet (no folder, branch or tag).
    pub(crate) fresh: bool,
    held: Held,
}

/// What a snapshot holds on to until it is published or dropped.
enum Held {
    Dir(#[allow(dead_code)] Option<dir::Locked>),
    Git(git::Opened),
    Image(image::Opened),
}

/// What publishing did.
#[derive(Debug)]
pub(crate) enum Published {
    /// The target now holds the change; a line saying where (a commit, a digest).
    Written(String),
    /// Someone else changed the target since it was read; nothing of this run landed.
    Moved { reason: String },
}

/// Reads the catalog of `job` into a snapshot; `writes`: the run will write (a dry-run takes no
/// lock and makes no scratch writes outside the output folder).
pub(crate) fn open(job: &TargetJob, writes: bool, report: &Reporter) -> Result<Snapshot> {
    match job {
        TargetJob::Dir { dir } => dir::open(dir, writes, report),
        TargetJob::Git(g) => git::open(g, report),
        TargetJob::Image(i) => image::open(i, report),
    }
}

impl Snapshot {
    /// What writing `changes` would change, as a unified diff with the target's own paths
    /// (for git, the repository's).
    pub(crate) fn diff(&self, changes: &[FileChange]) -> String {
        match &self.held {
            Held::Dir(_) => olm_release_olm::fbc::disk::diff(changes),
            Held::Git(o) => git::diff(o, changes),
            Held::Image(o) => image::diff(o, changes),
        }
    }

    /// Where a write goes, for the gate's record: the folder, or the branch.
    pub(crate) fn target(&self) -> String {
        match &self.held {
            Held::Dir(_) => self.dir.display().to_string(),
            Held::Git(o) => git::target(o),
            Held::Image(_) => self.shown.clone(),
        }
    }

    /// Publishes `changes`: written to the folder, or committed (`message`) and pushed.
    pub(crate) fn publish(
        &self,
        job: &TargetJob,
        changes: &[FileChange],
        message: &str,
    ) -> Result<Published> {
        match (&self.held, job) {
            (Held::Dir(_), _) => {
                olm_release_olm::fbc::disk::apply(&self.dir, changes)?;
                Ok(Published::Written(format!("wrote {}", self.dir.display())))
            }
            (Held::Git(o), TargetJob::Git(g)) => git::publish(o, g, &self.dir, changes, message),
            (Held::Image(o), TargetJob::Image(i)) => image::publish(o, i, &self.dir, changes),
            (Held::Git(_) | Held::Image(_), _) => Err(crate::error::Error::internal(
                "a git snapshot published to another kind of target",
            )),
        }
    }
}
