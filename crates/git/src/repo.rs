//! A branch of a remote as a scratch checkout: read it, change files, commit, push without
//! force.
//!
//! - [`Git::checkout`]: `git ls-remote --symref` finds the branch (or the remote's default
//!   branch) and the commit it names; a fresh repository is initialised in the scratch folder
//!   and that one commit fetched (`--depth 1`: the catalog needs the tree, not the history)
//!   and checked out. A branch that does not exist yet is an empty checkout whose first push
//!   creates it.
//! - [`Checkout::commit`]: stages one folder; nothing staged means no commit (a rerun writes
//!   nothing); the author and committer are the [`Signature`] with its fixed date, so the same
//!   change on the same parent is the same commit.
//! - [`Checkout::push`]: `git push --porcelain URL HEAD:refs/heads/BRANCH`, never forced: the
//!   remote takes it only as a fast-forward of the commit the checkout was made from (or, for a
//!   new branch, when the branch still does not exist). A push rejected as `fetch first` or
//!   `non-fast-forward` (or a remote that lost the race for the branch's ref lock to another
//!   push, `cannot lock ref`) means someone else moved the branch: [`Pushed::Moved`]. git-push(1)
//!   "OUTPUT" describes the porcelain lines read here.

use std::path::{Path, PathBuf};

use super::{Git, GitError};

/// A branch of a remote repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Remote {
    /// Any URL or path the git CLI reaches (no credentials in it).
    pub url: String,
    /// The branch; `None`: the remote's default branch (`main` for an empty repository).
    pub branch: Option<String>,
}

/// Who commits, and when: the same for author and committer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    /// The name.
    pub name: String,
    /// The e-mail address.
    pub email: String,
    /// Seconds since 1970 (`SOURCE_DATE_EPOCH`), written as UTC.
    pub epoch: u64,
}

/// A scratch checkout of one branch.
#[derive(Debug, Clone)]
pub struct Checkout {
    /// The scratch folder (the repository's work tree).
    pub dir: PathBuf,
    /// The remote.
    pub url: String,
    /// The branch.
    pub branch: String,
    /// The commit the branch named when it was read; `None`: the branch does not exist yet.
    pub base: Option<String>,
}

/// What a push did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pushed {
    /// The branch now names `commit`.
    Accepted {
        /// The commit pushed.
        commit: String,
    },
    /// The remote refused because the branch no longer names the checkout's base: someone else
    /// pushed meanwhile.
    Moved {
        /// What git said (`fetch first`, `non-fast-forward`, …).
        reason: String,
    },
}

