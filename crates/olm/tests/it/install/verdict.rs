//! Whether OLM v0 and OLM v1 install a release ([`cluster::installable`]): the webhook fixture
//! installs under both (OLM v1 with a note on cert-manager), the SingleNamespace fixture only
//! under OLM v0, with OLM v1's own reason; verify's errors are OLM v0's reasons.

use std::path::PathBuf;

use olm_release_olm::cluster::{self, RegistryV1};

use super::common::bundle_files;

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
fn verify_s_errors_are_olm_v0_s_reasons() {
    let errors = ["deployment-references: Secret x is missing".to_string()];
    let v = cluster::installable(&bundle("webhook-mini.v0.1.0"), &errors);
    assert!(!v.olm_v0.installs);
    assert_eq!(
        v.olm_v0.to_line(),
        "no: deployment-references: Secret x is missing"
    );
}

#[test]
fn olm_v0_names_three_errors_and_counts_the_rest() {
    let errors: Vec<String> = (1..=5).map(|i| format!("error {i}")).collect();
    let v = cluster::installable(&bundle("webhook-mini.v0.1.0"), &errors);
    assert_eq!(
        v.olm_v0.reasons,
        ["error 1", "error 2", "error 3", "and 2 more"]
    );
}
