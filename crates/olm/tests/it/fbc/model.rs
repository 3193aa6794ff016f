//! Reading a catalog in any layout (YAML and JSON, several documents per file, nested folders),
//! writing it in the one layout this tool writes, and rerunning without changing a byte.

use olm_release_base::Classified as _;
use olm_release_olm::fbc::{self, CatalogError, disk, write};

use super::{documents, image, read};

/// A catalog as a person or `opm render` might lay it out: a JSON stream for one package in a
/// nested folder, a YAML file with several documents for another, an unknown schema, extra
/// keys, a README that is not a catalog file, and a hidden folder.
fn hand_written(root: &std::path::Path) {
    let deep = root.join("operators/widget");
    std::fs::create_dir_all(&deep).unwrap();
    let json = format!(
        r#"{{"schema":"olm.package","name":"widget","defaultChannel":"stable","description":"Widgets."}}
{{"schema":"olm.channel","package":"widget","name":"stable","entries":[{{"name":"widget.v0.2.0","replaces":"widget.v0.1.0","skipRange":">=0.1.0 <0.2.0"}},{{"name":"widget.v0.1.0"}}]}}
{{"schema":"olm.bundle","package":"widget","name":"widget.v0.2.0","image":"{}","properties":[{{"type":"olm.package","value":{{"packageName":"widget","version":"0.2.0"}}}},{{"type":"olm.csv.metadata","value":{{"displayName":"Widget"}}}}],"relatedImages":[{{"name":"op","image":"quay.io/x/op:1"}}]}}
{{"schema":"olm.bundle","package":"widget","name":"widget.v0.1.0","image":"{}","properties":[{{"type":"olm.package","value":{{"packageName":"widget","version":"0.1.0"}}}}]}}
"#,
        image("w2"),
        image("w1")
    );
    std::fs::write(deep.join("index.json"), json).unwrap();
    let yaml = format!(
        "---\nschema: olm.package\nname: gadget\ndefaultChannel: alpha\nicon:\n  base64data: aWNvbg==\n  mediatype: image/png\n---\nschema: olm.bundle\npackage: gadget\nname: gadget.v1.0.0\nimage: {}\nproperties:\n- type: olm.package\n  value: {{packageName: gadget, version: 1.0.0}}\n- type: olm.gvk\n  value: {{group: example.com, kind: Gadget, version: v1}}\n---\nschema: olm.channel\npackage: gadget\nname: alpha\nentries:\n- name: gadget.v1.0.0\n---\nschema: olm.deprecations\npackage: gadget\nentries:\n- reference: {{schema: olm.package}}\n  message: use widget\n---\nschema: vendor.example/notes\nnote: no package\n",
        image("g1")
    );
    std::fs::write(root.join("gadget.yaml"), yaml).unwrap();
    std::fs::write(root.join("README.md"), "not a catalog file\n").unwrap();
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::write(root.join(".git/config.yaml"), "not: [a, catalog").unwrap();
}

#[test]
fn any_layout_reads_and_writes_to_one_layout_then_reruns_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    hand_written(root);
    let first = read(root);
    assert_eq!(
        first.files,
        ["gadget.yaml", "operators/widget/index.json"],
        "README and hidden folders are not catalog files"
    );
    let c = &first.catalog;
    assert_eq!(c.packages.len(), 2);
    assert_eq!(c.channels.len(), 2);
    assert_eq!(c.bundles.len(), 3);
    assert_eq!(c.others.len(), 2, "unknown schemas are kept");
    let w2 = c.bundle("widget", "widget.v0.2.0").unwrap();
    assert_eq!(w2.origin.file, "operators/widget/index.json");
    assert_eq!(w2.origin.document, 3);
    assert_eq!(w2.version_str().as_deref(), Some("0.2.0"));
    assert_eq!(
        w2.related_images,
        [fbc::RelatedImage {
            name: Some("op".into()),
            image: "quay.io/x/op:1".into()
        }]
    );
    assert!(fbc::validate(c).is_empty(), "{:?}", fbc::validate(c));

    let changes = disk::write(root, c, &first.files).unwrap();
    let mut paths: Vec<_> = changes
        .iter()
        .map(|ch| (ch.path.as_str(), ch.new.is_some()))
        .collect();
    paths.sort();
    assert_eq!(
        paths,
        [
            ("catalog.yaml", true),
            ("gadget.yaml", false),
            ("gadget/catalog.yaml", true),
            ("operators/widget/index.json", false),
            ("widget/catalog.yaml", true),
        ],
        "the chosen layout replaces the hand-written files"
    );
    assert!(
        !root.join("operators").exists(),
        "emptied folders are removed"
    );
    assert!(root.join("README.md").exists(), "other files stay");

    // Reading back gives the same model (origins aside), and a rerun writes nothing.
    let second = read(root);
    let strip = |mut c: fbc::Catalog| {
        c.packages
            .iter_mut()
            .for_each(|p| p.origin = Default::default());
        c.channels
            .iter_mut()
            .for_each(|p| p.origin = Default::default());
        c.bundles
            .iter_mut()
            .for_each(|p| p.origin = Default::default());
        c.others
            .iter_mut()
            .for_each(|p| p.origin = Default::default());
        c.bundles.sort_by(|a, b| a.name.cmp(&b.name));
        c.channels.sort_by(|a, b| a.name.cmp(&b.name));
        c.packages.sort_by(|a, b| a.name.cmp(&b.name));
        c.others.sort_by(|a, b| a.schema.cmp(&b.schema));
        c
    };
    let mut before = strip(first.catalog.clone());
    let after = strip(second.catalog.clone());
    // Channel entries are written oldest first.
    for ch in &mut before.channels {
        ch.entries.sort_by(|a, b| a.name.cmp(&b.name));
    }
    assert_eq!(before, after);
    let bytes: Vec<Vec<u8>> = second
        .files
        .iter()
        .map(|f| std::fs::read(root.join(f)).unwrap())
        .collect();
    let again = disk::write(root, &second.catalog, &second.files).unwrap();
    assert!(again.is_empty(), "a rerun changes nothing: {again:?}");
    let bytes_again: Vec<Vec<u8>> = second
        .files
        .iter()
        .map(|f| std::fs::read(root.join(f)).unwrap())
        .collect();
    assert_eq!(bytes, bytes_again);
}

