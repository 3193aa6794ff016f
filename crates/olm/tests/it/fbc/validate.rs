//! Every rule of `opm validate` that catalog validation mirrors, each with a catalog that breaks
//! it (the finding names package, channel, heads and edges) and one that passes.

use olm_release_olm::Level;
use olm_release_olm::fbc;
use olm_release_olm::fbc::validate::ALL;

use super::{catalog, image};

/// A valid package: `stable` is 0.1.0 ← 0.2.0 ← 0.3.0.
fn base() -> String {
    let mut s = String::from(
        "schema: olm.package\nname: widget\ndefaultChannel: stable\n---\nschema: olm.channel\npackage: widget\nname: stable\nentries:\n- name: widget.v0.1.0\n- name: widget.v0.2.0\n  replaces: widget.v0.1.0\n- name: widget.v0.3.0\n  replaces: widget.v0.2.0\n",
    );
    for v in ["0.1.0", "0.2.0", "0.3.0"] {
        s.push_str(&bundle(&format!("widget.v{v}"), v));
    }
    s
}

fn bundle(name: &str, version: &str) -> String {
    format!(
        "---\nschema: olm.bundle\npackage: widget\nname: {name}\nimage: {}\nproperties:\n- type: olm.package\n  value: {{packageName: widget, version: \"{version}\"}}\n",
        image(name)
    )
}

/// The findings of a catalog as `rule: message` lines.
fn findings(yaml: &str) -> Vec<String> {
    fbc::validate(&catalog(yaml))
        .iter()
        .map(|f| format!("{}: {}", f.rule, f.message))
        .collect()
}

/// Asserts exactly one finding, of `rule`, containing every piece of `says`.
#[track_caller]
fn only(yaml: &str, rule: &str, says: &[&str]) {
    let found = findings(yaml);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].starts_with(&format!("{rule}: ")), "{found:#?}");
    for s in says {
        assert!(found[0].contains(s), "{s:?} not in {found:#?}");
    }
}

#[test]
fn the_base_catalog_passes_every_rule() {
    assert!(findings(&base()).is_empty(), "{:#?}", findings(&base()));
    let f = fbc::validate(&catalog(&base().replace(
        "name: widget.v0.1.0\n-",
        "name: widget.v0.1.0\n  skipRange: '<0.1.0'\n-",
    )));
    assert!(f.is_empty(), "{f:#?}");
}

#[test]
fn package_name() {
    let found = findings(&base().replacen("name: widget\n", "name: \"\"\n", 1));
    assert!(
        found.contains(&"fbc-package-name: an olm.package document has no name".to_string()),
        "{found:#?}"
    );
    only(
        &base().replacen("packageName: widget", "packageName: gadget", 1),
        "fbc-package-name",
        &["widget.v0.1.0 is in package widget but its olm.package property names gadget"],
    );
}

#[test]
fn unknown_package() {
    only(
        &(base() + "---\nschema: olm.channel\npackage: gadget\nname: s\nentries: []\n"),
        "fbc-unknown-package",
        &["channel s names package gadget"],
    );
}

#[test]
fn duplicates() {
    only(
        &(base() + "---\nschema: olm.package\nname: widget\ndefaultChannel: stable\n"),
        "fbc-duplicate",
        &["package widget is defined twice"],
    );
    only(
        &(base() + &bundle("widget.v0.3.0", "0.3.0")),
        "fbc-duplicate",
        &["package widget has bundle widget.v0.3.0 twice"],
    );
    only(
        &base().replace(
            "- name: widget.v0.1.0\n",
            "- name: widget.v0.1.0\n- name: widget.v0.1.0\n",
        ),
        "fbc-duplicate",
        &["channel stable of package widget lists widget.v0.1.0 twice"],
    );
    let two_channels = base().replacen("name: stable\nentries:", "name: stable\nentries: []\n---\nschema: olm.channel\npackage: widget\nname: stable\nentries:", 1);
    let found = findings(&two_channels);
    assert!(
        found
            .iter()
            .any(|f| f.starts_with("fbc-duplicate: package widget has channel stable twice")),
        "{found:#?}"
    );
}

#[test]
fn default_channel() {
    only(
        &base().replace("defaultChannel: stable\n", ""),
        "fbc-default-channel",
        &["package widget has no defaultChannel (its channels: stable)"],
    );
    only(
        &base().replace("defaultChannel: stable", "defaultChannel: fast"),
        "fbc-default-channel",
        &["names defaultChannel fast, which is not one of its channels (stable)"],
    );
}

