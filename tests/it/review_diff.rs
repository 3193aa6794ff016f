//! The dry-run's review of a release against the published head, compared as data: KubeVirt
//! v0.19.0 published, then v0.20.0 dry-run. A line diff of the two CSVs printed 462 lines, most
//! of them reordered keys; the semantic diff prints a one-screen summary and the field changes
//! by object (CSV, every CRD, the package file), with the canonical text diff under `-v` only.

use crate::kubevirt_chain::registry_only_pipeline;
use crate::support::{self, Work, assert_code, stderr, stdout};

/// Runs the KubeVirt pipeline for `tag` against the `dir:` registry under `work`.
fn kubevirt(work: &Work, tag: &str, extra: &[&str]) -> std::process::Output {
    let shared = support::shared().expect("checked by the caller");
    let pipeline = registry_only_pipeline(work);
    let source = shared.join("kubevirt").join(tag);
    let out = work.path().join("_out").join(tag);
    let registry = format!("dir:{}", work.path().join("registry").display());
    let mut args = vec![
        "run",
        pipeline.to_str().unwrap(),
        "--source",
        source.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let env = [
        ("TRAVIS_TAG", tag),
        ("REGISTRY_URL", registry.as_str()),
        ("QUAY_REPOSITORY", "kubevirt"),
        ("SOURCE_DATE_EPOCH", "1554422400"),
    ];
    work.run(&args, &env)
}

/// The review block of a dry-run's stderr: from its title to the end of fetch-previous.
fn review(err: &str) -> String {
    let start = err.find("changes from ").expect("a review block");
    let end = err[start..]
        .find("    fetch-previous ok")
        .map_or(err.len(), |i| start + i);
    err[start..end].to_string()
}

#[test]
fn kubevirt_v0_19_to_v0_20_is_reviewed_as_data() {
    if support::shared().is_none() {
        return;
    }
    let work = Work::sample();
    assert_code(&kubevirt(&work, "v0.19.0", &[]), 0);
    let dry = kubevirt(&work, "v0.20.0", &["--dry-run"]);
    assert_code(&dry, 0);
    let block = review(&stderr(&dry));
    // One screen, not 462 lines of reordered keys; no text diff without -v.
    assert!(block.lines().count() < 80, "{block}");
    assert!(!block.contains("@@ "), "{block}");
    for needle in [
        "version       0.19.0 → 0.20.0",
        "replaces      - → kubevirtoperator.0.19.0",
        "ClusterServiceVersion kubevirtoperator.0.20.0 (was kubevirtoperator.0.19.0):",
        "CustomResourceDefinition kubevirts.kubevirt.io:",
        "package kubevirt-operatorhub:",
    ] {
        assert!(block.contains(needle), "missing {needle:?} in\n{block}");
    }
    insta::with_settings!({prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("review_kubevirt_v0_19_to_v0_20", block);
    });

    // -v adds the canonical text diff; JSON carries the summary and the objects.
    let verbose = kubevirt(&work, "v0.20.0", &["--dry-run", "-v"]);
    assert_code(&verbose, 0);
    let err = stderr(&verbose);
    assert!(err.contains("text diff (keys sorted):"), "{err}");
    assert!(err.contains("@@ "), "{err}");
    let json = kubevirt(&work, "v0.20.0", &["--dry-run", "--format", "json"]);
    assert_code(&json, 0);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    crate::output::assert_summary(&doc);
    assert_eq!(doc["diff"]["summary"]["version"][1], "0.20.0");
    assert_eq!(doc["diff"]["objects"][0]["kind"], "ClusterServiceVersion");
}
