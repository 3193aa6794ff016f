//! What the cluster gets, in a pipeline run: the summary says whether OLM v0 and OLM v1 install
//! the release; a dry-run of the next release shows what changes in the cluster against the
//! channel head (from the install renderings of both), and refuses a release that stops listing
//! a CRD version the head serves unless `verify.allow_removed_crd_versions` says so (an app
//! registry's bundle then still fails verify: it carries the head's CSV, which owns the
//! version, and OLM v0 is said not to install it, with that reason). A release that publishes
//! a catalog image prints the ClusterCatalog and ClusterExtension that install it, and attaches
//! them as `{olm-v1}`.

use crate::support::{Work, assert_code, stderr, stdout};

const EPOCH: (&str, &str) = ("SOURCE_DATE_EPOCH", "1570449600");

/// The sample released at 0.1.0, then its CRD version renamed v1alpha1 → v1beta1.
fn released_then_renamed() -> Work {
    let w = Work::sample();
    let first = w.run(
        &["--format", "json", "run", "pipelines/sample.yaml"],
        &[EPOCH],
    );
    assert_code(&first, 0);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&first)).unwrap();
    assert_eq!(doc["installable"]["olm_v0"]["installs"], true, "{doc}");
    assert_eq!(doc["installable"]["olm_v1"]["installs"], true, "{doc}");
    crate::output::assert_summary(&doc);
    let bundle = w.path().join("fixtures/sample-operator/olm/bundle");
    for e in std::fs::read_dir(&bundle).unwrap() {
        let path = e.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace("v1alpha1", "v1beta1")).unwrap();
    }
    w
}

#[test]
fn a_removed_served_crd_version_is_refused_with_the_version_and_the_fix() {
    let w = released_then_renamed();
    let dry = w.run(
        &[
            "run",
            "pipelines/sample.yaml",
            "--var",
            "VERSION=0.2.0",
            "--dry-run",
        ],
        &[EPOCH],
    );
    assert_code(&dry, 1);
    let err = stderr(&dry);
    for needle in [
        "what changes in the cluster from sample-operator.v0.1.0 (release 0.1.0), as OLM v1 installs both",
        "CRD samples.example.com version v1alpha1: removed (was served",
        "CRD samples.example.com version v1beta1: added",
        "image: Deployment sample-operator container sample-operator",
        "error: stage fetch-previous: CRD samples.example.com version v1alpha1: the channel head sample-operator.v0.1.0 (release 0.1.0) serves it",
        "verify.allow_removed_crd_versions: true",
    ] {
        assert!(err.contains(needle), "missing {needle:?} in\n{err}");
    }
}

#[test]
fn the_pipeline_may_allow_it_and_the_summary_keeps_the_cluster_diff() {
    let w = released_then_renamed();
    let pipeline = w.path().join("pipelines/sample.yaml");
    let text = std::fs::read_to_string(&pipeline).unwrap();
    std::fs::write(
        &pipeline,
        format!("{text}verify:\n  allow_removed_crd_versions: true\n"),
    )
    .unwrap();
    let dry = w.run(
        &[
            "--format",
            "json",
            "run",
            "pipelines/sample.yaml",
            "--var",
            "VERSION=0.2.0",
            "--dry-run",
        ],
        &[EPOCH],
    );
    assert_code(&dry, 1);
    assert!(
        stderr(&dry).contains("warning: CRD samples.example.com version v1alpha1 removed though the channel head serves it"),
        "{}",
        stderr(&dry)
    );
    let doc: serde_json::Value = serde_json::from_str(&stdout(&dry)).unwrap();
    crate::output::assert_summary(&doc);
    let changes = &doc["cluster_diff"]["diff"]["crd_versions"];
    assert_eq!(changes[0]["version"], "v1alpha1", "{doc}");
    assert_eq!(changes[0]["change"], "removed", "{doc}");
    assert!(
        doc["cluster_diff"]["without"]
            .as_str()
            .unwrap()
            .contains("app registry")
    );
    // Fetch-previous let it through; verify refuses the head's carried CSV.
    assert_eq!(doc["stages"][1]["status"], "ok", "{doc}");
    assert_eq!(doc["installable"]["olm_v0"]["installs"], false, "{doc}");
    let reason = doc["installable"]["olm_v0"]["reasons"][0].as_str().unwrap();
    assert!(reason.starts_with("crd-owned: "), "{reason}");
}

