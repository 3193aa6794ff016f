//! One release model, two sources: the app registry's cumulative bundle and the catalog agree
//! when they hold the same graph, and every way they can differ is named.

use std::collections::BTreeMap;

use olm_release_olm::fbc::compare::{Side, compare_channel};
use olm_release_olm::fbc::{self, Difference, ReleaseModel, compare, migrate};

use super::{bundle, csv, image};

/// `alpha`: 0.1.0 ← 0.2.0 ← 0.3.0, where 0.3.0 also skips 0.2.5 (which replaces 0.2.0).
fn registry() -> olm_release_olm::Bundle {
    bundle(
        "widget",
        &[("alpha", "widget.v0.3.0")],
        None,
        vec![
            csv(
                "widget.v0.3.0",
                "0.3.0",
                Some("widget.v0.2.0"),
                &["widget.v0.2.5"],
            ),
            csv("widget.v0.2.5", "0.2.5", Some("widget.v0.2.0"), &[]),
            csv("widget.v0.2.0", "0.2.0", Some("widget.v0.1.0"), &[]),
            csv("widget.v0.1.0", "0.1.0", None, &[]),
        ],
    )
}

fn migrated(b: &olm_release_olm::Bundle) -> fbc::Catalog {
    let plan = migrate::plan(b).unwrap();
    let images: BTreeMap<String, String> = plan
        .bundles
        .iter()
        .map(|c| (c.name().to_string(), image(c.name())))
        .collect();
    migrate::catalog(&plan, &images, Default::default()).unwrap()
}

#[test]
fn the_same_graph_from_both_sources_has_no_difference() {
    let b = registry();
    let left = ReleaseModel::from_bundle(&b);
    assert_eq!(
        left.default_channel.as_deref(),
        Some("alpha"),
        "the implicit default"
    );
    let c = migrated(&b);
    let right = ReleaseModel::from_catalog(&c, "widget").unwrap();
    assert_eq!(compare(&left, &right), []);
    let edges: Vec<String> = right.edges().iter().map(ToString::to_string).collect();
    assert_eq!(
        edges,
        [
            "alpha: widget.v0.2.0 replaces widget.v0.1.0",
            "alpha: widget.v0.2.5 replaces widget.v0.2.0",
            "alpha: widget.v0.3.0 replaces widget.v0.2.0",
            "alpha: widget.v0.3.0 skips widget.v0.2.5",
        ]
    );
    assert_eq!(left.edges(), right.edges());
    assert!(ReleaseModel::from_catalog(&c, "gadget").is_none());
}

#[test]
fn every_difference_is_named() {
    let b = registry();
    let left = ReleaseModel::from_bundle(&b);
    let mut c = migrated(&b);
    // The catalog got a 0.4.0 the app registry never saw, on alpha and on a new channel.
    let req = fbc::AddBundle {
        package: "widget".into(),
        name: "widget.v0.4.0".into(),
        version: "0.4.0".into(),
        image: image("widget.v0.4.0"),
        channels: vec!["alpha".into(), "fast".into()],
        default_channel: Some("fast".into()),
        ..Default::default()
    };
    fbc::add(&mut c, &req).unwrap();
    // And 0.2.5's entry lost its replaces.
    let alpha = c.channels.iter_mut().find(|ch| ch.name == "alpha").unwrap();
    alpha
        .entries
        .iter_mut()
        .find(|e| e.name == "widget.v0.2.5")
        .unwrap()
        .replaces = None;
    let right = ReleaseModel::from_catalog(&c, "widget").unwrap();
    let diffs: Vec<String> = compare(&left, &right)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        diffs,
        [
            "defaultChannel: alpha in the app registry, fast in the catalog",
            "channel alpha: the head is widget.v0.3.0 in the app registry, widget.v0.4.0 in the catalog",
            "channel alpha: widget.v0.2.5 replaces widget.v0.2.0 in the app registry, replaces (none) in the catalog",
            "channel alpha: widget.v0.4.0 is in the catalog but not in the app registry",
            "channel fast is in the catalog but not in the app registry",
        ]
    );
    let alpha_only = compare_channel(&left, &right, "alpha");
    assert_eq!(alpha_only.len(), 3);
    assert!(matches!(
        &alpha_only[2],
        Difference::EntryOnlyIn { side: Side::Catalog, bundle, .. } if bundle == "widget.v0.4.0"
    ));
}

#[test]
fn a_catalog_graph_draws_with_the_existing_drawer() {
    use olm_release_olm::drawing::{Style, draw};
    let b = registry();
    let c = migrated(&b);
    let skeleton = ReleaseModel::from_catalog(&c, "widget")
        .unwrap()
        .to_bundle()
        .unwrap();
    assert_eq!(draw(&skeleton, Style::Text), draw(&b, Style::Text));
    let text = draw(&skeleton, Style::Text);
    assert!(
        text.contains("● widget.v0.3.0 (0.3.0)  ← head\n     skips widget.v0.2.5\n"),
        "{text}"
    );

    // One CSV cannot hold two replaces: a bundle with other edges per channel is refused.
    let mut two = c.clone();
    let mut fast = two.channels[0].clone();
    fast.name = "fast".into();
    fast.entries
        .iter_mut()
        .find(|e| e.name == "widget.v0.2.0")
        .unwrap()
        .skips = vec!["widget.v0.1.5".into()];
    two.channels.push(fast);
    let err = ReleaseModel::from_catalog(&two, "widget")
        .unwrap()
        .to_bundle()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "drawing package widget: widget.v0.2.0 has other edges in channel fast than in channel alpha; draw it per channel"
    );
}
