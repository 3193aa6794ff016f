//! Whether OLM v0 and OLM v1 install a release ([`cluster::installable`]): the webhook fixture
//! installs under both (OLM v1 with a note on cert-manager), the SingleNamespace fixture only
//! under OLM v0, with OLM v1's own reason; verify's errors are OLM v0's reasons, and those about
//! the objects either OLM creates are OLM v1's too.

use std::path::PathBuf;

use olm_release_olm::cluster::{self, RegistryV1};
use olm_release_olm::{Finding, Level};

use super::common::bundle_files;

fn error(rule: &str, message: &str) -> Finding {
    Finding {
        level: Level::Error,
        rule: rule.into(),
        mirrors: "olm-release".into(),
        file: "x.yaml".into(),
        object: "x".into(),
        field: String::new(),
        message: message.into(),
        fix: String::new(),
        accepted: None,
    }
}

fn bundle(name: &str) -> RegistryV1 {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/install/bundles")
        .join(name);
    RegistryV1::from_files(&bundle_files(&dir)).unwrap()
}

#[test]
fn a_webhook_bundle_installs_under_both_with_a_note_for_olm_v1() {
    let v = cluster::installable(&bundle("webhook-mini.v0.1.0"), &[]);
    assert_eq!(v.olm_v0.to_line(), "yes");
    assert!(v.olm_v1.installs, "{v:?}");
    assert_eq!(
        v.olm_v1.to_line(),
        "yes (its webhooks need cert-manager (or OpenShift's service CA) on the cluster)"
    );
}

#[test]
fn a_single_namespace_bundle_is_refused_by_olm_v1_in_its_words() {
    let v = cluster::installable(&bundle("scoped-mini.v0.2.0"), &[]);
    assert!(v.olm_v0.installs);
    assert!(!v.olm_v1.installs);
    assert!(
        v.olm_v1.reasons.contains(
            &"unsupported bundle: bundle does not support AllNamespaces install mode".to_string()
        ),
        "{:?}",
        v.olm_v1.reasons
    );
    assert!(
        v.olm_v1.to_line().starts_with("no: "),
        "{}",
        v.olm_v1.to_line()
    );
}

#[test]
fn verify_s_errors_are_olm_v0_s_reasons_and_those_about_the_cluster_olm_v1_s() {
    let missing = error("deployment-references", "Secret x is missing");
    let csv = error("csv-version", "is not SemVer");
    let v = cluster::installable(&bundle("webhook-mini.v0.1.0"), &[&missing, &csv]);
    assert!(!v.olm_v0.installs);
    assert_eq!(
        v.olm_v0.to_line(),
        "no: deployment-references: Secret x is missing; csv-version: is not SemVer"
    );
    // A pod that never starts does not start under OLM v1 either; the CSV's own field is OLM
    // v0's to refuse (OLM v1 reads what its validators check).
    assert_eq!(
        v.olm_v1.to_line(),
        "no: deployment-references: Secret x is missing"
    );
}

#[test]
fn olm_v0_names_three_errors_and_counts_the_rest() {
    let errors: Vec<Finding> = (1..=5)
        .map(|i| error("csv-version", &format!("error {i}")))
        .collect();
    let refs: Vec<&Finding> = errors.iter().collect();
    let v = cluster::installable(&bundle("webhook-mini.v0.1.0"), &refs);
    assert_eq!(
        v.olm_v0.reasons,
        [
            "csv-version: error 1",
            "csv-version: error 2",
            "csv-version: error 3",
            "and 2 more"
        ]
    );
    assert!(v.olm_v1.installs, "{v:?}");
    // OLM v1's reasons are capped the same way.
    let pods: Vec<Finding> = (1..=5)
        .map(|i| error("deployment-references", &format!("Secret s{i} is missing")))
        .collect();
    let refs: Vec<&Finding> = pods.iter().collect();
    let v = cluster::installable(&bundle("webhook-mini.v0.1.0"), &refs);
    assert_eq!(v.olm_v1.reasons.len(), 4, "{v:?}");
    assert_eq!(v.olm_v1.reasons[3], "and 2 more");
}
