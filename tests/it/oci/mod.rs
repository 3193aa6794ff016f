//! The bundle image and its publishing: reproducible bytes, the real distribution registry
//! (scripts/peers/oci-registry.sh) with skopeo and umoci as independent readers, the
//! `oci:PATH` layout, and an in-process fake for the Bearer token flow and read-back faults.

mod bearer;
mod build;
pub mod fake;
mod kubevirt;
mod layout;
mod layout_checks;
mod real_registry;
mod rules;
mod split;

use std::sync::Mutex;

use olm_release_oci::{Event, Events};
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

/// A repository name no other test uses (the real registry is shared by the whole run).
pub fn repo(test: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!("olm-test/{test}-{}-{nanos}", std::process::id())
}

/// Records every event.
#[derive(Default)]
pub struct Recorder(pub Mutex<Vec<Event>>);

impl Events for Recorder {
    fn event(&self, e: Event) {
        self.0.lock().unwrap().push(e);
    }
}

impl Recorder {
    pub fn take(&self) -> Vec<Event> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

/// Runs a command, panicking with its output when it fails; returns stdout.
pub fn run(cmd: &mut std::process::Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `umoci unpack --rootless` of `layout:tag` into a fresh folder; the unpacked root files,
/// relative and sorted, with their bytes.
pub fn umoci_unpack(layout: &std::path::Path, tag: &str) -> Vec<(String, Vec<u8>)> {
    let out = tempfile::tempdir().unwrap();
    let bundle = out.path().join("bundle");
    run(std::process::Command::new("umoci")
        .args(["unpack", "--rootless", "--image"])
        .arg(format!("{}:{tag}", layout.display()))
        .arg(&bundle));
    let rootfs = bundle.join("rootfs");
    crate::support::list_files(&rootfs)
        .into_iter()
        .map(|f| {
            let bytes = std::fs::read(rootfs.join(&f)).unwrap();
            (f, bytes)
        })
        .collect()
}

/// The folder's image files as (path, bytes).
pub fn folder_files(folder: &BundleFolder) -> Vec<(String, Vec<u8>)> {
    folder
        .files()
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}