impl Git {
    /// The branch of `remote` (its default branch when none is named) and the commit it names
    /// (`None` when it does not exist yet).
    pub fn resolve(&self, remote: &Remote) -> Result<(String, Option<String>), GitError> {
        let mut args = vec![
            "ls-remote".to_string(),
            "--symref".into(),
            remote.url.clone(),
        ];
        args.push("HEAD".into());
        if let Some(b) = &remote.branch {
            args.push(format!("refs/heads/{b}"));
        }
        let out = self.run_remote(None, &args, &[], &remote.url)?;
        let text = String::from_utf8_lossy(&out.stdout);
        let mut default = None;
        let mut heads: Vec<(String, String)> = Vec::new();
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("ref: ") {
                // `ref: refs/heads/main<TAB>HEAD`
                if let Some((target, "HEAD")) = rest.split_once('\t') {
                    default = target.strip_prefix("refs/heads/").map(str::to_string);
                }
            } else if let Some((sha, name)) = line.split_once('\t') {
                heads.push((name.to_string(), sha.to_string()));
            }
        }
        let branch = match (&remote.branch, default) {
            (Some(b), _) => b.clone(),
            (None, Some(d)) => d,
            (None, None) => "main".to_string(),
        };
        let want = format!("refs/heads/{branch}");
        let commit = heads
            .into_iter()
            .find(|(name, _)| *name == want || (remote.branch.is_none() && name == "HEAD"))
            .map(|(_, sha)| sha);
        Ok((branch, commit))
    }

    /// A scratch checkout of `remote` in `dir` (emptied first): the commit its branch names,
    /// or an empty work tree when the branch does not exist yet.
    pub fn checkout(&self, remote: &Remote, dir: &Path) -> Result<Checkout, GitError> {
        let (branch, head) = self.resolve(remote)?;
        fresh(dir)?;
        let init_branch = format!("init.defaultBranch={branch}");
        self.run(Some(dir), ["-c", &init_branch, "init", "-q"], &[])?;
        let mut base = None;
        if head.is_some() {
            let refspec = format!("+refs/heads/{branch}:refs/remotes/origin/{branch}");
            self.run_remote(
                Some(dir),
                [
                    "fetch",
                    "-q",
                    "--no-tags",
                    "--depth=1",
                    &remote.url,
                    &refspec,
                ],
                &[],
                &remote.url,
            )?;
            let fetched = format!("refs/remotes/origin/{branch}");
            let out = self.run(Some(dir), ["rev-parse", "--verify", &fetched], &[])?;
            // The branch may have moved between ls-remote and fetch: the fetched commit is the
            // one the checkout is made from.
            let sha = String::from_utf8_lossy(&out.stdout).trim().to_string();
            self.run(Some(dir), ["checkout", "-q", "-B", &branch, &sha], &[])?;
            base = Some(sha);
        }
        Ok(Checkout {
            dir: dir.to_path_buf(),
            url: remote.url.clone(),
            branch,
            base,
        })
    }
}

impl Checkout {
    /// The folder `path` (relative to the work tree) in the checkout, refused when a component
    /// of it is a symbolic link ([`GitError::Link`]): a branch's content never sends a read or
    /// a write outside the checkout.
    pub fn folder(&self, path: &str) -> Result<PathBuf, GitError> {
        olm_release_base::links::join(&self.dir, path).map_err(GitError::Link)
    }

    /// Stages everything under `path` (relative to the work tree) and commits it with
    /// `message`, signed `sig`; `None` when nothing changed (no empty commit).
    pub fn commit(
        &self,
        git: &Git,
        path: &str,
        message: &str,
        sig: &Signature,
    ) -> Result<Option<String>, GitError> {
        git.run(Some(&self.dir), ["add", "-A", "--", path], &[])?;
        let out = git.run(Some(&self.dir), ["diff", "--cached", "--quiet"], &[1])?;
        if out.status.success() {
            return Ok(None);
        }
        let date = format!("@{} +0000", sig.epoch);
        let mut cmd = git.command(Some(&self.dir));
        cmd.args([
            "-c",
            "commit.gpgsign=false",
            "commit",
            "-q",
            "--no-verify",
            "--allow-empty-message",
            "-F",
            "-",
        ])
        .env("GIT_AUTHOR_NAME", &sig.name)
        .env("GIT_AUTHOR_EMAIL", &sig.email)
        .env("GIT_AUTHOR_DATE", &date)
        .env("GIT_COMMITTER_NAME", &sig.name)
        .env("GIT_COMMITTER_EMAIL", &sig.email)
        .env("GIT_COMMITTER_DATE", &date)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
        let mut child = cmd.spawn().map_err(|source| GitError::Missing { source })?;
        if let Some(mut stdin) = child.stdin.take() {
            use std::io::Write as _;
            stdin
                .write_all(message.as_bytes())
                .map_err(|source| GitError::Io {
                    path: self.dir.clone(),
                    source,
                })?;
        }
        let out = child.wait_with_output().map_err(|source| GitError::Io {
            path: self.dir.clone(),
            source,
        })?;
        if !out.status.success() {
            let args: Vec<std::ffi::OsString> =
                ["commit", "-F", "-"].iter().map(Into::into).collect();
            return Err(git.failed(&args, &out));
        }
        let out = git.run(Some(&self.dir), ["rev-parse", "HEAD"], &[])?;
        Ok(Some(
            String::from_utf8_lossy(&out.stdout).trim().to_string(),
        ))
    }

