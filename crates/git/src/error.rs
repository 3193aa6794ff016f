//! What can go wrong driving `git`, as a user reads it: the command (without credentials),
//! its exit status and what git printed (secrets removed), and what to do.

use std::path::PathBuf;

use olm_release_base::{Class, Classified};

/// An error of the git client.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// The `git` binary cannot be started.
    #[error("cannot run git ({source}); install git (2.25 or later) and put it on PATH")]
    Missing {
        /// Why it could not be started.
        #[source]
        source: std::io::Error,
    },
    /// A git command failed.
    #[error("`{command}` failed (exit {status}): {stderr}{}", hint(stderr))]
    Failed {
        /// The command as run, without credentials (e.g. `git push --porcelain URL HEAD:refs/heads/main`).
        command: String,
        /// Its exit status (`signal` when killed).
        status: String,
        /// What it printed on stderr, shortened, secrets removed.
        stderr: String,
    },
    /// A command that talks to a remote did not end within the budget, and was stopped.
    #[error(
        "`{command}` got no answer from {remote} within the retry budget of {seconds} s and was stopped (catalog.retry_max_seconds; check that the remote is reachable and answers)"
    )]
    TimedOut {
        /// The command as run, without credentials.
        command: String,
        /// The remote, without credentials.
        remote: String,
        /// The budget, in seconds.
        seconds: u64,
    },
    /// A symbolic link on the way to the catalog folder in the checkout: never followed.
    #[error("{0}")]
    Link(olm_release_base::links::Refused),
    /// The remote refused the push for another reason than a moved branch (a protected
    /// branch, a hook).
    #[error("pushing to branch {branch} of {url} was refused: {reason}")]
    Refused {
        /// The remote, as given.
        url: String,
        /// The branch.
        branch: String,
        /// The remote's reason, as git reported it.
        reason: String,
    },
    /// The scratch checkout cannot be prepared.
    #[error("{}: {source}", path.display())]
    Io {
        /// The folder or file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
}

impl Classified for GitError {
    /// A missing git binary is the environment's to fix before anything runs, a link in the
    /// checkout the content's (exit 2); a command that failed, timed out or a refused push fails
    /// the stage (exit 1).
    fn class(&self) -> Class {
        match self {
            GitError::Missing { .. } | GitError::Link(_) => Class::Input,
            _ => Class::Stage,
        }
    }
}

/// What to do about the usual failures.
fn hint(stderr: &str) -> &'static str {
    let lower = stderr.to_ascii_lowercase();
    if lower.contains("authentication failed")
        || lower.contains("could not read username")
        || lower.contains("could not read password")
        || lower.contains("403")
    {
        " (set GIT_TOKEN or GITHUB_TOKEN to a token that may push to this repository; GIT_USERNAME when the server wants another user than x-access-token)"
    } else if lower.contains("not found")
        || lower.contains("does not appear to be a git repository")
    {
        " (check catalog.target: the repository cannot be found)"
    } else {
        ""
    }
}
