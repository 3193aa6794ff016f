//! The decision against a catalog: its heads read from catalog documents, the skeleton they
//! stand for, and the decision taken on it.

use super::*;
use crate::fbc::Catalog;
use crate::testing::{bundle, csv};

/// A catalog of package `op` whose channel `stable` runs 0.1.0 → 0.2.0 (0.2.0 also skipping
/// 0.0.9) and whose channel `fast` is headed by 0.3.0; bundles for 0.2.0 and 0.3.0 only.
fn catalog() -> Catalog {
    let yaml = "\
schema: olm.package
name: op
defaultChannel: stable
---
schema: olm.channel
package: op
name: stable
entries:
- name: op.v0.1.0
- name: op.v0.2.0
  replaces: op.v0.1.0
  skips: [op.v0.0.9]
---
schema: olm.channel
package: op
name: fast
entries:
- name: op.v0.3.0
---
schema: olm.bundle
name: op.v0.2.0
package: op
image: quay.io/op/bundle@sha256:2
properties:
- type: olm.package
  value: {packageName: op, version: 0.2.0}
---
schema: olm.bundle
name: op.v0.3.0
package: op
image: quay.io/op/bundle@sha256:3
properties:
- type: olm.package
  value: {packageName: op, version: 0.3.0}
";
    let mut c = Catalog::default();
    crate::fbc::parse::add_file(&mut c, "catalog.yaml", yaml.as_bytes()).unwrap();
    c
}

fn channels(names: &[&str]) -> Vec<String> {
    names.iter().map(|c| c.to_string()).collect()
}

fn read<'a>(heads: &'a [ChannelHead]) -> CatalogRead<'a> {
    CatalogRead {
        shown: "catalog/",
        fresh: false,
        package: "op",
        heads,
    }
}

#[test]
fn the_heads_of_the_release_channels_in_their_order() {
    let heads =
        fbc::channel_heads(&catalog(), "op", &channels(&["fast", "beta", "stable"])).unwrap();
    let found: Vec<(&str, &str, Option<String>, &[String])> = heads
        .iter()
        .map(|h| {
            (
                h.channel.as_str(),
                h.head.name.as_str(),
                h.head.version.as_ref().map(ToString::to_string),
                h.skips.as_slice(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("fast", "op.v0.3.0", Some("0.3.0".into()), &[][..]),
            (
                "stable",
                "op.v0.2.0",
                Some("0.2.0".into()),
                &["op.v0.0.9".to_string()][..]
            ),
        ]
    );
}

#[test]
fn the_skeleton_stands_for_each_head_with_its_edges() {
    let heads = fbc::channel_heads(&catalog(), "op", &channels(&["stable", "fast"])).unwrap();
    let new = csv("0.4.0", None);
    let s = skeleton("op", &new, &heads);
    assert_eq!(s.package.package_name, "op");
    assert_eq!(s.package.channel("fast").unwrap().current_csv, "op.v0.3.0");
    let head = s.csv("op.v0.2.0").unwrap();
    assert_eq!(head.semver(), Some(semver::Version::new(0, 2, 0)));
    assert_eq!(head.replaces(), Some("op.v0.1.0"));
    assert_eq!(super::super::skips_of(head), ["op.v0.0.9"]);
    assert!(s.csv("op.v0.4.0").is_none());
    // A rerun: the new CSV is a head, and stands for itself with its catalog entry's edges.
    let rerun = skeleton("op", &csv("0.3.0", Some("op.v0.2.0")), &heads);
    assert_eq!(rerun.csv("op.v0.3.0").unwrap().replaces(), None);
}

#[test]
fn above_every_head_replaces_the_first_and_skips_the_others_carrying_nothing() {
    let heads = fbc::channel_heads(&catalog(), "op", &channels(&["stable", "fast"])).unwrap();
    let rendered = bundle(&[("stable", "op.v0.4.0")], vec![csv("0.4.0", None)]);
    let d = decide_from_catalog(
        rendered,
        &channels(&["stable", "fast"]),
        read(&heads),
        OlderPolicy::Refuse,
    )
    .unwrap();
    assert_eq!(
        d.decision,
        Decision::Replaces {
            head: "op.v0.2.0".into(),
            head_release: "0.3.0".into()
        }
    );
    assert_eq!(d.bundle.csvs.len(), 1);
    assert_eq!(d.bundle.csvs[0].replaces(), Some("op.v0.2.0"));
    assert_eq!(super::super::skips_of(&d.bundle.csvs[0]), ["op.v0.3.0"]);
    assert_eq!(
        d.bundle.package.channel("fast").unwrap().current_csv,
        "op.v0.4.0"
    );
}

#[test]
fn below_a_head_is_refused_or_skipped_naming_the_catalog() {
    let heads = fbc::channel_heads(&catalog(), "op", &channels(&["fast"])).unwrap();
    let rendered = || bundle(&[("fast", "op.v0.2.5")], vec![csv("0.2.5", None)]);
    let err = decide_from_catalog(
        rendered(),
        &channels(&["fast"]),
        read(&heads),
        OlderPolicy::Refuse,
    )
    .unwrap_err();
    assert!(err.to_string().contains("the catalog catalog/"), "{err}");
    let d = decide_from_catalog(
        rendered(),
        &channels(&["fast"]),
        read(&heads),
        OlderPolicy::Skip,
    )
    .unwrap();
    assert_eq!(
        d.decision,
        Decision::SkipOlder {
            head: "op.v0.3.0".into()
        }
    );
}

#[test]
fn no_head_is_a_first_release_saying_why() {
    let rendered = || bundle(&[("stable", "op.v0.1.0")], vec![csv("0.1.0", None)]);
    let fresh = CatalogRead {
        fresh: true,
        ..read(&[])
    };
    let d = decide_from_catalog(
        rendered(),
        &channels(&["stable"]),
        fresh,
        OlderPolicy::Refuse,
    )
    .unwrap();
    assert_eq!(
        d.decision,
        Decision::First {
            reason: "the catalog catalog/ does not exist yet".into()
        }
    );
    let d = decide_from_catalog(
        rendered(),
        &channels(&["beta", "alpha"]),
        read(&[]),
        OlderPolicy::Refuse,
    )
    .unwrap();
    assert_eq!(
        d.decision,
        Decision::First {
            reason: "the catalog catalog/ has no channel 'beta', 'alpha' of package op".into()
        }
    );
}