/// The catalog-only sample publishing a catalog image to an `oci:` layout, with a release
/// step attaching `{olm-v1}` to a folder.
fn catalog_image_pipeline(w: &Work) -> String {
    let base_dir = w.path().join("_out/opm-base");
    let (base, _) = crate::catalog_image::base_layout(&base_dir);
    let file = crate::catalog_git::pipeline(
        w,
        "image.yaml",
        "image:oci:_out/sample-catalog:latest",
        &format!("  base_image: oci:_out/opm-base@{base}\n"),
    );
    let path = w.path().join(&file);
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("catalog]\n", "catalog, release]\n");
    std::fs::write(
        &path,
        format!("{text}release:\n  target: dir:_out/release\n  tag: v${{VERSION:-0.1.0}}\n  assets: [\"{{olm-v1}}\"]\n"),
    )
    .unwrap();
    file
}

#[test]
fn a_catalog_image_release_prints_and_attaches_its_cluster_catalog_and_extension() {
    let w = Work::sample();
    let file = catalog_image_pipeline(&w);
    let out = w.run(&["--format", "json", "run", &file], &[EPOCH]);
    assert_code(&out, 0);
    let err = stderr(&out);
    assert!(err.contains("OLM v1 installs this release with:"), "{err}");
    assert!(err.contains("kind: ClusterCatalog"), "{err}");
    assert!(err.contains("push it to a registry"), "{err}");
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    crate::output::assert_summary(&doc);
    let install = &doc["olm_v1_install"];
    assert_eq!(
        install["cluster_catalog"]["metadata"]["name"],
        "sample-catalog"
    );
    assert_eq!(
        install["cluster_catalog"]["spec"]["source"]["image"]["ref"],
        "oci:./_out/sample-catalog:latest"
    );
    let catalog = &install["cluster_extension"]["spec"]["source"]["catalog"];
    assert_eq!(catalog["packageName"], "sample-operator");
    assert_eq!(catalog["channels"][0], "alpha");
    assert_eq!(catalog["version"], "0.1.0");
    let asset = std::fs::read_to_string(w.path().join("_out/release/v0.1.0/olm-v1-install.yaml"))
        .expect("attached");
    let docs: Vec<serde_yaml_ng::Value> = serde_yaml_ng::Deserializer::from_str(&asset)
        .map(|d| <serde_yaml_ng::Value as serde::Deserialize>::deserialize(d).unwrap())
        .collect();
    assert_eq!(docs.len(), 2);
    assert_eq!(docs[0]["kind"], "ClusterCatalog");
    assert_eq!(docs[1]["kind"], "ClusterExtension");
}

#[test]
fn olm_v1_assets_need_a_catalog_image() {
    let w = Work::sample();
    let path = w.path().join("pipelines/sample.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replace(
            "assets: [\"{csv}\", sample-operatorsource.yaml]",
            "assets: [\"{csv}\", \"{olm-v1}\"]",
        ),
    )
    .unwrap();
    let out = w.run(&["plan", "pipelines/sample.yaml"], &[]);
    assert_code(&out, 2);
    assert!(
        stderr(&out).contains("'{olm-v1}' attaches the ClusterCatalog and ClusterExtension"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_catalog_head_published_as_this_pipelines_bundle_image_is_compared_whole() {
    let w = Work::sample();
    let file = "pipelines/sample-catalog.yaml";
    assert_code(&w.run(&["run", file], &[EPOCH]), 0);
    let dry = w.run(
        &[
            "--format",
            "json",
            "run",
            file,
            "--var",
            "VERSION=0.2.0",
            "--dry-run",
        ],
        &[EPOCH],
    );
    assert_code(&dry, 0);
    let err = stderr(&dry);
    assert!(
        err.contains("what changes in the cluster from sample-operator.v0.1.0 (oci:./_out/catalog-only/oci/sample-operator-bundle@sha256:"),
        "{err}"
    );
    assert!(
        err.contains("image: Deployment sample-operator container sample-operator: quay.io/example/sample-operator:v0.1.0 -> quay.io/example/sample-operator:v0.2.0"),
        "{err}"
    );
    let doc: serde_json::Value = serde_json::from_str(&stdout(&dry)).unwrap();
    crate::output::assert_summary(&doc);
    assert_eq!(
        doc["cluster_diff"]["without"],
        serde_json::Value::Null,
        "{doc}"
    );
    assert_eq!(
        doc["cluster_diff"]["diff"]["images"]
            .as_array()
            .unwrap()
            .len(),
        1,
        "{doc}"
    );
}
