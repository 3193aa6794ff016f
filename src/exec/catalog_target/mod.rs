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
//! - git on GitHub with `catalog.pull_request` ([`pull`]): the base branch's catalog folder read
//!   through GitHub's API into a scratch folder; publishing proposes the change as a pull
//!   request (found and updated on a rerun; a merged one means nothing to do).
//!
//! Publishing asks the run's gate once, right before the write, so a dry-run reads the target,
//! shows the change and writes nothing.
//!
//! A snapshot lives from the first step that reads the catalog (fetch-previous, or the check
//! that the app registry and the catalog agree) to the catalog step, so the write is a swap
//! against exactly what the decision was taken on.

mod dir;
mod error;
mod git;
mod image;
mod published;
mod pull;
mod read;

use std::path::PathBuf;
use std::sync::Arc;

pub(crate) use error::TargetError;
pub(crate) use published::Published;
pub(crate) use pull::{clients, proposed};

use crate::error::Result;
use crate::plan::TargetJob;
use crate::report::Reporter;
use olm_release_http::events::{Events, Gate, Write};
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
    Pull(Box<pull::Opened>),
    Image(image::Opened),
}

/// Reads the catalog of `job` into a snapshot; `writes`: the run will write (a dry-run takes no
/// lock and makes no scratch writes outside the output folder).
pub(crate) async fn open(
    job: &TargetJob,
    writes: bool,
    report: &Reporter,
    events: Arc<dyn Events>,
) -> Result<Snapshot> {
    Ok(match job {
        TargetJob::Dir { dir } => snapshot(dir::open(dir, writes, report)?, Held::Dir),
        TargetJob::Git(g) => match &g.pull_request {
            Some(p) => snapshot(pull::open(g, p, events).await?, Held::Pull),
            None => snapshot(git::open(g, report)?, Held::Git),
        },
        TargetJob::Image(i) => snapshot(image::open(i, report)?, Held::Image),
    })
}

/// The snapshot of what a kind of target read, its hold wrapped by `held`.
fn snapshot<H>(read: read::Read<H>, held: impl FnOnce(H) -> Held) -> Snapshot {
    Snapshot {
        dir: read.dir,
        shown: read.shown,
        fresh: read.fresh,
        held: held(read.held),
    }
}

impl Snapshot {
    /// What writing `changes` would change, as a unified diff with the target's own paths
    /// (for git, the repository's).
    pub(crate) fn diff(&self, changes: &[FileChange]) -> String {
        match &self.held {
            Held::Dir(_) => olm_release_olm::fbc::disk::diff(changes),
            Held::Git(o) => git::diff(o.path(), changes),
            Held::Pull(o) => git::diff(o.path(), changes),
            Held::Image(o) => image::diff(o, changes),
        }
    }

    /// Where a write goes, for the gate's record: the folder, or the branch.
    pub(crate) fn target(&self) -> String {
        match &self.held {
            Held::Dir(_) => self.dir.display().to_string(),
            Held::Git(o) => git::target(o),
            Held::Pull(o) => o.target(),
            Held::Image(_) => self.shown.clone(),
        }
    }

    /// Publishes `changes` (described by `write`, asked of `gate` right before): written to
    /// the folder, committed (`message`) and pushed, or proposed as a pull request.
    pub(crate) async fn publish(
        &self,
        job: &TargetJob,
        changes: &[FileChange],
        message: &str,
        write: Write,
        gate: &dyn Gate,
    ) -> Result<Published> {
        if let (Held::Pull(o), TargetJob::Git(g)) = (&self.held, job) {
            // The proposal asks the gate itself (its write is the pull request).
            return pull::publish(o, g, changes, message, gate).await;
        }
        if !gate.allow(&write) {
            return Ok(Published::Skipped);
        }
        let done = match (&self.held, job) {
            (Held::Dir(_), _) => {
                olm_release_olm::fbc::disk::apply(&self.dir, changes)?;
                Published::Written(format!("wrote {}", self.dir.display()))
            }
            (Held::Git(o), TargetJob::Git(g)) => git::publish(o, g, &self.dir, changes, message)?,
            (Held::Image(o), TargetJob::Image(i)) => image::publish(o, i, &self.dir, changes)?,
            _ => {
                return Err(crate::error::Error::internal(
                    "a catalog snapshot published to another kind of target",
                ));
            }
        };
        if matches!(done, Published::Written(_)) {
            gate.done(write);
        }
        Ok(done)
    }
}
