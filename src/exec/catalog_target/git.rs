//! git catalog targets: a scratch checkout of the branch (under the output folder), the
//! catalog folder `path` inside it, and a commit pushed without force.
//!
//! The commit message names the package, the version and the bundle image by digest (the
//! catalog step gives it); author, committer and date are the pipeline's
//! (`catalog.author`, `SOURCE_DATE_EPOCH`), so the same change on the same commit is the same
//! commit. Nothing staged means no commit and no push: a rerun writes nothing.

use std::path::Path;

use super::error::TargetError;
use super::published::Published;
use super::read::Read;
use crate::error::Result;
use crate::plan::GitJob;
use crate::report::Reporter;
use olm_release_git::{Checkout, Git, Pushed};
use olm_release_olm::fbc::FileChange;

/// An open checkout.
pub(super) struct Opened {
    git: Git,
    checkout: Checkout,
    path: String,
}

impl Opened {
    /// The catalog folder in the repository.
    pub(super) fn path(&self) -> &str {
        &self.path
    }
}

pub(super) fn open(job: &GitJob, report: &Reporter) -> Result<Read<Opened>> {
    let git = Git::new(job.secret.clone())
        .within(job.budget)
        .withholding(&crate::settings::SECRET_VARIABLES);
    let at = job.git.clone();
    let checkout = git
        .checkout(&job.remote(), &job.scratch)
        .map_err(|source| TargetError::Git { at, source })?;
    let base = checkout
        .base
        .as_deref()
        .map(short)
        .unwrap_or("(no commit yet)")
        .to_string();
    report.detail(&format!(
        "read branch {} of {} at {base} into {}",
        checkout.branch,
        checkout.url,
        checkout.dir.display()
    ));
    let dir = checkout
        .folder(&job.path)
        .map_err(|source| TargetError::Git {
            at: job.git.clone(),
            source,
        })?;
    let shown = format!(
        "{}/ of branch {} of {} at {base}",
        job.path, checkout.branch, checkout.url
    );
    Ok(Read {
        fresh: checkout.base.is_none() || !dir.exists(),
        dir,
        shown,
        held: Opened {
            git,
            checkout,
            path: job.path.clone(),
        },
    })
}

fn short(sha: &str) -> &str {
    &sha[..sha.len().min(12)]
}

/// The changes to the catalog folder `path` as a commit's diff: paths relative to the
/// repository.
pub(super) fn diff(path: &str, changes: &[FileChange]) -> String {
    let moved: Vec<FileChange> = changes
        .iter()
        .map(|c| {
            let mut c = c.clone();
            c.path = format!("{path}/{}", c.path);
            c
        })
        .collect();
    olm_release_olm::fbc::disk::diff(&moved)
}

pub(super) fn target(o: &Opened) -> String {
    format!("branch {} of {}", o.checkout.branch, o.checkout.url)
}

/// Writes `changes` into the checkout's catalog folder `dir`, commits and pushes.
pub(super) fn publish(
    o: &Opened,
    job: &GitJob,
    dir: &Path,
    changes: &[FileChange],
    message: &str,
) -> Result<Published> {
    olm_release_olm::fbc::disk::apply(dir, changes)?;
    let at = target(o);
    let git_error = |source| TargetError::Git {
        at: at.clone(),
        source,
    };
    let Some(commit) = o
        .checkout
        .commit(&o.git, &o.path, message, &job.signature())
        .map_err(git_error)?
    else {
        return Ok(Published::Written(format!("{at}: nothing to commit")));
    };
    match o.checkout.push(&o.git).map_err(git_error)? {
        Pushed::Accepted { .. } => Ok(Published::Written(format!(
            "pushed commit {} to {at}",
            short(&commit)
        ))),
        Pushed::Moved { reason } => Ok(Published::Moved {
            reason: format!(
                "the push of {} to {at} was rejected: {reason}; the branch no longer names {}",
                short(&commit),
                o.checkout
                    .base
                    .as_deref()
                    .map(short)
                    .unwrap_or("nothing (it was created meanwhile)")
            ),
        }),
    }
}
