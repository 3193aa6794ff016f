//! git catalog targets on GitHub with `catalog.pull_request`: the catalog folder of the base
//! branch read through GitHub's API (git data: refs, trees, blobs) into a scratch folder under
//! the output folder, and the change proposed as a pull request from a branch of the fork
//! ([`olm_release_github::propose`], the same code the `operatorhub` stage uses).
//!
//! No compare-and-swap is needed: the pull request is based on the commit read, and merging is
//! the repository's decision. A rerun finds the open pull request and writes nothing when it
//! already proposes the change; once merged, fetch-previous reads the entry from the base
//! branch and the catalog step has nothing to add.

use std::sync::Arc;

use super::{Change, Published, Publishing, Snapshot, Store, TargetError};
use crate::error::{Error, Result};
use crate::settings::{GitTarget, PullRequest};
use olm_release_github::{self as github, Author, Client, Proposal, Proposed};
use olm_release_http::events::{Events, Gate, Write};
use olm_release_olm::fbc::FileChange;

/// The base branch read, and the clients that propose on it.
struct Proposing {
    upstream: Client,
    fork: Client,
    base: String,
    path: String,
    job: PullRequest,
    author: Author,
    events: Arc<dyn Events>,
}

impl Store for Proposing {
    fn target(&self) -> String {
        format!(
            "github:{} pull request from {}:{} into {}",
            self.job.repository, self.job.fork, self.job.branch, self.base
        )
    }

    fn diff(&self, files: &[FileChange]) -> String {
        super::git::diff(&self.path, files)
    }

    /// The proposal asks the gate itself (its write is the pull request, not `write`).
    fn publish<'a>(
        &'a self,
        change: &'a Change<'a>,
        _write: Write,
        gate: &'a dyn Gate,
    ) -> Publishing<'a> {
        Box::pin(self.propose(change, gate))
    }
}

/// The clients of the repository and of the fork.
pub(crate) fn clients(job: &PullRequest, events: &Arc<dyn Events>) -> Result<(Client, Client)> {
    let token = job
        .token
        .as_ref()
        .ok_or_else(|| Error::internal("a pull request job without a token"))?;
    let ((o, r), (fo, fr)) = job.repos();
    let cfg = github::Config::default();
    let upstream = Client::new(&job.api, o, r, token, cfg.clone(), events.clone())?;
    let fork = Client::new(&job.api, fo, fr, token, cfg, events.clone())?;
    Ok((upstream, fork))
}

pub(crate) async fn open(
    g: &GitTarget,
    job: &PullRequest,
    events: Arc<dyn Events>,
) -> Result<Snapshot> {
    let (upstream, fork) = clients(job, &events)?;
    let base = match &g.branch {
        Some(b) => b.clone(),
        None => github::default_branch(&upstream).await?,
    };
    let (commit, files) = github::read_folder(&upstream, &base, &g.path)
        .await?
        .ok_or_else(|| TargetError::NoBranch {
            repository: job.repository.clone(),
            branch: base.clone(),
        })?;
    let scratch = &g.scratch;
    let io = |e| Error::output(scratch, e);
    match std::fs::remove_dir_all(scratch) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(io(e)),
    }
    let dir = scratch.join(&g.path);
    std::fs::create_dir_all(&dir).map_err(io)?;
    for (rel, bytes) in &files {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io)?;
        }
        std::fs::write(&path, bytes).map_err(io)?;
    }
    events.detail(&format!(
        "read {} of {}/ on branch {base} of {} at {commit} through {}",
        olm_release_base::words::count(files.len(), "file"),
        g.path,
        job.repository,
        job.api
    ));
    Ok(Snapshot {
        shown: format!(
            "{}/ of branch {base} of github:{} at {}",
            g.path,
            job.repository,
            &commit[..commit.len().min(12)]
        ),
        fresh: files.is_empty(),
        dir,
        store: Box::new(Proposing {
            upstream,
            fork,
            base,
            path: g.path.clone(),
            job: job.clone(),
            author: g.commit.github(),
            events,
        }),
    })
}

impl Proposing {
    /// Proposes the change (to the catalog folder) as the pull request.
    async fn propose(&self, change: &Change<'_>, gate: &dyn Gate) -> Result<Published> {
        let files: Vec<(String, Option<Vec<u8>>)> = change
            .files
            .iter()
            .map(|c| {
                (
                    format!("{}/{}", self.path, c.path),
                    c.new.as_ref().map(|t| t.as_bytes().to_vec()),
                )
            })
            .collect();
        let body = format!(
            "{}\nProposed by olm-release: the catalog folder `{}/` validated with the rules of `opm validate`.\n",
            change.message, self.path
        );
        let proposal = Proposal {
            base: &self.base,
            branch: &self.job.branch,
            files: &files,
            message: change.message,
            author: &self.author,
            title: &self.job.title,
            body: &body,
            draft: self.job.draft,
        };
        let events = self.events.as_ref();
        let done = github::propose(&proposal, &self.upstream, &self.fork, gate, events).await?;
        Ok(proposed(done))
    }
}

/// A line saying what proposing did.
pub(crate) fn proposed(done: Proposed) -> Published {
    match done {
        Proposed::Opened { number, url } => {
            Published::Written(format!("opened pull request #{number}: {url}"))
        }
        Proposed::Updated { number, url } => {
            Published::Written(format!("updated pull request #{number}: {url}"))
        }
        Proposed::Unchanged { number, url } => Published::Written(format!(
            "pull request #{number} already proposes this: {url}"
        )),
        Proposed::Merged { number, url } => {
            Published::Written(format!("pull request #{number} was merged: {url}"))
        }
        Proposed::InBase => Published::Written("the base branch already holds it".into()),
        Proposed::Skipped => Published::Skipped,
    }
}
