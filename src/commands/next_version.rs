//! `olm-release next-version`: the version of an alpha build from master.
//!
//! Scheme: after the last release tag `vX.Y.Z[-pre]`, a master build numbered `N` is
//! `X.(Y+1).0-alpha.N`. SemVer orders it after every `X.Y.*` release (a higher minor), before the
//! next minor release `X.(Y+1).0` (a pre-release sorts before its release), and builds among
//! themselves by build number (numeric pre-release identifiers compare as numbers). The app
//! registry's `default` and OLM's version checks use exactly these SemVer rules, so an alpha
//! channel fed this way always moves forward. Patch releases of older branches (`X.Y.(Z+1)`) are
//! lower than the alpha builds by design: they belong to their own channel or package.
//!
//! The last tag is read from git. CI services clone shallow and without tags by default
//! (Travis `--depth=50`, GitHub's checkout action one commit), where no tag is reachable; that
//! case is told apart from a repository that has no release yet, and each error says what to
//! do: fetch the history and tags, or pass `--last`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Why the alpha version could not be worked out.
#[derive(Debug, thiserror::Error)]
pub(crate) enum NextVersionError {
    #[error("last release '{last}' is not a SemVer tag (vX.Y.Z or X.Y.Z): {source}")]
    NotSemver { last: String, source: semver::Error },
    #[error("running git in {}: {source}; install git or pass --last vX.Y.Z", dir.display())]
    GitMissing {
        dir: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is not a git checkout ({stderr}); run in the operator's clone, set --source, or pass --last vX.Y.Z", dir.display())]
    NotACheckout { dir: PathBuf, stderr: String },
    #[error(
        "{} is a shallow clone and no release tag vX.Y.Z is reachable from HEAD in it: fetch the \
         history and the tags (git fetch --unshallow --tags; in .travis.yml `git: depth: false`, \
         in GitHub Actions `fetch-depth: 0` on actions/checkout), or pass --last vX.Y.Z",
        dir.display()
    )]
    Shallow { dir: PathBuf },
    #[error(
        "no release tag vX.Y.Z is reachable from HEAD in {} ({}): tag the first release \
         (git tag v0.1.0), fetch the tags (git fetch --tags), or pass --last vX.Y.Z",
        dir.display(),
        tags_note(.tags)
    )]
    NoReleaseTag { dir: PathBuf, tags: usize },
}

fn tags_note(tags: &usize) -> String {
    match tags {
        0 => "the clone has no tags".into(),
        n => format!("none of its {n} tags is one"),
    }
}

impl olm_release_base::Classified for NextVersionError {
    /// Git missing is the machine's problem (exit 1); everything else is fixed by the caller.
    fn class(&self) -> olm_release_base::Class {
        match self {
            NextVersionError::GitMissing { .. } => olm_release_base::Class::Stage,
            _ => olm_release_base::Class::Input,
        }
    }
}

/// The alpha version following `last` for build `build`.
pub(crate) fn alpha_after(last: &str, build: u64) -> Result<semver::Version, NextVersionError> {
    let trimmed = last.strip_prefix('v').unwrap_or(last);
    let v = semver::Version::parse(trimmed).map_err(|source| NextVersionError::NotSemver {
        last: last.to_string(),
        source,
    })?;
    let pre =
        semver::Prerelease::new(&format!("alpha.{build}")).expect("alpha.N is a valid pre-release");
    Ok(semver::Version {
        major: v.major,
        minor: v.minor + 1,
        patch: 0,
        pre,
        build: semver::BuildMetadata::EMPTY,
    })
}

/// The newest SemVer tag (`vX.Y.Z` or `X.Y.Z`) reachable from HEAD in `source`.
pub(crate) fn last_tag(source: &Path) -> Result<String, NextVersionError> {
    let reachable = git(source, &["tag", "--merged", "HEAD", "--list"])?;
    let newest = reachable
        .lines()
        .filter_map(|t| {
            semver::Version::parse(t.strip_prefix('v').unwrap_or(t))
                .ok()
                .map(|v| (v, t.to_string()))
        })
        .max_by(|a, b| a.0.cmp(&b.0))
        .map(|(_, t)| t);
    if let Some(tag) = newest {
        return Ok(tag);
    }
    let dir = source.to_path_buf();
    if git(source, &["rev-parse", "--is-shallow-repository"])?.trim() == "true" {
        return Err(NextVersionError::Shallow { dir });
    }
    let tags = git(source, &["tag", "--list"])?.lines().count();
    Err(NextVersionError::NoReleaseTag { dir, tags })
}

/// Runs git in `dir` and returns its stdout.
fn git(dir: &Path, args: &[&str]) -> Result<String, NextVersionError> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(|source| NextVersionError::GitMissing {
            dir: dir.to_path_buf(),
            source,
        })?;
    if !out.status.success() {
        return Err(NextVersionError::NotACheckout {
            dir: dir.to_path_buf(),
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> semver::Version {
        semver::Version::parse(s).unwrap()
    }

    #[test]
    fn alpha_builds_order_between_releases() {
        let a5 = alpha_after("v0.22.0", 5).unwrap();
        let a12 = alpha_after("v0.22.0", 12).unwrap();
        assert_eq!(a5.to_string(), "0.23.0-alpha.5");
        assert!(v("0.22.0") < a5 && a5 < a12 && a12 < v("0.23.0"));
        assert!(
            v("0.22.9") < a5,
            "every patch of the last minor sorts below"
        );
        let after_rc = alpha_after("0.23.0-rc.1", 3).unwrap();
        assert!(v("0.23.0-rc.1") < after_rc && after_rc < v("0.24.0"));
        assert!(alpha_after("latest", 1).is_err());
    }
}
