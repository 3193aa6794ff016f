//! The rule: which release tag is the last one for HEAD, whether HEAD is a main line or a
//! maintenance line, and the alpha version after it. Plain data over what the history answers
//! ([`History`]), so the rule is tested without git.
//!
//! 1. Release tags are the tags that read as SemVer with or without a leading `v`; pre-release
//!    tags (`0.2.0-rc1`, `v1.14.0-unstable`) are skipped unless asked for.
//! 2. From the highest release down, the first that counts is the last release: a tag
//!    reachable from HEAD; or a tag on a branch that left HEAD's history (its fork point is
//!    `git merge-base HEAD TAG`) when HEAD's own line has released nothing since that fork —
//!    the release branches a main line was cut into (strimzi's `release-1.2.x`, HCO's
//!    `release-1.18`). A tag on a line HEAD left, when HEAD's line released after leaving it,
//!    is not HEAD's (a release branch does not follow the main line's newer releases); it is
//!    passed over, and HEAD is then a maintenance line.
//! 3. HEAD is a maintenance line when its branch is a release branch by name (`release-1.17`,
//!    `release-1.2.x`, `release/0.22`) or when a higher release was passed over; its builds
//!    are the next patch. Otherwise the builds are the next minor.

use std::collections::BTreeSet;

use semver::{BuildMetadata, Prerelease, Version};

use super::error::NextVersionError;

/// A release tag and its version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Release {
    pub(crate) tag: String,
    pub(crate) version: Version,
}

/// What the history answers about HEAD and the tags.
pub(crate) trait History {
    /// The commit where `tag`'s history left HEAD's (`git merge-base HEAD TAG`); `None` when
    /// they share no commit (or a shallow clone does not hold it).
    fn fork(&mut self, tag: &str) -> Result<Option<String>, NextVersionError>;
    /// The tags reachable from HEAD and not from `commit`.
    fn since(&mut self, commit: &str) -> Result<Vec<String>, NextVersionError>;
}

/// The release tags among `tags` (pre-releases only when `pre`), highest first, and how many
/// pre-release tags were skipped.
pub(crate) fn releases(tags: &[String], pre: bool) -> (Vec<Release>, usize) {
    let mut skipped = 0;
    let mut out: Vec<Release> = tags
        .iter()
        .filter_map(|t| {
            let version = Version::parse(t.strip_prefix('v').unwrap_or(t)).ok()?;
            if !version.pre.is_empty() && !pre {
                skipped += 1;
                return None;
            }
            Some(Release {
                tag: t.clone(),
                version,
            })
        })
        .collect();
    out.sort_by(|a, b| b.version.cmp(&a.version).then_with(|| a.tag.cmp(&b.tag)));
    (out, skipped)
}

/// How the last release was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Found {
    /// Its tag is reachable from HEAD.
    Reachable,
    /// Its tag is on a branch that left HEAD's history at `fork`, and HEAD's line has released
    /// nothing since.
    Branch { fork: String },
}

/// The last release for HEAD.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Last {
    pub(crate) release: Release,
    pub(crate) found: Found,
    /// A higher release on a line HEAD left and has released on since (HEAD is then a
    /// maintenance line).
    pub(crate) passed_over: Option<Release>,
}

/// The last release for HEAD among `releases` (highest first); `reachable` are the tags
/// reachable from HEAD. `None` when none counts.
pub(crate) fn last(
    releases: &[Release],
    reachable: &BTreeSet<String>,
    history: &mut dyn History,
) -> Result<Option<Last>, NextVersionError> {
    let tags: BTreeSet<&str> = releases.iter().map(|r| r.tag.as_str()).collect();
    let mut passed_over = None;
    for r in releases {
        let found = if reachable.contains(&r.tag) {
            Found::Reachable
        } else {
            let Some(fork) = history.fork(&r.tag)? else {
                continue;
            };
            let released_since = history
                .since(&fork)?
                .iter()
                .any(|t| tags.contains(t.as_str()));
            if released_since {
                passed_over.get_or_insert_with(|| r.clone());
                continue;
            }
            Found::Branch { fork }
        };
        return Ok(Some(Last {
            release: r.clone(),
            found,
            passed_over,
        }));
    }
    Ok(None)
}

/// The kind of line HEAD is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Line {
    /// The main line: builds are the next minor.
    Main,
    /// A release branch: builds are the next patch (of `minor` when the branch names a newer
    /// `X.Y` than the last release, one not released yet). `why` says how it was told.
    Maintenance {
        minor: Option<(u64, u64)>,
        why: String,
    },
}

