//! The objects OLM installs from a bundle besides the CSV and CRDs: render hands
//! them on as parsed manifests, and the bundle-image stage carries them in `manifests/`, with
//! the same content and a reproducible digest. `fixtures/widget-operator` has a ClusterRole
//! and a ConfigMap in every version folder.

use std::collections::BTreeMap;

use olm_release::PipelineArgs;
use serde_yaml_ng::Value;

use crate::operator_sdk::work;
use crate::support::{Work, assert_code, layout_digest, root, stderr};

const EPOCH: (&str, &str) = ("SOURCE_DATE_EPOCH", "1570449600");
const LAYOUT: &str = "_out/oci/widget-operator-bundle";

/// `pipelines/widget.yaml` with the bundle-image stage into an `oci:` layout in the work folder.
fn with_bundle_image(w: &Work) -> String {
    let text = std::fs::read_to_string(w.path().join("pipelines/widget.yaml")).unwrap();
    let from = "stages: [render, fetch-previous, package, verify, push]";
    assert!(text.contains(from), "pipelines/widget.yaml changed shape");
    let text = text.replace(
        from,
        &format!(
            "bundle_image:\n  target: oci:{LAYOUT}\n  image: quay.io/example/widget-operator-bundle\n\
             stages: [render, fetch-previous, package, verify, bundle-image]"
        ),
    );
    let file = "pipelines/widget-image.yaml";
    std::fs::write(w.path().join(file), text).unwrap();
    file.into()
}

fn yaml(bytes: &[u8]) -> Value {
    serde_yaml_ng::from_slice(bytes).unwrap()
}

#[test]
fn the_bundle_image_carries_the_bundle_folders_clusterrole_and_configmap() {
    let w = work();
    let pipeline = with_bundle_image(&w);
    let release = || {
        let o = w.run(&["run", &pipeline, "--var", "VERSION=0.1.0"], &[EPOCH]);
        assert_code(&o, 0);
        stderr(&o)
    };
    let log = release();
    assert!(log.contains("the bundle-image stage carries them"), "{log}");
    let layout = w.path().join(LAYOUT);
    let digest = layout_digest(&layout, "0.1.0");

    // Read back by an independent reader: the image's root holds the objects as the fixture has them.
    let files: BTreeMap<String, Vec<u8>> = crate::oci::umoci_unpack(&layout, "0.1.0")
        .into_iter()
        .collect();
    let fixture = root().join("fixtures/widget-operator/0.1.0");
    for (path, source) in [
        // The bundle folder's own file names (as opm reads the folder).
        (
            "manifests/widget-operator.clusterrole.yaml",
            "widget-operator.clusterrole.yaml",
        ),
        (
            "manifests/widget-config.configmap.yaml",
            "widget-config.configmap.yaml",
        ),
    ] {
        let got = files
            .get(path)
            .unwrap_or_else(|| panic!("no {path} in {:?}", files.keys()));
        assert_eq!(
            yaml(got),
            yaml(&std::fs::read(fixture.join(source)).unwrap()),
            "{path}"
        );
    }
    assert!(
        files.contains_key("manifests/widget-operator.v0.1.0.clusterserviceversion.yaml"),
        "{:?}",
        files.keys()
    );
    let manifests = files.keys().filter(|k| k.starts_with("manifests/")).count();
    assert_eq!(
        manifests,
        4,
        "CSV, CRD, ClusterRole, ConfigMap: {:?}",
        files.keys()
    );

    // A rerun pushes nothing; a run from scratch builds the same digest.
    let again = release();
    assert!(again.contains("unchanged: bundle image"), "{again}");
    assert_eq!(layout_digest(&layout, "0.1.0"), digest);
    std::fs::remove_dir_all(w.path().join("_out")).unwrap();
    release();
    assert_eq!(layout_digest(&layout, "0.1.0"), digest);
}

#[test]
fn a_dependencies_file_of_the_bundle_folder_is_the_images_metadata_dependencies() {
    let w = work();
    let pipeline = with_bundle_image(&w);
    let text = "dependencies:\n- type: olm.package\n  value:\n    packageName: cert-manager\n    version: '>=1.0.0'\n";
    std::fs::write(
        w.path()
            .join("fixtures/widget-operator/0.1.0/dependencies.yaml"),
        text,
    )
    .unwrap();
    let o = w.run(&["run", &pipeline, "--var", "VERSION=0.1.0"], &[EPOCH]);
    assert_code(&o, 0);
    let folder = w.path().join("_out/widget-release/bundle-image");
    let written = std::fs::read(folder.join("metadata/dependencies.yaml"))
        .unwrap_or_else(|e| panic!("{e}: {:?}", crate::support::list_files(&folder)));
    assert_eq!(yaml(&written), yaml(text.as_bytes()));
    assert!(
        !crate::support::list_files(&folder.join("manifests"))
            .iter()
            .any(|f| f.contains("dependencies")),
        "not an object of manifests/"
    );
}

#[test]
fn render_hands_on_the_bundle_folders_objects_parsed_in_the_order_read() {
    let w = work();
    let out = w.path().join("_out");
    let args = PipelineArgs {
        pipeline: w.path().join("pipelines/widget.yaml"),
        variant: None,
        vars: vec![("VERSION".into(), "0.2.0".into())],
        source: w.path().to_path_buf(),
        out: Some(out.clone()),
        insecure: false,
    };
    let env = BTreeMap::from([(EPOCH.0.to_string(), EPOCH.1.to_string())]);
    let rendered = olm_release::render(&args, &env, &out.join("render")).unwrap();
    let seen: Vec<(&str, Option<&str>, Option<&str>)> = rendered
        .objects
        .iter()
        .map(|m| (m.file.as_str(), m.kind(), m.name()))
        .collect();
    assert_eq!(
        seen,
        [
            (
                "widget-config.configmap.yaml",
                Some("ConfigMap"),
                Some("widget-config")
            ),
            (
                "widget-operator.clusterrole.yaml",
                Some("ClusterRole"),
                Some("widget-viewer")
            ),
        ]
    );
    let fixture = root().join("fixtures/widget-operator/0.2.0/widget-config.configmap.yaml");
    assert_eq!(
        rendered.objects[0].doc,
        yaml(&std::fs::read(fixture).unwrap())
    );
}
