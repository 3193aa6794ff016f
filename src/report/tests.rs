//! The reporter's own tests: folding per CI, a failure's record, and the job summary's sections
//! on what the cluster gets.

use crate::error::Error;
use crate::report::{Fold, Reporter, Verbosity};

#[test]
fn fold_follows_the_ci_provider() {
    assert_eq!(Fold::for_provider(Some("travis")), Fold::Travis);
    assert_eq!(
        Fold::for_provider(Some("github-actions")),
        Fold::GitHubActions
    );
    assert_eq!(Fold::for_provider(None), Fold::None);
}

#[test]
fn a_failure_is_recorded_with_its_class_and_problems() {
    let r = Reporter::new(Verbosity::Quiet, true);
    let e: Error = crate::error::Problems(vec![crate::error::Problem::new("x:1", "bad")]).into();
    r.fail(&e);
    let s = r.summary();
    assert_eq!((s.outcome, s.exit_code), ("failed", 2));
    assert_eq!(s.error.unwrap().problems.len(), 1);
}

#[test]
fn the_job_summary_shows_who_installs_what_changes_and_the_olm_v1_objects() {
    use crate::report::summary::{ClusterDiff, OlmV1Install};
    use olm_release_olm::cluster::{CrdVersionChange, Installable, UpgradeDiff, Verdict};
    let verdict = |reasons: Vec<String>| Verdict {
        installs: reasons.is_empty(),
        reasons,
        notes: Vec::new(),
    };
    let s = crate::report::summary::Summary {
        installable: Some(Installable {
            olm_v0: verdict(Vec::new()),
            olm_v1: verdict(vec!["unsupported bundle: a | b".into()]),
        }),
        cluster_diff: Some(ClusterDiff {
            from: "op.v1.0.0 (release 1.0.0)".into(),
            without: None,
            diff: UpgradeDiff {
                added: vec!["Service ns/op-metrics".into()],
                crd_versions: vec![CrdVersionChange {
                    crd: "widgets.example.com".into(),
                    version: "v2".into(),
                    change: "added",
                }],
                ..UpgradeDiff::default()
            },
        }),
        olm_v1_install: Some(OlmV1Install {
            cluster_catalog: serde_json::json!({"kind": "ClusterCatalog"}),
            cluster_extension: serde_json::json!({"kind": "ClusterExtension"}),
        }),
        ..crate::report::summary::Summary::default()
    };
    let md = crate::report::github::step_summary(&s, None);
    for needle in [
        "| OLM v0 | yes |",
        "| OLM v1 | no: unsupported bundle: a \\| b |",
        "What changes in the cluster from op.v1.0.0 (release 1.0.0):",
        "  + Service ns/op-metrics\n",
        "  CRD widgets.example.com version v2: added\n",
        "```yaml\nkind: ClusterCatalog\n---\nkind: ClusterExtension\n```",
    ] {
        assert!(md.contains(needle), "missing {needle:?} in\n{md}");
    }
}