/// The `X.Y` a release branch's name carries (`release-1.17`, `release-1.2.x`, `release/0.22`,
/// `release-v1.18`); `None` for any other branch.
pub(crate) fn release_branch(name: &str) -> Option<(u64, u64)> {
    let lower = name.to_ascii_lowercase();
    let after = &lower[lower.find("release")? + "release".len()..];
    let start = after.find(|c: char| c.is_ascii_digit())?;
    let mut parts = after[start..].split('.');
    let major = parts.next()?.parse().ok()?;
    let minor: String = parts
        .next()?
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    Some((major, minor.parse().ok()?))
}

/// Whether HEAD is a main line or a maintenance line: a release branch by name (`branch`), or a
/// line that left a higher release behind.
pub(crate) fn line(branch: Option<&str>, last: Option<&Last>) -> Line {
    if let Some(name) = branch
        && let Some(minor) = release_branch(name)
    {
        return Line::Maintenance {
            minor: Some(minor),
            why: format!("the release branch {name}"),
        };
    }
    match last.and_then(|l| l.passed_over.as_ref()) {
        Some(higher) => Line::Maintenance {
            minor: None,
            why: format!(
                "a release branch: {} is on a line this one left and has released on since",
                higher.tag
            ),
        },
        None => Line::Main,
    }
}

/// The alpha version of build `build` after `last` on `line`.
pub(crate) fn alpha(last: &Version, line: &Line, build: u64) -> Version {
    let pre = |s: String| Prerelease::new(&s).expect("alpha.N is a valid pre-release");
    let version = |major, minor, patch, pre| Version {
        major,
        minor,
        patch,
        pre,
        build: BuildMetadata::EMPTY,
    };
    match line {
        Line::Main => version(last.major, last.minor + 1, 0, pre(format!("alpha.{build}"))),
        Line::Maintenance { minor, .. } => match minor {
            Some((x, y)) if (*x, *y) > (last.major, last.minor) => {
                version(*x, *y, 0, pre(format!("alpha.{build}")))
            }
            _ if !last.pre.is_empty() => version(
                last.major,
                last.minor,
                last.patch,
                pre(format!("{}.alpha.{build}", last.pre)),
            ),
            _ => version(
                last.major,
                last.minor,
                last.patch + 1,
                pre(format!("alpha.{build}")),
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }

    #[test]
    fn alpha_builds_order_between_releases() {
        let a5 = alpha(&v("0.22.0"), &Line::Main, 5);
        let a12 = alpha(&v("0.22.0"), &Line::Main, 12);
        assert_eq!(a5.to_string(), "0.23.0-alpha.5");
        assert!(v("0.22.0") < a5 && a5 < a12 && a12 < v("0.23.0"));
        assert!(
            v("0.22.9") < a5,
            "every patch of the last minor sorts below"
        );
        let after_rc = alpha(&v("0.23.0-rc.1"), &Line::Main, 3);
        assert!(v("0.23.0-rc.1") < after_rc && after_rc < v("0.24.0"));
        let m = Line::Maintenance {
            minor: None,
            why: String::new(),
        };
        let p = alpha(&v("1.17.3"), &m, 7);
        assert_eq!(p.to_string(), "1.17.4-alpha.7");
        assert!(v("1.17.3") < p && p < v("1.17.4"));
        let rc = alpha(&v("1.2.0-rc1"), &m, 7);
        assert!(v("1.2.0-rc1") < rc && rc < v("1.2.0"), "{rc}");
        let cut = Line::Maintenance {
            minor: Some((1, 19)),
            why: String::new(),
        };
        assert_eq!(alpha(&v("1.18.1"), &cut, 2).to_string(), "1.19.0-alpha.2");
    }

    #[test]
    fn release_branches_are_told_by_name() {
        assert_eq!(release_branch("release-1.17"), Some((1, 17)));
        assert_eq!(release_branch("release-1.2.x"), Some((1, 2)));
        assert_eq!(release_branch("release/0.22"), Some((0, 22)));
        assert_eq!(release_branch("origin/release-v1.18"), Some((1, 18)));
        assert_eq!(release_branch("main"), None);
        assert_eq!(release_branch("release-notes"), None);
        assert_eq!(release_branch("fix-1.2"), None);
    }

    #[test]
    fn tags_with_or_without_v_and_pre_releases_skipped_unless_asked() {
        let tags: Vec<String> = ["v0.2.0-rc1", "1.2.0", "v1.18.1", "latest", "v0.1"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let (found, skipped) = releases(&tags, false);
        let names: Vec<_> = found.iter().map(|r| r.tag.as_str()).collect();
        assert_eq!((names, skipped), (vec!["v1.18.1", "1.2.0"], 1));
        assert_eq!(releases(&tags, true).0.len(), 3);
    }
}
