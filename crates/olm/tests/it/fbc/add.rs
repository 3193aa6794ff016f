//! Adding a release's bundle: by digest, `replaces` the channel head, several channels, a new
//! channel, `defaultChannel` kept right, reruns as no-ops, conflicts refused unless forced —
//! and the channel head that fetch-previous reads from a catalog.

use olm_release_base::Classified as _;
use olm_release_olm::fbc::add::{BundleChange, DefaultChange, EntryChange};
use olm_release_olm::fbc::error::CatalogError;
use olm_release_olm::fbc::{self, AddBundle, Catalog, disk, write};

use super::{catalog, crd, csv, documents, image};

fn req(name: &str, version: &str, channels: &[&str]) -> AddBundle {
    AddBundle {
        package: "widget".into(),
        name: name.into(),
        version: version.into(),
        image: image(name),
        channels: channels.iter().map(|c| c.to_string()).collect(),
        ..AddBundle::default()
    }
}

/// 0.1.0 then 0.2.0 on `stable`.
fn two_releases() -> Catalog {
    let mut c = Catalog::default();
    fbc::add(&mut c, &req("widget.v0.1.0", "0.1.0", &["stable"])).unwrap();
    fbc::add(&mut c, &req("widget.v0.2.0", "0.2.0", &["stable"])).unwrap();
    c
}

#[test]
fn the_first_release_creates_the_package_and_the_next_replaces_the_head() {
    let mut c = Catalog::default();
    let first = fbc::add(&mut c, &req("widget.v0.1.0", "0.1.0", &["stable"])).unwrap();
    assert_eq!(first.change, BundleChange::Added);
    assert_eq!(
        first.channels,
        [(
            "stable".into(),
            EntryChange::ChannelCreated { replaces: None }
        )]
    );
    assert!(matches!(&first.default_channel, DefaultChange::Set { to, .. } if to == "stable"));
    let second = fbc::add(&mut c, &req("widget.v0.2.0", "0.2.0", &["stable"])).unwrap();
    assert_eq!(
        second.channels,
        [(
            "stable".into(),
            EntryChange::Added {
                replaces: Some("widget.v0.1.0".into())
            }
        )]
    );
    assert_eq!(second.default_channel, DefaultChange::Unchanged);
    assert_eq!(
        second.lines(),
        [
            format!(
                "catalog: widget gains bundle widget.v0.2.0 ({})",
                image("widget.v0.2.0")
            ),
            "catalog: channel stable: widget.v0.2.0 replaces widget.v0.1.0, the new head"
                .to_string()
        ]
    );
    let b = c.bundle("widget", "widget.v0.2.0").unwrap();
    assert_eq!(b.image, image("widget.v0.2.0"));
    assert_eq!(b.version_str().as_deref(), Some("0.2.0"));
    assert!(fbc::validate(&c).is_empty(), "{:?}", fbc::validate(&c));
    let head = fbc::head(&c, "widget", "stable").unwrap().unwrap();
    assert_eq!(head.name, "widget.v0.2.0");
    assert_eq!(head.replaces.as_deref(), Some("widget.v0.1.0"));
    assert_eq!(head.version, Some(semver::Version::new(0, 2, 0)));
    assert_eq!(head.image.as_deref(), Some(image("widget.v0.2.0").as_str()));
    assert_eq!(
        fbc::head(&c, "widget", "fast").unwrap(),
        None,
        "no channel: a first release"
    );
    assert_eq!(
        fbc::head(&c, "gadget", "stable").unwrap(),
        None,
        "no package: a first release"
    );
}

#[test]
fn re_adding_the_same_bundle_is_a_no_op_to_the_byte() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let mut c = two_releases();
    disk::write(root, &c, &[]).unwrap();
    let before = std::fs::read(root.join("widget/catalog.yaml")).unwrap();
    let loaded = disk::read(root).unwrap();
    c = loaded.catalog;
    let again = fbc::add(&mut c, &req("widget.v0.2.0", "0.2.0", &["stable"])).unwrap();
    assert!(again.is_noop(), "{again:?}");
    assert_eq!(
        again.lines()[1],
        "catalog: channel stable already holds widget.v0.2.0"
    );
    let changes = disk::write(root, &c, &loaded.files).unwrap();
    assert!(changes.is_empty(), "{changes:?}");
    assert_eq!(
        std::fs::read(root.join("widget/catalog.yaml")).unwrap(),
        before
    );
}

