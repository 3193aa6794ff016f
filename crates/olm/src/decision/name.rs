//! The name of a release that adds an already-published CSV to more channels.
//!
//! The app registry names releases by SemVer and serves the highest one (appr's
//! `semver.last_version`), and build metadata does not count for precedence (SemVer 2.0.0 §10),
//! so `0.3.0+fast` is not above `0.3.0`. The channel-add release must be the highest, and must
//! sort below the next real version, so that a later release is served again. The rule, with
//! `L` the highest release:
//!
//! - `L` has no pre-release part: `L.major.L.minor.(L.patch+1)-0.N` (`0.3.0` → `0.3.1-0.1`);
//!   `0` is the lowest pre-release identifier, so this sorts above `L` and below every later
//!   version (`0.3.1-alpha`, `0.3.1`, `0.4.0`); only a literal `0.3.1-0` would sort below it.
//! - `L` has a pre-release part: `L` with `.N` appended to it (`0.4.0-rc.1` → `0.4.0-rc.1.1`),
//!   which sorts above `L` (more identifiers, same prefix) and below `0.4.0-rc.2` and `0.4.0`.
//!
//! `N` is the first of 1, 2, … that no release of the package has (by SemVer precedence).

use semver::{BuildMetadata, Prerelease, Version};

/// The channel-add release above `highest`, avoiding every name in `taken`; `None` when
/// `highest` is not SemVer.
pub fn channel_release<'a>(
    highest: &str,
    taken: impl IntoIterator<Item = &'a str> + Clone,
) -> Option<String> {
    let l = Version::parse(highest).ok()?;
    let (base, pre) = if l.pre.is_empty() {
        (Version::new(l.major, l.minor, l.patch + 1), "0".to_string())
    } else {
        (Version::new(l.major, l.minor, l.patch), l.pre.to_string())
    };
    let used = |v: &Version| {
        taken
            .clone()
            .into_iter()
            .filter_map(|t| Version::parse(t).ok())
            .any(|t| t.cmp_precedence(v).is_eq())
    };
    (1u64..).find_map(|n| {
        let v = Version {
            pre: Prerelease::new(&format!("{pre}.{n}")).ok()?,
            build: BuildMetadata::EMPTY,
            ..base.clone()
        };
        (!used(&v)).then(|| v.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_channel_release_sorts_above_the_highest_and_below_the_next_version() {
        let none: [&str; 0] = [];
        assert_eq!(channel_release("0.2.0", none).unwrap(), "0.2.1-0.1");
        assert_eq!(channel_release("0.3.0+build.7", none).unwrap(), "0.3.1-0.1");
        assert_eq!(channel_release("0.4.0-rc.1", none).unwrap(), "0.4.0-rc.1.1");
        assert_eq!(channel_release("0.2.1-0.1", none).unwrap(), "0.2.1-0.1.1");
        assert_eq!(
            channel_release("0.4.0-rc.1", ["0.4.0-rc.1.1", "0.4.0-rc.1.2+x"]).unwrap(),
            "0.4.0-rc.1.3"
        );
        assert_eq!(channel_release("not-semver", none), None);
        let v = |s: &str| Version::parse(s).unwrap();
        for (l, next) in [
            ("0.2.0", "0.2.1-alpha"),
            ("0.2.0", "0.3.0"),
            ("0.4.0-rc.1", "0.4.0-rc.2"),
            ("0.4.0-rc.1", "0.4.0"),
        ] {
            let name = channel_release(l, none).unwrap();
            assert!(v(&name) > v(l), "{name} above {l}");
            assert!(v(&name) < v(next), "{name} below {next}");
        }
    }
}
