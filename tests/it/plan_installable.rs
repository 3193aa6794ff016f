//! `plan` says whether OLM v0 and OLM v1 will install the release before anything runs: the
//! pipeline's bundle is rendered in memory and checked as the verify step checks it, and the
//! verdict is the one the run's summary gives after verify. A bundle OLM v1 refuses is named
//! with OLM v1's reason, a bundle verify refuses with verify's, a render that fails is a
//! warning (the plan is still shown), and `plan` writes nothing.

use crate::support::{Work, assert_code, stderr, stdout};

const EPOCH: (&str, &str) = ("SOURCE_DATE_EPOCH", "1570449600");
const CSV: &str =
    "fixtures/sample-operator/olm/bundle/sample-operator.vVERSION.clusterserviceversion.yaml.in";

fn edit(w: &Work, rel: &str, from: &str, to: &str) {
    let path = w.path().join(rel);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{rel} holds no {from:?}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

/// The sample without the AllNamespaces install mode, which OLM v1 requires.
fn own_namespace_only() -> Work {
    let w = Work::sample();
    edit(
        &w,
        CSV,
        "    - type: AllNamespaces\n      supported: true",
        "    - type: AllNamespaces\n      supported: false",
    );
    w
}

#[test]
fn plan_says_both_install_the_sample_and_writes_nothing() {
    let w = Work::sample();
    let out = w.run(&["plan", "pipelines/sample.yaml"], &[EPOCH]);
    assert_code(&out, 0);
    let text = stdout(&out);
    assert!(
        text.ends_with("Installable (the bundle rendered now, checked as verify will check it):\n  OLM v0: yes\n  OLM v1: yes\n"),
        "{text}"
    );
    assert!(!w.path().join("_out").exists(), "plan wrote _out");
}

/// `plan --format json`'s verdict, after checking that the run's summary gives the same one
/// (the run exits `run_code`: 1 when verify refuses the bundle).
fn planned_as_run(w: &Work, run_code: i32) -> serde_json::Value {
    let plan = w.run(
        &["--format", "json", "plan", "pipelines/sample.yaml"],
        &[EPOCH],
    );
    assert_code(&plan, 0);
    let planned: serde_json::Value = serde_json::from_str(&stdout(&plan)).unwrap();
    let run = w.run(
        &[
            "--format",
            "json",
            "run",
            "pipelines/sample.yaml",
            "--dry-run",
        ],
        &[EPOCH],
    );
    assert_code(&run, run_code);
    let summary: serde_json::Value = serde_json::from_str(&stdout(&run)).unwrap();
    assert_eq!(summary["installable"], planned["installable"], "{summary}");
    planned["installable"].clone()
}

#[test]
fn plan_names_olm_v1s_reason_and_the_run_agrees() {
    let w = own_namespace_only();
    let verdict = planned_as_run(&w, 0);
    let v1 = &verdict["olm_v1"];
    assert_eq!(v1["installs"], false, "{verdict}");
    let reason = v1["reasons"][0].as_str().unwrap();
    assert!(reason.contains("AllNamespaces"), "{reason}");
    assert_eq!(verdict["olm_v0"]["installs"], true, "{verdict}");
    let text = stdout(&w.run(&["plan", "pipelines/sample.yaml"], &[EPOCH]));
    assert!(text.contains(&format!("  OLM v1: no: {reason}")), "{text}");
}

#[test]
fn plan_names_verifys_errors_as_olm_v0s_reasons_and_the_run_agrees() {
    let w = Work::sample();
    // A Deployment naming a ServiceAccount the CSV grants nothing to and the bundle lacks.
    edit(
        &w,
        "fixtures/sample-operator/deploy/operator.yaml.in",
        "serviceAccountName: sample-operator",
        "serviceAccountName: nobody-creates-this",
    );
    // The run stops at verify (exit 1), with the same verdict in its summary.
    let verdict = planned_as_run(&w, 1);
    let v0 = &verdict["olm_v0"];
    assert_eq!(v0["installs"], false, "{verdict}");
    let reason = v0["reasons"][0].as_str().unwrap();
    assert!(reason.contains("nobody-creates-this"), "{reason}");
    // The pod does not start under OLM v1 either.
    assert_eq!(verdict["olm_v1"]["installs"], false, "{verdict}");
    assert_eq!(
        verdict["olm_v1"]["reasons"][0], v0["reasons"][0],
        "{verdict}"
    );
}

#[test]
fn a_render_that_fails_is_a_warning_and_the_plan_is_still_shown() {
    let w = Work::sample();
    edit(&w, CSV, "  installModes:", "  installModes: {{ .Nope }\n");
    let out = w.run(&["plan", "pipelines/sample.yaml"], &[EPOCH]);
    assert_code(&out, 0);
    let err = stderr(&out);
    assert!(
        err.contains(
            "warning: cannot say whether OLM v0 and OLM v1 install the release: render fails:"
        ),
        "{err}"
    );
    assert!(err.contains("clusterserviceversion.yaml.in"), "{err}");
    let text = stdout(&out);
    assert!(text.contains("  4. verify\n"), "{text}");
    assert!(
        text.ends_with("Installable: unknown (render fails; see the warning)\n"),
        "{text}"
    );
}

#[test]
fn an_image_that_is_no_reference_stops_the_pod_under_both() {
    let w = Work::sample();
    // A variable meant for envsubst, which OLM never replaces.
    edit(
        &w,
        "fixtures/sample-operator/deploy/operator.yaml.in",
        "image: quay.io/example/sample-operator:{{.DockerTag}}",
        "image: $SAMPLE_OPERATOR_IMAGE",
    );
    let verdict = planned_as_run(&w, 1);
    for olm in ["olm_v0", "olm_v1"] {
        let v = &verdict[olm];
        assert_eq!(v["installs"], false, "{verdict}");
        let reason = v["reasons"][0].as_str().unwrap();
        assert!(
            reason.starts_with(
                "deployment-image: \"$SAMPLE_OPERATOR_IMAGE\" is not an image reference"
            ),
            "{reason}"
        );
    }
}