#[test]
fn a_new_release_keeps_the_bytes_of_every_other_document() {
    let mut c = two_releases();
    let before = documents(&write::render(&c).unwrap()["widget/catalog.yaml"]);
    fbc::add(&mut c, &req("widget.v0.3.0", "0.3.0", &["stable"])).unwrap();
    let after = documents(&write::render(&c).unwrap()["widget/catalog.yaml"]);
    let changed: Vec<&String> = before.iter().filter(|d| !after.contains(d)).collect();
    assert_eq!(changed.len(), 1, "only the channel changes: {changed:?}");
    assert!(changed[0].starts_with("schema: olm.channel\n"));
    assert_eq!(after.len(), before.len() + 1, "plus the new bundle");
    assert!(
        after.last().unwrap().contains("name: widget.v0.3.0\n"),
        "appended last"
    );
}

#[test]
fn the_same_version_with_another_image_is_refused_unless_forced() {
    let mut c = two_releases();
    let mut other = req("widget.v0.2.0", "0.2.0", &["stable"]);
    other.image = image("rebuilt");
    let err = fbc::add(&mut c, &other).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, CatalogError::ImageConflict { .. }));
    assert!(
        msg.contains(&image("widget.v0.2.0")) && msg.contains(&image("rebuilt")),
        "both images shown: {msg}"
    );
    assert_eq!(err.class(), olm_release_base::Class::Stage);
    assert_eq!(c, two_releases(), "a refused add changes nothing");
    other.force = true;
    let forced = fbc::add(&mut c, &other).unwrap();
    assert_eq!(
        forced.change,
        BundleChange::Replaced {
            old_image: image("widget.v0.2.0")
        }
    );
    assert_eq!(
        c.bundle("widget", "widget.v0.2.0").unwrap().image,
        image("rebuilt")
    );
    assert_eq!(c.bundles.len(), 2);

    // Another bundle name with a version already taken is refused, forced or not.
    let mut dup = req("widget.v0.2.0-again", "0.2.0", &["stable"]);
    dup.force = true;
    let err = fbc::add(&mut c, &dup).unwrap_err();
    assert!(
        matches!(err, CatalogError::DuplicateVersion { .. }),
        "{err}"
    );
}

#[test]
fn a_bundle_joins_several_channels_each_replacing_its_own_head() {
    let mut c = two_releases();
    fbc::add(&mut c, &req("widget.v0.2.5", "0.2.5", &["fast"])).unwrap();
    let out = fbc::add(
        &mut c,
        &req("widget.v0.3.0", "0.3.0", &["stable", "fast", "candidate"]),
    )
    .unwrap();
    assert_eq!(
        out.channels,
        [
            (
                "stable".into(),
                EntryChange::Added {
                    replaces: Some("widget.v0.2.0".into())
                }
            ),
            (
                "fast".into(),
                EntryChange::Added {
                    replaces: Some("widget.v0.2.5".into())
                }
            ),
            (
                "candidate".into(),
                EntryChange::ChannelCreated { replaces: None }
            ),
        ]
    );
    for ch in ["stable", "fast", "candidate"] {
        assert_eq!(
            fbc::head(&c, "widget", ch).unwrap().unwrap().name,
            "widget.v0.3.0"
        );
    }
    assert_eq!(
        c.bundles_of("widget")
            .filter(|b| b.name == "widget.v0.3.0")
            .count(),
        1,
        "one bundle document"
    );
    assert!(fbc::validate(&c).is_empty(), "{:?}", fbc::validate(&c));
}