    /// The unified diff of everything changed under `path` against the base (staged first),
    /// with paths relative to the repository: what the commit would change, for a dry-run.
    pub fn staged_diff(&self, git: &Git, path: &str) -> Result<String, GitError> {
        git.run(Some(&self.dir), ["add", "-A", "--", path], &[])?;
        let out = git.run(
            Some(&self.dir),
            [
                "diff",
                "--cached",
                "--no-color",
                "--no-ext-diff",
                "--",
                path,
            ],
            &[],
        )?;
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// Pushes the checkout's `HEAD` to its branch, without force.
    pub fn push(&self, git: &Git) -> Result<Pushed, GitError> {
        let refspec = format!("HEAD:refs/heads/{}", self.branch);
        let args: Vec<std::ffi::OsString> =
            ["push", "--porcelain", self.url.as_str(), refspec.as_str()]
                .iter()
                .map(Into::into)
                .collect();
        let out = git.run_remote(Some(&self.dir), &args, &[1], &self.url)?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        // `<flag>\t<from>:<to>\t<summary> (<reason>)`; `!` is a rejection.
        for line in stdout.lines() {
            let mut parts = line.splitn(3, '\t');
            let (Some(flag), Some(refs), Some(summary)) =
                (parts.next(), parts.next(), parts.next())
            else {
                continue;
            };
            if !refs.ends_with(&format!(":refs/heads/{}", self.branch)) {
                continue;
            }
            if flag != "!" {
                if !out.status.success() {
                    break;
                }
                let head = git.run(Some(&self.dir), ["rev-parse", "HEAD"], &[])?;
                return Ok(Pushed::Accepted {
                    commit: String::from_utf8_lossy(&head.stdout).trim().to_string(),
                });
            }
            let moved = [
                "fetch first",
                "non-fast-forward",
                "stale info",
                "already exists",
            ]
            .iter()
            .any(|r| summary.contains(r));
            if (moved && !summary.contains("remote rejected"))
                || lost_ref_lock(&self.branch, &String::from_utf8_lossy(&out.stderr))
            {
                return Ok(Pushed::Moved {
                    reason: summary.trim().to_string(),
                });
            }
            return Err(GitError::Refused {
                url: self.url.clone(),
                branch: self.branch.clone(),
                reason: git.scrub(&format!(
                    "{}; {}",
                    summary.trim(),
                    super::command::shorten(&String::from_utf8_lossy(&out.stderr))
                )),
            });
        }
        Err(git.failed(&args, &out))
    }
}

/// Whether the remote refused the update of `branch` because another push updated it (or held
/// its lock) between its fast-forward check and its write: `[remote rejected] (failed to update
/// ref)` with `cannot lock ref 'refs/heads/BRANCH': is at X but expected Y` (or the lock file
/// existing; or, for a branch two pushes create at once, `reference already exists`). Pushes
/// racing on one repository get this instead of `fetch first`; it means the same: the branch
/// moved.
fn lost_ref_lock(branch: &str, stderr: &str) -> bool {
    let at = format!("cannot lock ref 'refs/heads/{branch}'");
    stderr.lines().any(|l| {
        l.contains(&at)
            && ["but expected", "File exists", "reference already exists"]
                .iter()
                .any(|s| l.contains(s))
    })
}

/// Empties `dir` (a scratch folder this client owns) and creates it.
fn fresh(dir: &Path) -> Result<(), GitError> {
    let io = |source| GitError::Io {
        path: dir.to_path_buf(),
        source,
    };
    match std::fs::remove_dir_all(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(io(e)),
    }
    std::fs::create_dir_all(dir).map_err(io)
}

mod moved;
#[cfg(test)]
mod tests;