#[test]
fn the_written_layout_has_a_fixed_document_and_key_order() {
    let dir = tempfile::tempdir().unwrap();
    hand_written(dir.path());
    let c = read(dir.path()).catalog;
    let files = write::render(&c).unwrap();
    let widget = &files["widget/catalog.yaml"];
    let docs = documents(widget);
    assert_eq!(docs.len(), 4);
    assert!(
        docs[0].starts_with(
            "schema: olm.package\nname: widget\ndefaultChannel: stable\ndescription: Widgets.\n"
        ),
        "{}",
        docs[0]
    );
    assert_eq!(
        docs[1],
        "schema: olm.channel\npackage: widget\nname: stable\nentries:\n- name: widget.v0.1.0\n- name: widget.v0.2.0\n  replaces: widget.v0.1.0\n  skipRange: '>=0.1.0 <0.2.0'\n"
    );
    assert!(
        docs[2].starts_with("schema: olm.bundle\npackage: widget\nname: widget.v0.1.0\nimage: "),
        "bundles oldest first: {}",
        docs[2]
    );
    assert!(
        docs[3].contains("name: widget.v0.2.0\nimage: "),
        "{}",
        docs[3]
    );
    assert!(
        docs[3].contains("    version: '0.2.0'\n"),
        "versions are quoted so YAML 1.1 readers keep them strings: {}",
        docs[3]
    );
    assert!(
        docs[3].ends_with("relatedImages:\n- image: quay.io/x/op:1\n  name: op\n"),
        "{}",
        docs[3]
    );
    let gadget = documents(&files["gadget/catalog.yaml"]);
    assert!(
        gadget[3].starts_with("schema: olm.deprecations\n"),
        "other schemas last: {gadget:?}"
    );
    assert_eq!(
        files["catalog.yaml"],
        "---\nschema: vendor.example/notes\nnote: no package\n"
    );
}

#[test]
fn errors_name_the_file_and_the_document() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("pkg")).unwrap();
    std::fs::write(
        root.join("pkg/catalog.yaml"),
        "---\nschema: olm.package\nname: pkg\n---\nschema: olm.channel\nname: [not, a, string]\n",
    )
    .unwrap();
    let err = disk::read(root).unwrap_err();
    assert!(matches!(err, CatalogError::Field { .. }));
    assert_eq!(
        err.to_string(),
        "pkg/catalog.yaml, document 2: name must be a string"
    );
    assert_eq!(err.class(), olm_release_base::Class::Input);

    std::fs::write(
        root.join("pkg/catalog.yaml"),
        "schema: olm.package\nname: pkg\n---\nschema: olm.channel\npackage: pkg\nname: a\nentries:\n- name: x\n  skips: oops\n---\n: : bad\n",
    )
    .unwrap();
    let msg = disk::read(root).unwrap_err().to_string();
    assert_eq!(
        msg,
        "pkg/catalog.yaml, document 2: entries[0].skips must be a list of strings"
    );

    std::fs::write(
        root.join("pkg/catalog.yaml"),
        "schema: olm.package\nname: pkg\n---\nkey: [unclosed\n",
    )
    .unwrap();
    let msg = disk::read(root).unwrap_err().to_string();
    assert!(
        msg.starts_with("pkg/catalog.yaml, document 2: not valid YAML: "),
        "{msg}"
    );

    std::fs::write(root.join("pkg/catalog.yaml"), "").unwrap();
    std::fs::write(
        root.join("pkg/index.json"),
        "{\"schema\":\"olm.package\",\"name\":\"pkg\"}\n{\"schema\": \"olm.bundle\",}\n",
    )
    .unwrap();
    let msg = disk::read(root).unwrap_err().to_string();
    assert!(
        msg.starts_with("pkg/index.json, document 2: not valid JSON: "),
        "{msg}"
    );

    std::fs::write(root.join("pkg/index.json"), "{\"name\":\"pkg\"}\n").unwrap();
    let msg = disk::read(root).unwrap_err().to_string();
    assert!(
        msg.starts_with("pkg/index.json, document 1: schema is missing"),
        "{msg}"
    );
}

