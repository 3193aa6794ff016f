//! Catalog entries of bundle folders in the OpenShift community catalog's shape
//! (`operators/<package>/<version>/{manifests,metadata}`, with `metadata/dependencies.yaml`),
//! against entries written by hand from the rules `opm render` follows: operator-registry decodes
//! a CSV with Go's `encoding/json` into operator-framework/api's types, so keys match their
//! fields without regard to case and fields those types lack are dropped
//! (<https://pkg.go.dev/encoding/json#Unmarshal>); properties are sorted by type, then by the
//! bytes of their value's JSON, with `olm.csv.metadata` last; the package's `olm.package`
//! property names package and version; `relatedImages` are sorted by image and include the
//! bundle image, unnamed. `scripts/opm_agree.py` measures the same entries against what opm
//! rendered for the community catalog itself.

use std::path::Path;

use olm_release_olm::fbc::entry::{ObjectStyle, bundle_entry, read_bundle_dir};
use olm_release_olm::fbc::{BundleDoc, Property, RelatedImage};
use serde_yaml_ng::Value;

use super::image;

/// A CSV written with odd key case (`Kind`, `DisplayName`, `Owned`, `SpecDescriptors`) and
/// fields operator-framework/api's types do not have (`tier`, `owner`, `provider.kind`).
const CSV: &str = r#"apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: jobs-operator.v1.2.0
  namespace: placeholder
  annotations:
    capabilities: Basic Install
    createdAt: "2024-05-01T00:00:00Z"
  Labels:
    operatorframework.io/arch.amd64: supported
spec:
  version: 1.2.0
  DisplayName: Jobs Operator
  description: Runs jobs.
  tier: gold
  maturity: stable
  provider:
    name: Example
    kind: vendor
  customresourcedefinitions:
    Owned:
    - Name: jobs.batch.example.com
      Version: v1
      Kind: Job
      owner: team-a
      SpecDescriptors:
      - Path: size
        DisplayName: Size
        x-descriptors: ["urn:alm:descriptor:com.tectonic.ui:podCount"]
  installModes:
  - type: AllNamespaces
    supported: true
  - Type: OwnNamespace
  relatedImages:
  - name: jobs
    image: quay.io/example/jobs@sha256:2222222222222222222222222222222222222222222222222222222222222222
  install:
    strategy: deployment
    spec:
      deployments: []
"#;

const CRD: &str = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: jobs.batch.example.com\nspec:\n  group: batch.example.com\n  names: {kind: Job, plural: jobs}\n  scope: Namespaced\n  versions:\n  - {name: v1, served: true, storage: true}\n";

const ANNOTATIONS: &str = "annotations:\n  operators.operatorframework.io.bundle.mediatype.v1: registry+v1\n  operators.operatorframework.io.bundle.manifests.v1: manifests/\n  operators.operatorframework.io.bundle.metadata.v1: metadata/\n  operators.operatorframework.io.bundle.package.v1: jobs-operator\n  operators.operatorframework.io.bundle.channels.v1: stable\n  operators.operatorframework.io.bundle.channel.default.v1: stable\n  com.redhat.openshift.versions: v4.14\n";

const DEPENDENCIES: &str = "dependencies:\n- type: olm.package\n  value:\n    packageName: cert-manager\n    version: \">=1.0.0\"\n- type: olm.gvk\n  value:\n    group: cert-manager.io\n    kind: Certificate\n    version: v1\n";

/// The entry, as the rules above give it (the image aside, set by the test).
const EXPECTED: &str = r#"schema: olm.bundle
name: jobs-operator.v1.2.0
package: jobs-operator
properties:
- type: olm.gvk
  value: {group: batch.example.com, kind: Job, version: v1}
- type: olm.gvk.required
  value: {group: cert-manager.io, kind: Certificate, version: v1}
- type: olm.package
  value: {packageName: jobs-operator, version: 1.2.0}
- type: olm.package.required
  value: {packageName: cert-manager, versionRange: ">=1.0.0"}
