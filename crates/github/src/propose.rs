//! A change proposed as a pull request, idempotently: the files a release adds or changes in
//! a repository (a catalog folder, or a bundle in a community catalog), committed on a branch
//! of a fork (or of the repository itself) on top of the base branch, and a pull request from
//! that branch. Used by a git catalog target with `catalog.pull_request` and by the
//! `operatorhub` stage.
//!
//! - A **merged** pull request from the branch means the change is in: nothing to do.
//! - An **open** one whose branch already holds the files: nothing to write (its title and body
//!   are brought in line when they differ). One whose branch holds other files: the branch is
//!   moved to a new commit on the current base (it is this run's own branch), and the pull
//!   request updated.
//! - A pull request **closed** without merging is a reviewer's no: the run stops and says how
//!   to propose again.
//! - No pull request: when the base branch already holds the files, nothing to do; else the
//!   blobs, a tree on the base commit's tree, the commit (the pipeline's author and date) and
//!   the branch are written with the git data API, and the pull request opened.
//!
//! Every read comes first; the writes are asked of the [`Gate`] once, as one write, so a
//! dry-run reads everything and lists the files it would propose. The fork shares objects with
//! the repository (a GitHub fork network does), so the commit's parent is the base branch's
//! commit itself; a fork that cannot see it is an error saying to sync the fork.

use olm_release_http::events::{Events, Gate, Write};

use super::client::Client;
use super::error::GitHubError;
use super::gitdata::Author;
use super::pulls::Pull;

/// A change to propose.
#[derive(Debug, Clone)]
pub struct Proposal<'a> {
    /// The branch the pull request goes into.
    pub base: &'a str,
    /// The pull request's own branch, on the fork.
    pub branch: &'a str,
    /// Each file to write (its bytes) or remove (`None`), with its path in the repository.
    pub files: &'a [(String, Option<Vec<u8>>)],
    /// The commit message.
    pub message: &'a str,
    /// The commit's author and committer.
    pub author: &'a Author,
    /// The pull request's title.
    pub title: &'a str,
    /// The pull request's description.
    pub body: &'a str,
    /// Open it as a draft.
    pub draft: bool,
}

/// What proposing did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Proposed {
    /// A pull request was opened.
    Opened {
        /// Its number.
        number: u64,
        /// Its page.
        url: String,
    },
    /// The open pull request's branch (or title and body) was brought in line.
    Updated {
        /// Its number.
        number: u64,
        /// Its page.
        url: String,
    },
    /// The open pull request already proposes exactly this.
    Unchanged {
        /// Its number.
        number: u64,
        /// Its page.
        url: String,
    },
    /// A pull request from the branch was merged: the change is in.
    Merged {
        /// Its number.
        number: u64,
        /// Its page.
        url: String,
    },
    /// The base branch already holds the files.
    InBase,
    /// A dry-run: the writes were skipped (and recorded by the gate).
    Skipped,
}

/// Proposes `p` on the repository of `upstream` from the branch of `fork` (the same repository
/// when no fork is used).
pub async fn propose(
    p: &Proposal<'_>,
    upstream: &Client,
    fork: &Client,
    gate: &dyn Gate,
    events: &dyn Events,
) -> Result<Proposed, GitHubError> {
    let head = format!("{}:{}", fork.owner, p.branch);
    let target = format!(
        "github:{}/{} pull request from {head} into {}",
        upstream.owner, upstream.repo, p.base
    );
    let pulls = upstream.pulls_from(&head).await?;
    if let Some(merged) = pulls.iter().find(|x| x.merged()) {
        events.note(&format!(
            "{target}: pull request #{} ({}) was merged: nothing to do",
            merged.number, merged.html_url
        ));
        gate.kept(write(p, &target));
        return Ok(Proposed::Merged {
            number: merged.number,
            url: merged.html_url.clone(),
        });
    }
    let open = pulls.iter().find(|x| x.state == "open");
    if open.is_none()
        && let Some(closed) = pulls.first()
    {
        return Err(GitHubError::PullClosed {
            target,
            number: closed.number,
            url: closed.html_url.clone(),
            branch: p.branch.to_string(),
            fork: format!("{}/{}", fork.owner, fork.repo),
        });
    }
    let fork_head = fork.branch_head(p.branch).await?;
    if let (Some(pr), Some(sha)) = (open, &fork_head)
        && let Some(commit) = fork.commit(sha).await?
        && holds(fork, &commit.tree.sha, p.files).await?
    {
        return same_files(p, upstream, pr, gate, events, &target).await;
    }
    let base = upstream
        .branch_head(p.base)
        .await?
        .ok_or_else(|| GitHubError::NoBase {
            target: target.clone(),
            branch: p.base.to_string(),
        })?;
    let base_commit = upstream.commit(&base).await?.ok_or_else(|| {
        GitHubError::internal(format!("{target}: the base commit {base} is gone"))
    })?;
    if open.is_none() && holds(upstream, &base_commit.tree.sha, p.files).await? {
        events.note(&format!(
            "{target}: the branch {} already holds the {}: nothing to propose",
            p.base,
            olm_release_base::words::count(p.files.len(), "file")
        ));
        gate.kept(write(p, &target));
        return Ok(Proposed::InBase);
    }
    let w = write(p, &target);
    if !gate.allow(&w) {
        return Ok(Proposed::Skipped);
    }
    if fork.commit(&base).await?.is_none() {
        return Err(GitHubError::ForkBehind {
            fork: format!("{}/{}", fork.owner, fork.repo),
            commit: base,
            base: format!("{}/{} {}", upstream.owner, upstream.repo, p.base),
        });
    }
    let mut entries = Vec::new();
    for (path, bytes) in p.files {
        let sha = match bytes {
            Some(b) => Some(fork.create_blob(b).await?),
            None => None,
        };
        entries.push((path.clone(), sha));
    }
    let tree = fork.create_tree(&base_commit.tree.sha, &entries).await?;
    let commit = fork
        .create_commit(p.message, &tree, &base, p.author)
        .await?;
    fork.set_branch(p.branch, &commit, fork_head.is_some())
        .await?;
    let done = match open {
        Some(pr) => {
            let pr = if pr.title != p.title || pr.body.as_deref() != Some(p.body) {
                upstream.update_pull(pr.number, p.title, p.body).await?
            } else {
                pr.clone()
            };
            Proposed::Updated {
                number: pr.number,
                url: pr.html_url,
            }
        }
        None => {
            let pr = upstream
                .open_pull(p.title, p.body, &head, p.base, p.draft)
                .await?;
            Proposed::Opened {
                number: pr.number,
                url: pr.html_url,
            }
        }
    };
    gate.done(w);
    Ok(done)
}