#[test]
fn channels() {
    let no_channel = "schema: olm.package\nname: widget\ndefaultChannel: stable\n";
    let found = findings(no_channel);
    assert!(
        found.contains(&"fbc-channels: package widget has no channel".to_string()),
        "{found:#?}"
    );
    let empty = base() + "---\nschema: olm.channel\npackage: widget\nname: fast\nentries: []\n";
    only(
        &empty,
        "fbc-channels",
        &["channel fast of package widget has no entries"],
    );
}

#[test]
fn entries_and_bundles_match() {
    only(
        &base().replace(&bundle("widget.v0.1.0", "0.1.0"), ""),
        "fbc-entry-bundle",
        &["channel stable of package widget lists widget.v0.1.0, which has no olm.bundle document"],
    );
    only(
        &(base() + &bundle("widget.v0.9.0", "0.9.0")),
        "fbc-entry-bundle",
        &["bundle widget.v0.9.0 of package widget is in no channel's entries"],
    );
}

#[test]
fn exactly_one_head() {
    only(
        &base().replace(
            "- name: widget.v0.3.0\n  replaces: widget.v0.2.0\n",
            "- name: widget.v0.3.0\n  replaces: widget.v0.1.0\n",
        ),
        "fbc-channel-head",
        &[
            "channel stable of package widget has 2 heads, widget.v0.2.0 and widget.v0.3.0",
            "edges: widget.v0.2.0 replaces widget.v0.1.0, widget.v0.3.0 replaces widget.v0.1.0",
        ],
    );
    only(
        &base().replace(
            "- name: widget.v0.1.0\n",
            "- name: widget.v0.1.0\n  replaces: widget.v0.3.0\n",
        ),
        "fbc-channel-head",
        &[
            "has no head: every entry is replaced or skipped by another",
            "widget.v0.1.0 replaces widget.v0.3.0",
        ],
    );
}

#[test]
fn no_replaces_cycle() {
    // Head 0.3.0 → 0.2.0 → 0.1.0 → 0.2.0: a loop below the head.
    only(
        &base().replace(
            "- name: widget.v0.1.0\n",
            "- name: widget.v0.1.0\n  replaces: widget.v0.2.0\n",
        ),
        "fbc-replaces-cycle",
        &[
            "the replaces chain from head widget.v0.3.0 loops: widget.v0.2.0 -> widget.v0.1.0 -> widget.v0.2.0",
        ],
    );
}

#[test]
fn no_stranded_bundle_but_skipped_ones_and_a_missing_tail_are_fine() {
    // 0.1.5 replaces 0.1.0 and is skipped by the head, but nothing on the chain reaches 0.1.0.
    let stranded = base()
        .replace(
            "- name: widget.v0.2.0\n  replaces: widget.v0.1.0\n",
            "- name: widget.v0.1.5\n  replaces: widget.v0.1.0\n- name: widget.v0.2.0\n",
        )
        .replace(
            "  replaces: widget.v0.2.0\n",
            "  replaces: widget.v0.2.0\n  skips: [widget.v0.1.5]\n",
        )
        + &bundle("widget.v0.1.5", "0.1.5");
    only(
        &stranded,
        "fbc-stranded",
        &[
            "channel stable of package widget strands widget.v0.1.0: not on the replaces chain from head widget.v0.3.0 (widget.v0.3.0 -> widget.v0.2.0) and skipped by no entry",
        ],
    );
    // Skipped instead of replaced: not stranded.
    let skipped = base().replace("  replaces: widget.v0.1.0\n", "  skips: [widget.v0.1.0]\n");
    assert!(findings(&skipped).is_empty(), "{:#?}", findings(&skipped));
    // The tail may replace a bundle the catalog does not have.
    let tail = base().replace(
        "- name: widget.v0.1.0\n",
        "- name: widget.v0.1.0\n  replaces: widget.v0.0.1\n",
    );
    assert!(findings(&tail).is_empty(), "{:#?}", findings(&tail));
}

#[test]
fn unique_semver_versions() {
    only(
        &base().replace("version: \"0.3.0\"", "version: \"0.2.0\""),
        "fbc-bundle-version",
        &["package widget has version 0.2.0 twice: widget.v0.2.0 and widget.v0.3.0"],
    );
    only(
        &base().replace("version: \"0.3.0\"", "version: \"v0.3\""),
        "fbc-bundle-version",
        &["widget.v0.3.0 has version \"v0.3\", which is not SemVer"],
    );
}