#[test]
fn a_missing_root_is_an_empty_catalog_and_a_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let loaded = read(&dir.path().join("new"));
    assert!(loaded.files.is_empty() && loaded.catalog == Default::default());
    let file = dir.path().join("file.yaml");
    std::fs::write(&file, "").unwrap();
    assert!(matches!(
        disk::read(&file),
        Err(CatalogError::NotAFolder { .. })
    ));
}

#[test]
fn package_names_that_would_leave_the_root_are_refused() {
    for bad in ["../up", "a/b", ".hidden", ""] {
        assert!(
            matches!(
                write::package_file(bad),
                Err(CatalogError::UnsafePackageName { .. })
            ),
            "{bad}"
        );
    }
    assert_eq!(
        write::package_file("kubevirt").unwrap(),
        "kubevirt/catalog.yaml"
    );
}

#[test]
fn a_dry_run_diff_shows_the_change_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let mut c = fbc::Catalog::default();
    let req = fbc::AddBundle {
        package: "widget".into(),
        name: "widget.v0.1.0".into(),
        version: "0.1.0".into(),
        image: image("w1"),
        channels: vec!["stable".into()],
        ..Default::default()
    };
    fbc::add(&mut c, &req).unwrap();
    let rendered = write::render(&c).unwrap();
    let changes = disk::plan(root, &[], &rendered).unwrap();
    let diff = disk::diff(&changes);
    assert!(
        diff.starts_with("--- /dev/null\n+++ b/widget/catalog.yaml\n"),
        "{diff}"
    );
    assert!(
        diff.contains("+  - name: widget.v0.1.0\n") || diff.contains("+- name: widget.v0.1.0\n"),
        "{diff}"
    );
    assert!(!root.join("widget").exists(), "planning writes nothing");
    disk::apply(root, &changes).unwrap();
    assert_eq!(
        std::fs::read_to_string(root.join("widget/catalog.yaml")).unwrap(),
        rendered["widget/catalog.yaml"]
    );
}

#[test]
fn the_diff_of_a_release_to_a_large_catalog_is_its_entry_and_its_bundle() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let mut c = fbc::Catalog::default();
    let req = |i: usize| fbc::AddBundle {
        package: "widget".into(),
        name: format!("widget.v1.{i}.0"),
        version: format!("1.{i}.0"),
        image: image(&i.to_string()),
        channels: vec!["stable".into()],
        ..Default::default()
    };
    for i in 0..400 {
        fbc::add(&mut c, &req(i)).unwrap();
    }
    disk::write(root, &c, &[]).unwrap();
    let loaded = read(root);
    let mut c = loaded.catalog;
    fbc::add(&mut c, &req(400)).unwrap();
    let changes = disk::plan(root, &loaded.files, &write::render(&c).unwrap()).unwrap();
    let diff = disk::diff(&changes);
    let added: Vec<&str> = diff
        .lines()
        .filter(|l| l.starts_with('+') && !l.starts_with("+++"))
        .collect();
    assert_eq!(
        added,
        [
            "+- name: widget.v1.400.0",
            "+  replaces: widget.v1.399.0",
            "+---",
            "+schema: olm.bundle",
            "+package: widget",
            "+name: widget.v1.400.0",
            &format!("+image: {}", image("400")),
            "+properties:",
            "+- type: olm.package",
            "+  value:",
            "+    packageName: widget",
            "+    version: '1.400.0'",
        ],
        "{diff}"
    );
    assert!(
        !diff
            .lines()
            .any(|l| l.starts_with('-') && !l.starts_with("---")),
        "{diff}"
    );
}
