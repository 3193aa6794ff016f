//! After a refused push: what the other job's commits changed, so the caller can tell whether
//! they touch its part of the repository, and the checkout moved onto them to apply its change
//! again.

use super::Checkout;
use crate::{Git, GitError};

impl Checkout {
    /// The ref the branch's new head is fetched into.
    fn fetched(&self) -> String {
        format!("refs/remotes/origin/{}", self.branch)
    }

    /// What moved on the branch since the checkout was made, after a push was refused: the
    /// branch's new head is fetched (`--depth=1`: two trees are enough) and the paths that differ
    /// between the base and it are listed (`git diff --name-only --no-renames`, so a rename
    /// shows both names; every path of the new head when the branch did not exist before).
    /// `None` when the branch no longer exists.
    pub fn moved(&self, git: &Git) -> Result<Option<Vec<String>>, GitError> {
        let fetched = self.fetched();
        let refspec = format!("+refs/heads/{}:{fetched}", self.branch);
        let out = git.run_remote(
            Some(&self.dir),
            ["fetch", "-q", "--no-tags", "--depth=1", &self.url, &refspec],
            &[128],
            &self.url,
        )?;
        if !out.status.success() {
            let stderr = String::from_utf8_lossy(&out.stderr);
            if stderr.contains("couldn't find remote ref") {
                return Ok(None);
            }
            let args: Vec<std::ffi::OsString> = ["fetch", "--depth=1", &self.url, &refspec]
                .iter()
                .map(Into::into)
                .collect();
            return Err(git.failed(&args, &out));
        }
        let out = match &self.base {
            Some(base) => git.run(
                Some(&self.dir),
                [
                    "diff",
                    "--name-only",
                    "--no-renames",
                    "-z",
                    base.as_str(),
                    fetched.as_str(),
                ],
                &[],
            )?,
            None => git.run(
                Some(&self.dir),
                ["ls-tree", "-r", "--name-only", "-z", fetched.as_str()],
                &[],
            )?,
        };
        Ok(Some(
            out.stdout
                .split(|b| *b == 0)
                .filter(|p| !p.is_empty())
                .map(|p| String::from_utf8_lossy(p).into_owned())
                .collect(),
        ))
    }

    /// Moves the checkout onto the branch's head fetched by [`Checkout::moved`]: the work tree
    /// and `HEAD` are that commit (this checkout's own commit is dropped) and it is the new
    /// base, so a change written again is committed and pushed on top of it.
    pub fn advance(&mut self, git: &Git) -> Result<(), GitError> {
        let fetched = self.fetched();
        git.run(Some(&self.dir), ["reset", "-q", "--hard", &fetched], &[])?;
        let out = git.run(Some(&self.dir), ["rev-parse", "--verify", "HEAD"], &[])?;
        self.base = Some(String::from_utf8_lossy(&out.stdout).trim().to_string());
        Ok(())
    }
}
