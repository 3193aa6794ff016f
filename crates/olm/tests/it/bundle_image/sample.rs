//! The sample bundle the bundle-image tests build: a CSV owning one CRD, the CRD and a Service,
//! its image at epoch 0, and the image's files. Shared with the OCI crate's tests and the
//! application's, which include this file, so it names only other crates.

use olm_release_olm::Manifest;
use olm_release_olm::bundle_image::{BundleFolder, BundleInput, BundleSpec, OciImage, build_image};

/// A small but complete bundle: a CSV owning one CRD, the CRD, and a Service.
pub fn input(version: &str) -> BundleInput {
    let csv = format!(
        r#"apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: sample-operator.v{version}
  annotations:
    createdAt: "2019-10-07T12:00:00Z"
spec:
  version: {version}
  displayName: Sample
  description: |
    A sample operator.
    Two lines.
  customresourcedefinitions:
    owned:
      - name: samples.example.com
        version: v1
        kind: Sample
  install:
    strategy: deployment
    spec:
      deployments: []
"#
    );
    let crd = r#"apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: samples.example.com
spec:
  group: example.com
  names: {kind: Sample, plural: samples}
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
"#;
    let svc = r#"apiVersion: v1
kind: Service
metadata:
  name: sample-metrics
spec:
  ports: [{port: 8443}]
"#;
    let m = |file: &str, text: &str| Manifest::new(file, serde_yaml_ng::from_str(text).unwrap());
    BundleInput {
        spec: BundleSpec {
            package: "sample-operator".into(),
            channels: vec!["alpha".into(), "stable".into()],
            default_channel: Some("stable".into()),
        },
        csv: m("csv.yaml", &csv),
        objects: vec![m("crd.yaml", crd), m("svc.yaml", svc)],
        metadata: Default::default(),
    }
}

/// The folder and image of [`input`] at epoch 0.
pub fn image(version: &str) -> (BundleFolder, OciImage) {
    let folder = BundleFolder::build(&input(version)).unwrap();
    let image = build_image(&folder, 0).unwrap();
    (folder, image)
}

/// The folder's image files as (path, bytes).
#[allow(dead_code)] // for the OCI crate's tests and the application's
pub fn folder_files(folder: &BundleFolder) -> Vec<(String, Vec<u8>)> {
    folder
        .files()
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}
