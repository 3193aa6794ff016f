//! git catalog targets: a scratch checkout of the branch (under the output folder), the
//! catalog folder `path` inside it, and a commit pushed without force.
//!
//! The commit message names the package, the version and the bundle image by digest (the
//! catalog step gives it); author, committer and date are the pipeline's
//! (`catalog.author`, `SOURCE_DATE_EPOCH`), so the same change on the same commit is the same
//! commit. Nothing staged means no commit and no push: a rerun writes nothing.

use std::path::PathBuf;

use super::{Change, Published, Publishing, Snapshot, Store, TargetError, recorded};
use crate::error::Result;
use crate::report::Reporter;
use crate::settings::GitTarget;
use olm_release_git::{Checkout, Git, Pushed, Remote, Signature};
use olm_release_http::events::{Gate, Write};
use olm_release_olm::fbc::FileChange;
use olm_release_olm::fbc::swap::Moved;

/// An open checkout.
struct Branch {
    git: Git,
    /// The checkout; moved onto a new head by [`Store::advance`].
    checkout: Checkout,
    /// The catalog folder in the repository.
    path: String,
    /// The catalog folder in the checkout.
    dir: PathBuf,
    signature: Signature,
}

pub(crate) fn open(job: &GitTarget, report: &Reporter) -> Result<Snapshot> {
    let remote = Remote {
        url: job.git.clone(),
        branch: job.branch.clone(),
    };
    let git = Git::new(job.secret.clone())
        .within(job.budget)
        .withholding(&crate::settings::SECRET_VARIABLES);
    let at = job.git.clone();
    let checkout = git
        .checkout(&remote, &job.scratch)
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
    Ok(Snapshot {
        fresh: checkout.base.is_none() || !dir.exists(),
        dir: dir.clone(),
        shown,
        store: Box::new(Branch {
            git,
            checkout,
            path: job.path.clone(),
            dir,
            signature: Signature {
                name: job.commit.name.clone(),
                email: job.commit.email.clone(),
                epoch: job.commit.date,
            },
        }),
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

impl Store for Branch {
    fn target(&self) -> String {
        let c = &self.checkout;
        format!("branch {} of {}", c.branch, c.url)
    }

    fn diff(&self, files: &[FileChange]) -> String {
        diff(&self.path, files)
    }

    fn publish<'a>(
        &'a self,
        change: &'a Change<'a>,
        write: Write,
        gate: &'a dyn Gate,
    ) -> Publishing<'a> {
        Box::pin(async move {
            if !gate.allow(&write) {
                return Ok(Published::Skipped);
            }
            Ok(recorded(self.push(change)?, write, gate))
        })
    }

    fn advance(&mut self) -> Result<bool> {
        let at = self.target();
        self.checkout
            .advance(&self.git)
            .map_err(|source| TargetError::Git { at, source })?;
        Ok(true)
    }
}

impl Branch {
    /// Writes the change into the checkout's catalog folder, commits and pushes.
    fn push(&self, change: &Change) -> Result<Published> {
        olm_release_olm::fbc::disk::apply(&self.dir, change.files)?;
        let at = self.target();
        let git_error = |source| TargetError::Git {
            at: at.clone(),
            source,
        };
        let checkout = &self.checkout;
        let Some(commit) = checkout
            .commit(&self.git, &self.path, change.message, &self.signature)
            .map_err(git_error)?
        else {
            return Ok(Published::Written(format!("{at}: nothing to commit")));
        };
        match checkout.push(&self.git).map_err(git_error)? {
            Pushed::Accepted { .. } => Ok(Published::Written(format!(
                "pushed commit {} to {at}",
                short(&commit)
            ))),
            Pushed::Moved { reason } => Ok(Published::Moved {
                // Any failure to read what moved means deciding again, which is always safe.
                moved: match checkout.moved(&self.git) {
                    Ok(Some(paths)) => Moved::Paths {
                        root: self.path.clone(),
                        paths,
                    },
                    Ok(None) | Err(_) => Moved::Unknown,
                },
                reason: format!(
                    "the push of {} to {at} was rejected: {reason}; the branch no longer names {}",
                    short(&commit),
                    checkout
                        .base
                        .as_deref()
                        .map(short)
                        .unwrap_or("nothing (it was created meanwhile)")
                ),
            }),
        }
    }
}