#[test]
fn adding_a_channel_keeps_the_implicit_default_and_an_explicit_one() {
    // A package written without defaultChannel and one channel: that channel stays the default.
    let mut c = catalog(&format!(
        "schema: olm.package\nname: widget\n---\nschema: olm.channel\npackage: widget\nname: beta\nentries:\n- name: widget.v0.1.0\n---\nschema: olm.bundle\npackage: widget\nname: widget.v0.1.0\nimage: {}\nproperties:\n- {{type: olm.package, value: {{packageName: widget, version: 0.1.0}}}}\n",
        image("w1")
    ));
    let out = fbc::add(&mut c, &req("widget.v0.2.0", "0.2.0", &["alpha"])).unwrap();
    assert_eq!(
        out.default_channel,
        DefaultChange::Set {
            from: None,
            to: "beta".into(),
            why: "the package's only channel so far stays its default"
        }
    );
    assert_eq!(
        c.package("widget").unwrap().default_channel.as_deref(),
        Some("beta")
    );
    assert!(fbc::validate(&c).is_empty(), "{:?}", fbc::validate(&c));
    // An explicit default stays when another channel is added.
    fbc::add(&mut c, &req("widget.v0.3.0", "0.3.0", &["fast"])).unwrap();
    assert_eq!(
        c.package("widget").unwrap().default_channel.as_deref(),
        Some("beta")
    );
    // And moves only when the release names it.
    let mut named = req("widget.v0.4.0", "0.4.0", &["fast"]);
    named.default_channel = Some("fast".into());
    let out = fbc::add(&mut c, &named).unwrap();
    assert!(
        matches!(out.default_channel, DefaultChange::Set { from: Some(ref f), ref to, .. } if f == "beta" && to == "fast")
    );
}

#[test]
fn skips_skip_range_and_a_given_replaces_are_written() {
    let mut c = two_releases();
    let mut r = req("widget.v0.3.0", "0.3.0", &["stable"]);
    r.replaces = Some("widget.v0.1.0".into());
    r.skips = vec!["widget.v0.2.0".into()];
    r.skip_range = Some(">=0.1.0 <0.3.0".into());
    fbc::add(&mut c, &r).unwrap();
    let e = c
        .channel("widget", "stable")
        .unwrap()
        .entry("widget.v0.3.0")
        .unwrap()
        .clone();
    assert_eq!(e.replaces.as_deref(), Some("widget.v0.1.0"));
    assert_eq!(e.skips, ["widget.v0.2.0"]);
    assert_eq!(e.skip_range.as_deref(), Some(">=0.1.0 <0.3.0"));
    assert!(fbc::validate(&c).is_empty(), "{:?}", fbc::validate(&c));
    // A rerun asking for other edges is refused unless forced.
    r.skips.clear();
    let err = fbc::add(&mut c, &r).unwrap_err();
    assert!(matches!(err, CatalogError::EntryConflict { .. }), "{err}");
    r.force = true;
    let out = fbc::add(&mut c, &r).unwrap();
    assert_eq!(out.channels[0].1, EntryChange::Rewritten);
}

#[test]
fn from_csv_takes_name_version_properties_skips_and_skip_range() {
    let mut m = csv(
        "widget.v0.3.0",
        "0.3.0",
        Some("widget.v0.2.0"),
        &["widget.v0.2.1"],
    );
    m.doc["metadata"]["annotations"] =
        serde_yaml_ng::from_str("{olm.skipRange: '>=0.2.0 <0.3.0'}").unwrap();
    let r = AddBundle::from_csv("widget", &m, &[crd()], &image("x"), &["stable".into()]).unwrap();
    assert_eq!(
        (r.name.as_str(), r.version.as_str()),
        ("widget.v0.3.0", "0.3.0")
    );
    assert_eq!(r.skips, ["widget.v0.2.1"]);
    assert_eq!(r.skip_range.as_deref(), Some(">=0.2.0 <0.3.0"));
    assert_eq!(
        r.replaces.as_deref(),
        Some("widget.v0.2.0"),
        "the CSV's own replaces, kept where it fits the channel"
    );
    let gvks: Vec<String> = r
        .properties
        .iter()
        .filter(|p| p.type_ != "olm.csv.metadata")
        .map(|p| format!("{} {}", p.type_, serde_json::to_string(&p.value).unwrap()))
        .collect();
    assert_eq!(
        gvks,
        [
            r#"olm.gvk {"group":"example.com","kind":"Thing","version":"v1"}"#,
            r#"olm.gvk {"group":"example.com","kind":"Thing","version":"v1beta1"}"#,
            r#"olm.package {"packageName":"widget","version":"0.3.0"}"#,
        ]
    );
    assert_eq!(r.properties.last().unwrap().type_, "olm.csv.metadata");
    assert_eq!(r.related_images.len(), 1, "the bundle image itself");
}

