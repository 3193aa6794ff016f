//! Finding the bundle's parts among rendered files: every part found where it is, and every
//! reason a folder is not a bundle.

use serde_yaml_ng::Value;

use super::{Outside, RenderedBundleError, RenderedFile, find, in_bundle};
use crate::Manifest;

/// A rendered file: its path, whether it is in the bundle, and its YAML text.
struct File {
    rel: &'static str,
    in_bundle: bool,
    text: String,
    docs: Vec<Value>,
}

fn file(rel: &'static str, in_bundle: bool, text: &str) -> File {
    let docs = serde_yaml_ng::Deserializer::from_str(text)
        .map(|d| <Value as serde::Deserialize>::deserialize(d).expect("fixture parses"))
        .collect();
    File {
        rel,
        in_bundle,
        text: text.to_string(),
        docs,
    }
}

fn views(files: &[File]) -> Vec<RenderedFile<'_>> {
    files
        .iter()
        .map(|f| RenderedFile {
            rel: f.rel,
            template: f.rel,
            in_bundle: f.in_bundle,
            content: &f.text,
            docs: &f.docs,
        })
        .collect()
}

const CSV: &str = "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: widget.v1.0.0\n";
const PACKAGE: &str =
    "packageName: widget\nchannels:\n- name: stable\n  currentCSV: widget.v1.0.0\n";
const CRD: &str = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\n";
const ROLE: &str = "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: widget-viewer\n";

#[test]
fn every_part_is_found_where_it_is() {
    let files = [
        file("bundle/package.yaml", true, PACKAGE),
        file("bundle/extra.yaml", true, &format!("{ROLE}---\n{CSV}")),
        file("bundle/crd.yaml", true, CRD),
        file(
            "bundle/tests/scorecard/config.yaml",
            true,
            "kind: Configuration\n",
        ),
        file("bundle/dependencies.yaml", true, "dependencies: []\n"),
        file("subscription.yaml", false, "kind: Subscription\n"),
    ];
    let found = find("bundle", &views(&files), Outside::default()).expect("a bundle");
    assert_eq!(found.csv, (1, 1));
    assert_eq!(found.package.package_name, "widget");
    assert_eq!(found.package_file, "bundle/package.yaml");
    assert_eq!(found.crds.len(), 1);
    assert_eq!(found.crds[0].file, "crd.yaml");
    assert_eq!(found.objects.len(), 1);
    assert_eq!(found.objects[0].kind(), Some("ClusterRole"));
    assert!(found.metadata.dependencies.is_some());
    assert_eq!(
        found.metadata.tests.keys().collect::<Vec<_>>(),
        ["tests/scorecard/config.yaml"]
    );
    // A file of one object keeps its name in the image; a file of two does not.
    assert_eq!(
        found.metadata.file_names.values().collect::<Vec<_>>(),
        ["crd.yaml"]
    );
}

#[test]
fn outside_parts_count_and_a_crd_twice_names_both_files() {
    let files = [file("b/csv.yaml", true, CSV), file("b/crd.yaml", true, CRD)];
    let outside = Outside {
        package: Some(("pkg.yaml".into(), serde_yaml_ng::from_str(PACKAGE).unwrap())),
        crds: vec![Manifest::new(
            "crds/widgets.yaml",
            serde_yaml_ng::from_str(CRD).unwrap(),
        )],
    };
    match find("b", &views(&files), outside) {
        Err(RenderedBundleError::SameCrds(twice)) => assert_eq!(
            twice,
            [(
                "widgets.example.com".to_string(),
                vec!["crds/widgets.yaml".to_string(), "b/crd.yaml".to_string()]
            )]
        ),
        other => panic!("expected SameCrds, got {:?}", other.map(|f| f.csv)),
    }
}

#[test]
fn a_folder_that_is_not_a_bundle_says_why() {
    let cases: [(&[File], &str); 4] = [
        (&[file("a.yaml", true, PACKAGE)], "exactly one CSV, found 0"),
        (
            &[
                file("a.yaml", true, CSV),
                file("b.yaml", true, CSV),
                file("p.yaml", true, PACKAGE),
            ],
            "exactly one CSV, found 2",
        ),
        (&[file("a.yaml", true, CSV)], "has no package file"),
        (
            &[
                file("a.yaml", true, CSV),
                file("p.yaml", true, PACKAGE),
                file("d.yaml", true, "kind: Deployment\n"),
            ],
            "d.yaml: Deployment does not belong in a bundle",
        ),
    ];
    for (files, expected) in cases {
        let err = find(".", &views(files), Outside::default())
            .err()
            .expect("not a bundle");
        assert!(err.to_string().contains(expected), "{err} lacks {expected}");
    }
}

#[test]
fn a_second_package_or_metadata_file_is_refused() {
    let files = [
        file("a.yaml", true, CSV),
        file("p.yaml", true, PACKAGE),
        file("q.yaml", true, PACKAGE),
    ];
    assert!(matches!(
        find(".", &views(&files), Outside::default()),
        Err(RenderedBundleError::SecondPackage { file }) if file == "q.yaml"
    ));
    let files = [
        file("a.yaml", true, CSV),
        file("p.yaml", true, PACKAGE),
        file("m.yaml", true, "properties: []\n"),
        file("n.yaml", true, "properties: []\n"),
    ];
    assert!(matches!(
        find(".", &views(&files), Outside::default()),
        Err(RenderedBundleError::SecondMetadata { file, kind: "properties" }) if file == "n.yaml"
    ));
}

#[test]
fn files_outside_the_bundle_folder_are_not_read() {
    assert!(in_bundle("bundle", "bundle/csv.yaml"));
    assert!(in_bundle("./bundle/", "bundle/csv.yaml"));
    assert!(in_bundle(".", "anything.yaml"));
    assert!(!in_bundle("bundle", "bundles/csv.yaml"));
    assert!(!in_bundle("bundle", "other/csv.yaml"));
    let files = [
        file("a.yaml", true, CSV),
        file("p.yaml", true, PACKAGE),
        file("d.yaml", false, "kind: Deployment\n"),
    ];
    assert!(find(".", &views(&files), Outside::default()).is_ok());
}
