//! What `next-version` asks git, each question one `git` process in the checkout: the tags,
//! those reachable from HEAD, whether the clone is shallow, the current branch, and for a tag
//! not reachable from HEAD where its history left HEAD's ([`History`]).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::choose::History;
use super::error::NextVersionError;

/// A git checkout, asked through `git` processes (not `olm_release_git::Git`, the catalog targets' client).
pub(crate) struct Checkout {
    dir: PathBuf,
}

impl Checkout {
    pub(crate) fn new(dir: &Path) -> Self {
        Checkout {
            dir: dir.to_path_buf(),
        }
    }

    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// Every tag.
    pub(crate) fn tags(&self) -> Result<Vec<String>, NextVersionError> {
        Ok(lines(&self.run(&["tag", "--list"])?))
    }

    /// The tags reachable from HEAD.
    pub(crate) fn reachable(&self) -> Result<BTreeSet<String>, NextVersionError> {
        Ok(lines(&self.run(&["tag", "--merged", "HEAD", "--list"])?)
            .into_iter()
            .collect())
    }

    pub(crate) fn shallow(&self) -> Result<bool, NextVersionError> {
        Ok(self.run(&["rev-parse", "--is-shallow-repository"])?.trim() == "true")
    }

    /// The branch checked out; `None` on a detached HEAD.
    pub(crate) fn branch(&self) -> Option<String> {
        self.run(&["symbolic-ref", "--short", "-q", "HEAD"])
            .ok()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    }

    /// Runs git in the checkout and returns its stdout.
    fn run(&self, args: &[&str]) -> Result<String, NextVersionError> {
        let out = self.output(args)?;
        if !out.status.success() {
            return Err(NextVersionError::NotACheckout {
                dir: self.dir.clone(),
                stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
            });
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    fn output(&self, args: &[&str]) -> Result<std::process::Output, NextVersionError> {
        Command::new("git")
            .arg("-C")
            .arg(&self.dir)
            .args(args)
            .output()
            .map_err(|source| NextVersionError::GitMissing {
                dir: self.dir.clone(),
                source,
            })
    }
}

impl History for Checkout {
    fn fork(&mut self, tag: &str) -> Result<Option<String>, NextVersionError> {
        // Exit 1 with no output: no common commit (unrelated histories, or a shallow clone
        // that does not hold it).
        let out = self.output(&["merge-base", "HEAD", &format!("refs/tags/{tag}")])?;
        let sha = String::from_utf8_lossy(&out.stdout).trim().to_string();
        Ok((out.status.success() && !sha.is_empty()).then_some(sha))
    }

    fn since(&mut self, commit: &str) -> Result<Vec<String>, NextVersionError> {
        Ok(lines(&self.run(&[
            "tag",
            "--merged",
            "HEAD",
            "--no-merged",
            commit,
            "--list",
        ])?))
    }
}

fn lines(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}
