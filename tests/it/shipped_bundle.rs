//! The bundle the project ships: a release of `fixtures/memcached-operator` (a committed
//! operator-sdk `bundle/`) publishes the bundle image with the project's CSV annotations
//! (no `createdAt` added, `containerImage` not replaced by the first container's image), the
//! folder's own file names (so the v1 and v1beta1 ClusterRoles of one name both ship), every
//! annotation of its `metadata/annotations.yaml` in the image's annotations and labels, and
//! its `tests/scorecard/`.

use std::collections::BTreeMap;
use std::path::Path;

use serde_yaml_ng::Value;

use crate::support::{Work, assert_code, copy_dir, layout_digest, list_files, root, stderr};

const EPOCH: (&str, &str) = ("SOURCE_DATE_EPOCH", "1570449600");
const FIXTURE: &str = "fixtures/memcached-operator";
const LAYOUT: &str = "_out/oci/memcached-operator-bundle";

const PIPELINE: &str = "name: memcached-release
package: memcached-operator
channel: alpha
version: ${VERSION:-0.0.1}
render:
  templates: fixtures/memcached-operator/bundle
  bundle: .
  package: fixtures/memcached-operator/memcached-operator.package.yaml
verify:
  profile: modern
stages: [render, package, verify, bundle-image]
bundle_image:
  target: oci:_out/oci/memcached-operator-bundle
  image: quay.io/example/memcached-operator-bundle
";

/// A work folder with the fixture and its pipeline, released once.
pub(crate) fn released() -> (Work, std::path::PathBuf) {
    let w = Work::sample();
    copy_dir(&root().join(FIXTURE), &w.path().join(FIXTURE));
    std::fs::write(w.path().join("pipelines/memcached.yaml"), PIPELINE).unwrap();
    let o = w.run(&["run", "pipelines/memcached.yaml"], &[EPOCH]);
    assert_code(&o, 0);
    let folder = w.path().join("_out/memcached-release/bundle-image");
    (w, folder)
}

fn yaml(path: &Path) -> Value {
    serde_yaml_ng::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// The annotations of an annotations file, as text.
fn annotations(path: &Path) -> BTreeMap<String, String> {
    yaml(path)["annotations"]
        .as_mapping()
        .unwrap()
        .iter()
        .map(|(k, v)| {
            (
                k.as_str().unwrap().to_string(),
                v.as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The labels of the image at `tag` of an OCI layout, read through its index and manifest.
fn labels(layout: &Path, tag: &str) -> BTreeMap<String, String> {
    let blob = |digest: &str| -> serde_json::Value {
        let hex = digest.trim_start_matches("sha256:");
        serde_json::from_slice(&std::fs::read(layout.join("blobs/sha256").join(hex)).unwrap())
            .unwrap()
    };
    let manifest = blob(&layout_digest(layout, tag));
    let config = blob(manifest["config"]["digest"].as_str().unwrap());
    serde_json::from_value(config["config"]["Labels"].clone()).unwrap()
}

#[test]
fn the_image_is_the_bundle_the_project_ships() {
    let (w, folder) = released();
    let project = root().join(FIXTURE).join("bundle");

    // The folder's own file names, both ClusterRoles among them.
    assert_eq!(
        list_files(&folder.join("manifests")),
        list_files(&project.join("manifests")),
    );

    // The CSV's annotations are the project's.
    let csv = yaml(&folder.join("manifests/memcached-operator.clusterserviceversion.yaml"));
    let ann = &csv["metadata"]["annotations"];
    assert!(ann.get("createdAt").is_none(), "createdAt added: {ann:?}");
    assert_eq!(
        ann["containerImage"].as_str(),
        Some("quay.io/example/memcached-operator:v0.0.1"),
        "not the first container's image"
    );

    // Every annotation of the project's, in the image's annotations and its labels.
    let ours = annotations(&folder.join("metadata/annotations.yaml"));
    for (k, v) in annotations(&project.join("metadata/annotations.yaml")) {
        assert_eq!(ours.get(&k), Some(&v), "{k}");
    }
    assert_eq!(labels(&w.path().join(LAYOUT), "0.0.1"), ours);
    let dockerfile = std::fs::read_to_string(folder.join("bundle.Dockerfile")).unwrap();
    assert!(
        dockerfile.contains("LABEL com.redhat.openshift.versions=v4.12-v4.16")
            && dockerfile.contains("COPY tests/scorecard /tests/scorecard/"),
        "{dockerfile}"
    );

    // The scorecard configuration, byte for byte.
    assert_eq!(
        std::fs::read(folder.join("tests/scorecard/config.yaml")).unwrap(),
        std::fs::read(project.join("tests/scorecard/config.yaml")).unwrap()
    );
}

/// `olm-release diff` between the project's bundle and the release's: the one deliberate
/// difference is the default channel annotation, which olm-release always writes.
#[test]
fn the_release_differs_from_the_projects_bundle_only_by_the_default_channel() {
    let (w, _) = released();
    let o = w.run(
        &[
            "diff",
            "--ignore-release-fields",
            "fixtures/memcached-operator/bundle",
            "_out/memcached-release/bundle-image",
        ],
        &[],
    );
    assert_code(&o, 1);
    assert_eq!(
        crate::support::stdout(&o),
        "file metadata/annotations.yaml: 1 field\n  + annotations[\"operators.operatorframework.io.bundle.channel.default.v1\"]: \"alpha\"\n"
    );
}

/// The release time goes into the CSV only when the pipeline asks, and the operator's image
/// into `containerImage` only when the pipeline names it.
#[test]
fn created_at_and_container_image_only_when_the_pipeline_asks() {
    let w = Work::sample();
    copy_dir(&root().join(FIXTURE), &w.path().join(FIXTURE));
    let asked = PIPELINE.replace(
        "  package: fixtures/memcached-operator/memcached-operator.package.yaml\n",
        "  package: fixtures/memcached-operator/memcached-operator.package.yaml\n  csv:\n    created_at: set\n    images: {manager: 'quay.io/example/memcached-operator:v0.0.2'}\n",
    );
    std::fs::write(w.path().join("pipelines/memcached.yaml"), asked).unwrap();
    let o = w.run(&["render", "pipelines/memcached.yaml"], &[EPOCH]);
    assert_code(&o, 0);
    let csv = yaml(&w.path().join(
        "_out/memcached-release/render/manifests/memcached-operator.clusterserviceversion.yaml",
    ));
    let ann = &csv["metadata"]["annotations"];
    assert_eq!(ann["createdAt"].as_str(), Some("2019-10-07T12:00:00Z"));
    assert_eq!(
        ann["containerImage"].as_str(),
        Some("quay.io/example/memcached-operator:v0.0.2"),
        "{}",
        stderr(&o)
    );
}
