//! Existing catalogs edited in place: a release added to a package keeps the catalog's layout
//! (one file, per-bundle files beside a channel file, JSON), its license headers and comments,
//! the key order of its documents, and every file and document it did not change, byte for
//! byte; the changes name only the files that changed, and a rerun changes nothing.

use std::collections::BTreeMap;
use std::path::Path;

use olm_release_olm::fbc::{self, AddBundle, disk, rewrite};
use serde_yaml_ng::{Mapping, Value};

use super::{crd, csv, image};

const HEADER: &str = "# Copyright 2024 The Widget Authors\n# SPDX-License-Identifier: Apache-2.0\n";

fn release(version: &str) -> AddBundle {
    let name = format!("widget.v{version}");
    let m = csv(&name, version, None, &[]);
    AddBundle::from_csv("widget", &m, &[crd()], &image(&name), &["stable".into()]).unwrap()
}

/// `v` with every mapping's keys sorted, as `opm render` writes them.
fn opm_style(v: Value) -> Value {
    match v {
        Value::Mapping(m) => {
            let mut entries: Vec<(String, Value, Value)> = m
                .into_iter()
                .map(|(k, v)| (k.as_str().unwrap_or_default().to_string(), k, opm_style(v)))
                .collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Mapping(
                entries
                    .into_iter()
                    .map(|(_, k, v)| (k, v))
                    .collect::<Mapping>(),
            )
        }
        Value::Sequence(s) => Value::Sequence(s.into_iter().map(opm_style).collect()),
        other => other,
    }
}

/// widget's first release as documents in opm's style: package, channel, bundle.
fn first_release() -> [Value; 3] {
    let mut c = fbc::Catalog::default();
    fbc::add(&mut c, &release("0.1.0")).unwrap();
    let text = &fbc::write::render(&c).unwrap()["widget/catalog.yaml"];
    let docs: Vec<Value> = serde_yaml_ng::Deserializer::from_str(text)
        .map(|d| opm_style(serde::Deserialize::deserialize(d).unwrap()))
        .collect();
    [docs[0].clone(), docs[1].clone(), docs[2].clone()]
}

fn yaml(v: &Value) -> String {
    olm_release_base::yaml::to_string(v)
}

fn json(v: &Value) -> String {
    let mut out = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut ser = serde_json::Serializer::with_formatter(&mut out, fmt);
    serde::Serialize::serialize(v, &mut ser).unwrap();
    String::from_utf8(out).unwrap()
}

