//! Finding the bundle's parts among rendered files: every part found where it is, and every
//! reason a folder is not a bundle.

use serde_yaml_ng::Value;

use super::{Outside, RenderedBundleError, RenderedFile, find, in_bundle};
use crate::Manifest;

/// A rendered file at `rel`, in the bundle or not, of the YAML `text`.
fn file(rel: &str, in_bundle: bool, text: &str) -> RenderedFile {
    let docs = serde_yaml_ng::Deserializer::from_str(text)
        .map(|d| <Value as serde::Deserialize>::deserialize(d).expect("fixture parses"))
        .collect();
    RenderedFile {
        rel: rel.into(),
        template: rel.into(),
        source_text: text.into(),
        content: text.into(),
        docs,
        in_bundle,
    }
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
    let found = find("bundle", &files, Outside::default()).expect("a bundle");
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
    match find("b", &files, outside) {
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
    let cases: [(&[RenderedFile], &str); 4] = [
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
        let err = find(".", files, Outside::default())
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
        find(".", &files, Outside::default()),
        Err(RenderedBundleError::SecondPackage { file }) if file == "q.yaml"
    ));
    let files = [
        file("a.yaml", true, CSV),
        file("p.yaml", true, PACKAGE),
        file("m.yaml", true, "properties: []\n"),
        file("n.yaml", true, "properties: []\n"),
    ];
    assert!(matches!(
        find(".", &files, Outside::default()),
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
    assert!(find(".", &files, Outside::default()).is_ok());
}

mod finishing {
    use super::*;
    use crate::render_checks::Wanted;
    use crate::rendered_bundle::{Finish, FinishError, Finished, finish};
    use crate::{Finding, Level};

    const VERSIONED: &str = "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: widget.v1.0.0\n  annotations:\n    createdAt: \"2024-01-01T00:00:00Z\"\nspec:\n  version: 1.0.0\n";

    fn epoch_warning() -> Finding {
        Finding {
            level: Level::Warning,
            rule: "created-at".into(),
            mirrors: String::new(),
            file: "pipeline.yaml".into(),
            object: "ClusterServiceVersion".into(),
            field: "metadata.annotations.createdAt".into(),
            message: "epoch".into(),
            fix: String::new(),
            accepted: None,
        }
    }

    fn run(
        files: &mut [RenderedFile],
        created_at: &str,
        keep: bool,
    ) -> (Result<Finished, FinishError>, Vec<Finding>) {
        let found = find(".", files, Outside::default()).expect("a bundle");
        let csv = Manifest::new(
            "widget.clusterserviceversion.yaml",
            files[found.csv.0].docs[found.csv.1].clone(),
        );
        let channels = vec!["stable".to_string()];
        let ask = Finish {
            wanted: Wanted {
                package: "widget",
                channels: &channels,
            },
            created_at,
            keep_created_at: keep,
            default_channel: Some("stable"),
        };
        let mut findings = vec![epoch_warning()];
        let done = finish(files, found, csv, &mut findings, &ask);
        (done, findings)
    }

    #[test]
    fn the_csv_is_written_back_keeps_its_file_name_and_the_package_gets_its_default() {
        let mut files = [
            file("bundle/csv.yaml", true, VERSIONED),
            file("bundle/package.yaml", true, PACKAGE),
        ];
        files[0].content = "stale".into();
        let (done, _) = run(&mut files, "2024-01-01T00:00:00Z", true);
        let done = done.expect("finished");
        assert_eq!(done.csv.name(), Some("widget.v1.0.0"));
        assert_eq!(done.package.default_channel.as_deref(), Some("stable"));
        assert!(
            files[0].content.contains("name: widget.v1.0.0"),
            "{}",
            files[0].content
        );
        assert_eq!(
            done.metadata.file_names.values().collect::<Vec<_>>(),
            ["csv.yaml"]
        );
    }

    #[test]
    fn the_epoch_warning_stays_only_where_the_csv_holds_the_release_time() {
        let mut files = [
            file("csv.yaml", true, VERSIONED),
            file("p.yaml", true, PACKAGE),
        ];
        let (_, findings) = run(&mut files, "2024-01-01T00:00:00Z", true);
        assert!(findings.iter().any(|f| f.rule == "created-at"));
        let mut files = [
            file("csv.yaml", true, VERSIONED),
            file("p.yaml", true, PACKAGE),
        ];
        let (_, findings) = run(&mut files, "1970-01-01T00:00:00Z", true);
        assert!(!findings.iter().any(|f| f.rule == "created-at"));
        let mut files = [
            file("csv.yaml", true, VERSIONED),
            file("p.yaml", true, PACKAGE),
        ];
        let (_, findings) = run(&mut files, "1970-01-01T00:00:00Z", false);
        assert!(findings.iter().any(|f| f.rule == "created-at"));
    }

    #[test]
    fn an_annotations_file_naming_another_package_is_refused() {
        let mut files = [
            file("csv.yaml", true, VERSIONED),
            file("p.yaml", true, PACKAGE),
            file(
                "annotations.yaml",
                true,
                "annotations:\n  operators.operatorframework.io.bundle.package.v1: gadget\n",
            ),
        ];
        let (done, _) = run(&mut files, "2024-01-01T00:00:00Z", true);
        match done {
            Err(FinishError::Package(e)) => {
                assert!(e.to_string().contains("gadget"), "{e}")
            }
            Err(e) => panic!("another error: {e}"),
            Ok(_) => panic!("finished"),
        }
    }
}
