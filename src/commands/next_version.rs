//! `olm-release next-version`: the version of an alpha build from master.
//!
//! Scheme: after the last release tag `vX.Y.Z[-pre]`, a master build numbered `N` is
//! `X.(Y+1).0-alpha.N`. SemVer orders it after every `X.Y.*` release (a higher minor), before the
//! next minor release `X.(Y+1).0` (a pre-release sorts before its release), and builds among
//! themselves by build number (numeric pre-release identifiers compare as numbers). The app
//! registry's `default` and OLM's version checks use exactly these SemVer rules, so an alpha
//! channel fed this way always moves forward. Patch releases of older branches (`X.Y.(Z+1)`) are
//! lower than the alpha builds by design: they belong to their own channel or package.

use std::path::Path;
use std::process::Command;

use super::CommandError;

/// The alpha version following `last` for build `build`.
pub(crate) fn alpha_after(last: &str, build: u64) -> Result<semver::Version, CommandError> {
    let trimmed = last.strip_prefix('v').unwrap_or(last);
    let v = semver::Version::parse(trimmed).map_err(|e| CommandError::LastTag {
        last: last.into(),
        reason: e.to_string(),
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
pub(crate) fn last_tag(source: &Path) -> Result<String, CommandError> {
    let out = Command::new("git")
        .arg("-C")
        .arg(source)
        .args(["tag", "--merged", "HEAD", "--list"])
        .output()
        .map_err(|e| CommandError::Git(format!("running git in {}: {e}", source.display())))?;
    if !out.status.success() {
        return Err(CommandError::Git(format!(
            "git tag in {}: {}",
            source.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|t| {
            semver::Version::parse(t.strip_prefix('v').unwrap_or(t))
                .ok()
                .map(|v| (v, t.to_string()))
        })
        .max_by(|a, b| a.0.cmp(&b.0))
        .map(|(_, t)| t)
        .ok_or_else(|| {
            CommandError::Git(format!(
                "no SemVer tag is reachable from HEAD in {}; pass --last",
                source.display()
            ))
        })
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
