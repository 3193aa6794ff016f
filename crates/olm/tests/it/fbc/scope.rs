//! Reading only what a release needs, and writing back only its package: in a catalog laid out
//! one folder per package, a release reads its own folder and opens no other (a broken file in
//! another package's folder does not stop it, and is left as it is); in any other layout it reads
//! every file but keeps other packages' large values out of memory, and a file holding both its
//! package and others' keeps the others, in full. `graph` and `verify` read summaries.

use std::path::Path;

use olm_release_olm::fbc::{self, AddBundle, disk, rewrite};

use super::{crd, csv, image};

/// The request of `widget` at `version`, with its CSV's metadata.
fn release(version: &str, replaces: Option<&str>) -> AddBundle {
    let name = format!("widget.v{version}");
    let m = csv(&name, version, replaces, &[]);
    AddBundle::from_csv("widget", &m, &[crd()], &image(&name), &["stable".into()]).unwrap()
}

/// A gadget package with one bundle carrying a large `olm.csv.metadata`.
fn gadget() -> String {
    let description = "x".repeat(10_000);
    format!(
        "---\nschema: olm.package\nname: gadget\ndefaultChannel: alpha\n---\nschema: olm.channel\npackage: gadget\nname: alpha\nentries:\n- name: gadget.v1.0.0\n---\nschema: olm.bundle\npackage: gadget\nname: gadget.v1.0.0\nimage: {}\nproperties:\n- type: olm.package\n  value: {{packageName: gadget, version: 1.0.0}}\n- type: olm.csv.metadata\n  value: {{description: {description}}}\n",
        image("g1")
    )
}

/// Adds `req` to the catalog at `root` as the catalog stage does; returns the changed files.
fn stage(root: &Path, req: &AddBundle) -> Vec<String> {
    super::in_place::stage(root, req).0
}

#[test]
fn a_release_opens_only_its_own_folder_in_a_folder_per_package_catalog() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    stage(root, &release("0.1.0", None));
    std::fs::create_dir_all(root.join("gadget")).unwrap();
    std::fs::write(root.join("gadget/catalog.yaml"), gadget()).unwrap();
    // Another package's broken file: not this release's business.
    std::fs::write(root.join("gadget/broken.json"), "{\"schema\": [[[").unwrap();
    let before = std::fs::read(root.join("gadget/catalog.yaml")).unwrap();
    let loaded = disk::read_package(root, "widget").unwrap();
    assert_eq!(loaded.files, ["widget/catalog.yaml"]);
    assert_eq!(loaded.unopened, 1);
    assert_eq!(
        stage(root, &release("0.2.0", None)),
        ["widget/catalog.yaml"]
    );
    assert_eq!(
        std::fs::read(root.join("gadget/catalog.yaml")).unwrap(),
        before
    );
    // The whole catalog is what `verify` and `graph` read: they see the broken file.
    let err = disk::read_summary(root).unwrap_err().to_string();
    assert!(
        err.starts_with("gadget/broken.json, document 1: not valid JSON"),
        "{err}"
    );
}

#[test]
fn a_file_shared_with_other_packages_keeps_their_documents_in_full() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // A one-file catalog, as `opm render` writes an index: gadget and widget together.
    let mut widget = fbc::Catalog::default();
    fbc::add(&mut widget, &release("0.1.0", None)).unwrap();
    let widget_text = fbc::write::render(&widget).unwrap()["widget/catalog.yaml"].clone();
    std::fs::write(
        root.join("index.yaml"),
        format!("{}{widget_text}", gadget()),
    )
    .unwrap();
    let loaded = disk::read_package(root, "widget").unwrap();
    assert_eq!(
        loaded.unopened, 0,
        "a catalog file at the root: every file is read"
    );
    let g = loaded.catalog.bundle("gadget", "gadget.v1.0.0").unwrap();
    assert!(
        g.properties[1].value["description"]
            .as_str()
            .is_some_and(|d| d.len() == 10_000),
        "the shared file is read again in full"
    );
    let changed = stage(root, &release("0.2.0", None));
    assert_eq!(changed, ["index.yaml"], "edited in place");
    let text = std::fs::read_to_string(root.join("index.yaml")).unwrap();
    assert!(
        text.starts_with(&gadget()),
        "gadget's documents keep their bytes"
    );
    let reread = disk::read(root).unwrap();
    assert_eq!(reread.files, ["index.yaml"]);
    let index = &reread.catalog;
    assert_eq!(
        index.bundles_of("widget").count(),
        2,
        "widget's new bundle joins its documents in the shared file"
    );
    let g = index.bundle("gadget", "gadget.v1.0.0").unwrap();
    assert_eq!(g.origin.file, "index.yaml");
    assert_eq!(
        g.properties[1].value["description"].as_str().map(str::len),
        Some(10_000)
    );
    assert!(fbc::validate(index).is_empty());
}

#[test]
fn summaries_drop_large_values_and_cannot_be_written_back() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("gadget")).unwrap();
    std::fs::write(root.join("gadget/catalog.yaml"), gadget()).unwrap();
    let loaded = disk::read_summary(root).unwrap();
    let g = loaded.catalog.bundle("gadget", "gadget.v1.0.0").unwrap();
    assert_eq!(g.properties[1].type_, "olm.csv.metadata");
    assert!(g.properties[1].value.is_null());
    assert_eq!(g.version_str().as_deref(), Some("1.0.0"));
    assert!(fbc::validate(&loaded.catalog).is_empty());
    let err = rewrite::plan(root, &loaded, &loaded.catalog).unwrap_err();
    assert!(err.to_string().contains("summarised"), "{err}");
}
