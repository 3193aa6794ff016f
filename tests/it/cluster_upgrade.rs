//! What the cluster gets, in a pipeline run: the summary says whether OLM v0 and OLM v1 install
//! the release; a dry-run of the next release shows what changes in the cluster against the
//! channel head (from the install renderings of both), and refuses a release that stops listing
//! a CRD version the head serves unless `verify.allow_removed_crd_versions` says so (an app
//! registry's bundle then still fails verify: it carries the head's CSV, which owns the
//! version, and OLM v0 is said not to install it, with that reason).

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