fn write(root: &Path, files: &[(&str, String)]) -> BTreeMap<String, Vec<u8>> {
    for (rel, text) in files {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    files
        .iter()
        .map(|(r, t)| (r.to_string(), t.clone().into_bytes()))
        .collect()
}

/// Adds `req` as the catalog stage does; returns the changed files and the diff.
pub(super) fn stage(root: &Path, req: &AddBundle) -> (Vec<String>, String) {
    let mut loaded = disk::read_package(root, &req.package).unwrap();
    let mut catalog = std::mem::take(&mut loaded.catalog);
    fbc::add(&mut catalog, req).unwrap();
    let errors: Vec<_> = fbc::validate(&catalog)
        .into_iter()
        .filter(|f| f.level == olm_release_olm::Level::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let changes = rewrite::plan(root, &loaded, &catalog).unwrap();
    let diff = disk::diff(&changes);
    disk::apply(root, &changes).unwrap();
    (changes.into_iter().map(|c| c.path).collect(), diff)
}

fn read(root: &Path, rel: &str) -> String {
    std::fs::read_to_string(root.join(rel)).unwrap()
}

/// The lines the diff removes and adds (file headers aside).
fn removed_and_added(diff: &str) -> (Vec<&str>, Vec<&str>) {
    let body = diff
        .lines()
        .filter(|l| !l.starts_with("---") && !l.starts_with("+++"));
    let (mut removed, mut added) = (Vec::new(), Vec::new());
    for l in body {
        if let Some(r) = l.strip_prefix('-') {
            removed.push(r);
        } else if let Some(a) = l.strip_prefix('+') {
            added.push(a);
        }
    }
    (removed, added)
}

/// After the release: the catalog holds both bundles and is valid, and a rerun changes nothing.
fn holds_both_and_reruns_clean(root: &Path) {
    let c = disk::read(root).unwrap().catalog;
    assert_eq!(c.bundles_of("widget").count(), 2);
    assert!(fbc::validate(&c).is_empty(), "{:?}", fbc::validate(&c));
    let (again, _) = stage(root, &release("0.2.0"));
    assert!(again.is_empty(), "a rerun changes {again:?}");
}

#[test]
fn one_file_with_a_license_header_gains_the_entry_and_the_bundle_and_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let [p, c, b] = first_release();
    let text = format!(
        "{HEADER}---\n{}# The upgrade graph.\n---\n{}---\n{}",
        yaml(&p),
        yaml(&c),
        yaml(&b)
    );
    write(root, &[("widget/catalog.yaml", text.clone())]);
    let (changed, diff) = stage(root, &release("0.2.0"));
    assert_eq!(changed, ["widget/catalog.yaml"]);
    let (removed, added) = removed_and_added(&diff);
    assert!(
        removed.is_empty(),
        "no line of the old file goes: {removed:?}"
    );
    let after = read(root, "widget/catalog.yaml");
    // The entry goes right after the channel's last one, the bundle after the last bundle.
    let old_entry = "- name: widget.v0.1.0\n";
    let new_entry = "- name: widget.v0.2.0\n  replaces: widget.v0.1.0\n";
    assert!(
        after.contains(&format!("{old_entry}{new_entry}name: stable\n")),
        "{after}"
    );
    assert!(after.starts_with(&text[..text.find(old_entry).unwrap() + old_entry.len()]));
    assert!(after.starts_with(&format!("{HEADER}---\n")));
    assert!(after.contains("# The upgrade graph.\n---\n"));
    let (_, rest) = after.split_at(after.find(new_entry).unwrap() + new_entry.len());
    assert!(rest.starts_with("name: stable\npackage: widget\nschema: olm.channel\n---\n"));
    let tail = &after[after.rfind("---\n").unwrap() + 4..];
    let new_bundle: Value = serde_yaml_ng::from_str(tail).unwrap();
    assert_eq!(new_bundle["name"], Value::from("widget.v0.2.0"));
    let keys: Vec<&str> = new_bundle
        .as_mapping()
        .unwrap()
        .keys()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "image",
            "name",
            "package",
            "properties",
            "relatedImages",
            "schema"
        ],
        "keys as its sibling has them"
    );
    assert_eq!(
        added.len(),
        2 + tail.lines().count() + 1,
        "the entry and the new document only"
    );
    holds_both_and_reruns_clean(root);
}

#[test]
fn per_bundle_files_and_a_channel_file_gain_a_bundle_file_and_an_entry() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let [p, c, b] = first_release();
    let before = write(
        root,
        &[
            ("widget/package.yaml", format!("---\n{}", yaml(&p))),
            ("widget/channel.yaml", format!("{HEADER}{}", yaml(&c))),
            (
                "widget/bundles/widget.v0.1.0.yaml",
                format!("{HEADER}---\n{}", yaml(&b)),
            ),
        ],
    );
    let (changed, diff) = stage(root, &release("0.2.0"));
    assert_eq!(
        changed,
        ["widget/bundles/widget.v0.2.0.yaml", "widget/channel.yaml"],
        "{diff}"
    );
    for rel in ["widget/package.yaml", "widget/bundles/widget.v0.1.0.yaml"] {
        assert_eq!(read(root, rel).into_bytes(), before[rel], "{rel} unchanged");
    }
    let channel = read(root, "widget/channel.yaml");
    assert_eq!(
        channel,
        format!(
            "{HEADER}entries:\n- name: widget.v0.1.0\n- name: widget.v0.2.0\n  replaces: widget.v0.1.0\nname: stable\npackage: widget\nschema: olm.channel\n"
        )
    );
    let new = read(root, "widget/bundles/widget.v0.2.0.yaml");
    assert!(new.starts_with(&format!("{HEADER}---\nimage: ")), "{new}");
    holds_both_and_reruns_clean(root);
}