#[test]
fn exactly_one_package_property() {
    let two = base().replacen(
        "properties:\n",
        "properties:\n- type: olm.package\n  value: {packageName: widget, version: \"0.0.1\"}\n",
        1,
    );
    only(
        &two,
        "fbc-package-property",
        &["widget.v0.1.0 has 2 olm.package properties; exactly one is required"],
    );
    let none = base().replacen("- type: olm.package\n", "- type: olm.gvk\n", 1);
    only(
        &none,
        "fbc-package-property",
        &["has 0 olm.package properties"],
    );
}

#[test]
fn an_image_per_bundle_by_digest() {
    only(
        &base().replacen(
            &format!("image: {}", image("widget.v0.1.0")),
            "image: \"\"",
            1,
        ),
        "fbc-bundle-image",
        &["bundle widget.v0.1.0 has no image"],
    );
    let tag = base().replacen(&image("widget.v0.1.0"), "quay.io/example/bundle:v0.1.0", 1);
    let f = fbc::validate(&catalog(&tag));
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(
        (f[0].rule.as_str(), f[0].level),
        ("fbc-image-digest", Level::Warning)
    );
}

#[test]
fn skip_range_parses() {
    only(
        &base().replace(
            "  replaces: widget.v0.2.0\n",
            "  replaces: widget.v0.2.0\n  skipRange: '>=0.1 <0.3.0'\n",
        ),
        "fbc-skip-range",
        &["widget.v0.3.0: skipRange \">=0.1 <0.3.0\" does not parse"],
    );
}

#[test]
fn findings_name_file_object_field_and_fix() {
    let f = fbc::validate(&catalog(&base().replace("defaultChannel: stable\n", "")));
    let f = &f[0];
    assert_eq!(
        (
            f.file.as_str(),
            f.object.as_str(),
            f.field.as_str(),
            f.mirrors.as_str()
        ),
        (
            "catalog.yaml",
            "olm.package widget",
            "defaultChannel",
            "opm validate"
        )
    );
    assert!(!f.fix.is_empty());
    assert!(
        ALL.iter()
            .all(|r| !r.fix.is_empty() && r.id.starts_with("fbc-"))
    );
}

#[test]
fn deprecations() {
    let doc = |entries: &str| {
        format!("---\nschema: olm.deprecations\npackage: widget\nentries:\n{entries}")
    };
    let good = doc(
        "- reference: {schema: olm.package}\n  message: use gadget\n- reference: {schema: olm.channel, name: stable}\n  message: moved\n- reference: {schema: olm.bundle, name: widget.v0.1.0}\n  message: broken\n",
    );
    assert!(findings(&format!("{}{good}", base())).is_empty());
    for (entries, says) in [
        (
            "- reference: {schema: olm.bundle, name: widget.v9.9.9}\n  message: m\n",
            "cannot deprecate bundle \"widget.v9.9.9\" of package widget: no such bundle",
        ),
        (
            "- reference: {schema: olm.channel, name: fast}\n  message: m\n",
            "cannot deprecate channel \"fast\" of package widget: no such channel",
        ),
        (
            "- reference: {schema: olm.package, name: widget}\n  message: m\n",
            "a package deprecation names no package",
        ),
        (
            "- reference: {schema: olm.bundle, name: widget.v0.1.0}\n  message: ''\n",
            "has no message",
        ),
        (
            "- reference: {schema: olm.widget, name: x}\n  message: m\n",
            "cannot deprecate a olm.widget",
        ),
        (
            "- reference: {schema: olm.package}\n  message: a\n- reference: {schema: olm.package}\n  message: b\n",
            "is deprecated twice",
        ),
    ] {
        only(
            &format!("{}{}", base(), doc(entries)),
            "fbc-deprecations",
            &[says],
        );
    }
    only(
        &format!("{}{good}{good}", base()),
        "fbc-deprecations",
        &["more than one olm.deprecations document"],
    );
    only(
        &format!(
            "{}{}",
            base(),
            good.replace("package: widget", "package: gadget")
        ),
        "fbc-deprecations",
        &["deprecations name package gadget, which the catalog does not have"],
    );
}
