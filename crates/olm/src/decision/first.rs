//! A first release: nothing is published for the release's channels, by an app registry (the
//! package has no releases) or by a catalog (the folder or the channels are missing). The new
//! CSV has no `replaces`, and the package file heads every channel of the release with it.

use super::{Decided, Decision, clear_dangling, first_package};
use crate::{Bundle, Manifest};

/// The decision of a first release to `channels`, `reason` saying why nothing is published:
/// a `replaces` the CSV kept is cleared (it names nothing published), and every channel of the
/// release is headed by the new CSV (a channel the package file declares with another head is
/// left out, and said so).
pub fn first(mut rendered: Bundle, channels: &[String], reason: String) -> Decided {
    let mut notes: Vec<String> = clear_dangling(&mut rendered, None).into_iter().collect();
    let name = rendered
        .csvs
        .first()
        .and_then(Manifest::name)
        .unwrap_or("the new CSV")
        .to_string();
    notes.extend(first_package(&mut rendered.package, channels, &name));
    Decided {
        bundle: rendered,
        decision: Decision::First { reason },
        notes,
    }
}

/// Whether `version` is a usual first version of a package: 0.0.x, 0.1.x or 1.0.x. A first
/// release at another version probably looks at the wrong namespace or package.
pub fn usual_first_version(version: &semver::Version) -> bool {
    matches!((version.major, version.minor), (0, 0) | (0, 1) | (1, 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{bundle, csv};

    #[test]
    fn a_first_release_clears_replaces_and_heads_every_channel() {
        // The package file declares beta with an unpublished head: it is left out.
        let rendered = bundle(
            &[("stable", "op.v0.3.0"), ("beta", "op.v0.2.0")],
            vec![csv("0.3.0", Some("op.v0.2.0"))],
        );
        let channels = ["stable".to_string(), "fast".to_string()];
        let d = first(rendered, &channels, "nothing published".into());
        assert_eq!(
            d.decision,
            Decision::First {
                reason: "nothing published".into()
            }
        );
        assert_eq!(d.bundle.csvs[0].replaces(), None);
        let heads: Vec<(&str, &str)> = d
            .bundle
            .package
            .channels
            .iter()
            .map(|c| (c.name.as_str(), c.current_csv.as_str()))
            .collect();
        assert_eq!(heads, [("stable", "op.v0.3.0"), ("fast", "op.v0.3.0")]);
        assert_eq!(d.notes.len(), 2, "{:?}", d.notes);
        assert!(d.notes[0].contains("cleared spec.replaces 'op.v0.2.0'"));
        assert!(d.notes[1].contains("channel beta (head op.v0.2.0) is left out"));
    }

    #[test]
    fn usual_first_versions() {
        let v = |s: &str| semver::Version::parse(s).unwrap();
        assert!(usual_first_version(&v("0.0.3")));
        assert!(usual_first_version(&v("0.1.0")));
        assert!(usual_first_version(&v("1.0.2")));
        assert!(!usual_first_version(&v("0.2.0")));
        assert!(!usual_first_version(&v("2.0.0")));
    }
}