#[test]
fn a_json_catalog_stays_json_indented_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let [p, c, b] = first_release();
    let (pj, bj) = (json(&p), json(&b));
    let text = format!("{pj}\n{}\n{bj}\n", json(&c));
    write(root, &[("widget/catalog.json", text)]);
    let (changed, diff) = stage(root, &release("0.2.0"));
    assert_eq!(changed, ["widget/catalog.json"]);
    let after = read(root, "widget/catalog.json");
    assert!(
        after.starts_with(&format!("{pj}\n")),
        "the package document keeps its bytes"
    );
    assert!(
        after.contains(&format!("\n{bj}\n{{\n    \"image\": ")),
        "the new bundle after the old: {after}"
    );
    let (removed, _) = removed_and_added(&diff);
    assert!(removed.is_empty(), "the old lines stay: {diff}");
    assert!(after.ends_with("}\n"));
    holds_both_and_reruns_clean(root);
}

#[test]
fn a_new_channel_goes_beside_the_channel_files() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let [p, c, b] = first_release();
    let mut candidate = c.clone();
    candidate["name"] = Value::from("candidate");
    let before = write(
        root,
        &[
            ("widget/package.yaml", yaml(&p)),
            ("widget/channels/stable.yaml", yaml(&c)),
            ("widget/channels/candidate.yaml", yaml(&candidate)),
            ("widget/bundles.yaml", yaml(&b)),
        ],
    );
    let mut req = release("0.2.0");
    req.channels = vec!["fast".into()];
    let (changed, _) = stage(root, &req);
    assert_eq!(
        changed,
        ["widget/bundles.yaml", "widget/channels/fast.yaml"]
    );
    for rel in [
        "widget/package.yaml",
        "widget/channels/stable.yaml",
        "widget/channels/candidate.yaml",
    ] {
        assert_eq!(read(root, rel).into_bytes(), before[rel], "{rel} unchanged");
    }
    assert!(read(root, "widget/bundles.yaml").starts_with(&yaml(&b)));
    let fast: Value = serde_yaml_ng::from_str(&read(root, "widget/channels/fast.yaml")).unwrap();
    assert_eq!(fast["name"], Value::from("fast"));
}

#[test]
fn a_new_default_channel_changes_one_line_of_the_package_document() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let [mut p, c, b] = first_release();
    // A description over several lines and a comment: the re-serialised document would lose
    // the comment and could fold the text differently.
    p["description"] = Value::from("Widgets, managed.\n\nSee the docs.\n");
    let package = format!("{HEADER}---\n# the package\n{}", yaml(&p))
        .replace("description:", "# shown on OperatorHub\ndescription:");
    assert!(package.contains("defaultChannel: stable\n"), "{package}");
    assert!(
        package.contains("\n# shown on OperatorHub\ndescription: "),
        "{package}"
    );
    let before = write(
        root,
        &[
            ("widget/package.yaml", package.clone()),
            ("widget/channels/stable.yaml", yaml(&c)),
            ("widget/bundles.yaml", yaml(&b)),
        ],
    );
    let mut req = release("0.2.0");
    req.channels = vec!["fast".into()];
    req.default_channel = Some("fast".into());
    let (changed, diff) = stage(root, &req);
    assert_eq!(
        changed,
        [
            "widget/bundles.yaml",
            "widget/channels/fast.yaml",
            "widget/package.yaml"
        ],
        "{diff}"
    );
    assert_eq!(
        read(root, "widget/package.yaml"),
        package.replace("defaultChannel: stable\n", "defaultChannel: fast\n")
    );
    let (removed, _) = removed_and_added(&diff);
    assert_eq!(removed, ["defaultChannel: stable"], "{diff}");
    assert_eq!(
        read(root, "widget/channels/stable.yaml").into_bytes(),
        before["widget/channels/stable.yaml"]
    );
    let c = disk::read(root).unwrap().catalog;
    assert!(fbc::validate(&c).is_empty(), "{:?}", fbc::validate(&c));
}