#[test]
fn bad_requests_are_input_errors() {
    let mut c = two_releases();
    let mut tag = req("widget.v0.3.0", "0.3.0", &["stable"]);
    tag.image = "quay.io/example/bundle:v0.3.0".into();
    let err = fbc::add(&mut c, &tag).unwrap_err();
    assert!(
        matches!(err, CatalogError::ImageNotByDigest { .. }),
        "{err}"
    );
    assert_eq!(err.class(), olm_release_base::Class::Input);
    let mut range = req("widget.v0.3.0", "0.3.0", &["stable"]);
    range.skip_range = Some(">=0.1 <0.3.0".into());
    assert!(matches!(
        fbc::add(&mut c, &range),
        Err(CatalogError::SkipRange { .. })
    ));
    let bad_version = req("widget.v0.3.0", "v0.3", &["stable"]);
    assert!(matches!(
        fbc::add(&mut c, &bad_version),
        Err(CatalogError::Request {
            field: "version",
            ..
        })
    ));
    let twice = req("widget.v0.3.0", "0.3.0", &["stable", "stable"]);
    let err = fbc::add(&mut c, &twice).unwrap_err();
    assert_eq!(
        err.to_string(),
        "adding widget.v0.3.0 to the catalog: channels name stable twice"
    );
    let mut default = req("widget.v0.3.0", "0.3.0", &["stable"]);
    default.default_channel = Some("fast".into());
    assert!(matches!(
        fbc::add(&mut c, &default),
        Err(CatalogError::Request {
            field: "default_channel",
            ..
        })
    ));
    let no_channel = req("widget.v0.3.0", "0.3.0", &[]);
    assert!(matches!(
        fbc::add(&mut c, &no_channel),
        Err(CatalogError::Request {
            field: "channels",
            ..
        })
    ));
    assert_eq!(c, two_releases());
}

#[test]
fn an_older_version_than_the_head_is_refused() {
    let mut c = two_releases();
    let err = fbc::add(&mut c, &req("widget.v0.1.5", "0.1.5", &["stable"])).unwrap_err();
    assert_eq!(
        err.to_string(),
        "widget.v0.1.5 (version 0.1.5) is not newer than widget.v0.2.0 (version 0.2.0), the head of channel stable of package widget; replacing the head would point replaces forward. Publish it to its own channel, or give the entry it replaces explicitly"
    );
}

#[test]
fn a_channel_with_two_heads_has_no_head_to_replace() {
    let mut c = two_releases();
    // A CSV's own replaces that would leave the head behind is refused, so the second head is
    // written as a catalog someone edited by hand.
    let mut side = req("widget.v0.2.1", "0.2.1", &["stable"]);
    side.replaces = Some("widget.v0.1.0".into());
    let err = fbc::add(&mut c, &side).unwrap_err();
    assert!(matches!(err, CatalogError::ReplacesConflict(_)), "{err}");
    c.bundles.push(olm_release_olm::fbc::BundleDoc {
        package: "widget".into(),
        name: "widget.v0.2.1".into(),
        image: image("widget.v0.2.1"),
        properties: vec![olm_release_olm::fbc::Property::package("widget", "0.2.1")],
        ..Default::default()
    });
    c.channels[0].entries.push(olm_release_olm::fbc::Entry::new(
        "widget.v0.2.1",
        Some("widget.v0.1.0"),
    ));
    let err = fbc::head(&c, "widget", "stable").unwrap_err();
    assert_eq!(
        err.to_string(),
        "channel stable of package widget has 2 heads, widget.v0.2.0 and widget.v0.2.1 (entries nothing replaces or skips); exactly one is allowed. Make the newer one replace or skip the other (edges: widget.v0.2.0 replaces widget.v0.1.0, widget.v0.2.1 replaces widget.v0.1.0)"
    );
    let err = fbc::add(&mut c, &req("widget.v0.3.0", "0.3.0", &["stable"])).unwrap_err();
    assert!(matches!(err, CatalogError::Heads { .. }), "{err}");
}