- type: olm.csv.metadata
  value:
    annotations:
      capabilities: Basic Install
      createdAt: "2024-05-01T00:00:00Z"
    apiServiceDefinitions: {}
    crdDescriptions:
      owned:
      - kind: Job
        name: jobs.batch.example.com
        specDescriptors:
        - displayName: Size
          path: size
          x-descriptors: ["urn:alm:descriptor:com.tectonic.ui:podCount"]
        version: v1
    description: Runs jobs.
    displayName: Jobs Operator
    installModes:
    - {supported: true, type: AllNamespaces}
    - {supported: false, type: OwnNamespace}
    labels:
      operatorframework.io/arch.amd64: supported
    maturity: stable
    provider: {name: Example}
relatedImages:
- {image: BUNDLE, name: ""}
- {image: "quay.io/example/jobs@sha256:2222222222222222222222222222222222222222222222222222222222222222", name: jobs}
"#;

/// `operators/jobs-operator/1.2.0` under `root`, in the community catalog's shape.
fn version_folder(root: &Path) -> std::path::PathBuf {
    let dir = root.join("operators/jobs-operator/1.2.0");
    let files = [
        ("manifests/jobs-operator.clusterserviceversion.yaml", CSV),
        ("manifests/batch.example.com_jobs.yaml", CRD),
        ("metadata/annotations.yaml", ANNOTATIONS),
        ("metadata/dependencies.yaml", DEPENDENCIES),
    ];
    for (rel, text) in files {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

fn expected(bundle_image: &str) -> Value {
    serde_yaml_ng::from_str(&EXPECTED.replace("BUNDLE", bundle_image)).unwrap()
}

fn properties(doc: &BundleDoc) -> Value {
    Value::Sequence(
        doc.properties
            .iter()
            .map(|Property { type_, value }| {
                let mut m = serde_yaml_ng::Mapping::new();
                m.insert("type".into(), type_.as_str().into());
                m.insert("value".into(), value.clone());
                Value::Mapping(m)
            })
            .collect(),
    )
}

fn related(doc: &BundleDoc) -> Value {
    Value::Sequence(
        doc.related_images
            .iter()
            .map(|RelatedImage { image, name }| {
                let mut m = serde_yaml_ng::Mapping::new();
                m.insert("image".into(), image.as_str().into());
                m.insert("name".into(), name.clone().unwrap_or_default().into());
                Value::Mapping(m)
            })
            .collect(),
    )
}

#[test]
fn a_community_version_folder_gives_the_entry_opm_writes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = read_bundle_dir(&version_folder(tmp.path())).unwrap();
    let bundle_image = image("jobs-operator.v1.2.0");
    let got = bundle_entry(&dir.source(&bundle_image, ObjectStyle::CsvMetadata)).unwrap();
    let want = expected(&bundle_image);
    assert_eq!(got.name, want["name"].as_str().unwrap());
    assert_eq!(got.package, want["package"].as_str().unwrap());
    assert_eq!(got.image, bundle_image);
    let (props, want_props) = (properties(&got), &want["properties"]);
    for (i, w) in want_props.as_sequence().unwrap().iter().enumerate() {
        assert_eq!(props.get(i), Some(w), "property {i}");
    }
    assert_eq!(&props, want_props, "no other property");
    assert_eq!(related(&got), want["relatedImages"]);
}

#[test]
fn the_csvs_own_spelling_and_extra_fields_do_not_reach_the_metadata() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = read_bundle_dir(&version_folder(tmp.path())).unwrap();
    let got = bundle_entry(&dir.source(&image("x"), ObjectStyle::CsvMetadata)).unwrap();
    let meta = &got.properties.last().unwrap().value;
    let text = serde_json::to_string(meta).unwrap();
    for absent in [
        "tier",
        "owner",
        "vendor",
        "Kind",
        "DisplayName",
        "SpecDescriptors",
    ] {
        assert!(!text.contains(absent), "{absent} in {text}");
    }
}

#[test]
fn a_manifest_repeating_a_key_is_read_as_opm_reads_it_the_last_one_winning() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = version_folder(tmp.path());
    let crd = CRD.replace(
        "  scope: Namespaced\n",
        "  scope: Cluster\n  scope: Namespaced\n",
    );
    std::fs::write(folder.join("manifests/batch.example.com_jobs.yaml"), crd).unwrap();
    let dir = read_bundle_dir(&folder).unwrap();
    let crd = dir
        .objects
        .iter()
        .find(|m| m.kind() == Some("CustomResourceDefinition"));
    assert_eq!(crd.unwrap().doc["spec"]["scope"], Value::from("Namespaced"));
}