/// The open pull request's branch holds the files: only its title and body may need a write.
async fn same_files(
    p: &Proposal<'_>,
    upstream: &Client,
    pr: &Pull,
    gate: &dyn Gate,
    events: &dyn Events,
    target: &str,
) -> Result<Proposed, GitHubError> {
    if pr.title == p.title && pr.body.as_deref() == Some(p.body) {
        events.note(&format!(
            "{target}: pull request #{} ({}) already proposes these {}",
            pr.number,
            pr.html_url,
            olm_release_base::words::count(p.files.len(), "file")
        ));
        gate.kept(write(p, target));
        return Ok(Proposed::Unchanged {
            number: pr.number,
            url: pr.html_url.clone(),
        });
    }
    let w = Write {
        what: format!(
            "update the title and description of pull request #{}",
            pr.number
        ),
        target: target.to_string(),
        digest: None,
    };
    if !gate.allow(&w) {
        return Ok(Proposed::Skipped);
    }
    let pr = upstream.update_pull(pr.number, p.title, p.body).await?;
    gate.done(w);
    Ok(Proposed::Updated {
        number: pr.number,
        url: pr.html_url,
    })
}

/// The one write a proposal is.
fn write(p: &Proposal<'_>, target: &str) -> Write {
    Write {
        what: format!(
            "pull request \"{}\" ({})",
            p.title,
            olm_release_base::words::count(p.files.len(), "file")
        ),
        target: target.to_string(),
        digest: None,
    }
}

/// Whether the tree `root` of `client`'s repository holds exactly `files` (each present with
/// these bytes, or absent).
async fn holds(
    client: &Client,
    root: &str,
    files: &[(String, Option<Vec<u8>>)],
) -> Result<bool, GitHubError> {
    for (path, want) in files {
        let have = match want {
            Some(_) => client.file(root, path).await?,
            None => client.entry(root, path).await?.map(|_| Vec::new()),
        };
        let same = match (want, &have) {
            (Some(w), Some(h)) => w == h,
            (None, None) => true,
            _ => false,
        };
        if !same {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The files under `path` on `branch` of `client`'s repository (relative to `path`), with the
/// commit they were read at; `None` when the branch does not exist.
pub async fn read_folder(
    client: &Client,
    branch: &str,
    path: &str,
) -> Result<Option<(String, std::collections::BTreeMap<String, Vec<u8>>)>, GitHubError> {
    let Some(sha) = client.branch_head(branch).await? else {
        return Ok(None);
    };
    let commit = client
        .commit(&sha)
        .await?
        .ok_or_else(|| GitHubError::internal(format!("the commit {sha} of {branch} is gone")))?;
    Ok(Some((sha, client.folder(&commit.tree.sha, path).await?)))
}

/// The file at `path` on `branch` of `client`'s repository, `None` when either is missing.
pub async fn read_file(
    client: &Client,
    branch: &str,
    path: &str,
) -> Result<Option<Vec<u8>>, GitHubError> {
    let Some(sha) = client.branch_head(branch).await? else {
        return Ok(None);
    };
    let Some(commit) = client.commit(&sha).await? else {
        return Ok(None);
    };
    client.file(&commit.tree.sha, path).await
}

/// The repository's default branch.
pub async fn default_branch(client: &Client) -> Result<String, GitHubError> {
    Ok(client.default_branch().await?)
}
