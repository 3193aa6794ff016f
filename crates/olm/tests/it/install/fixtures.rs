//! This repository's fixtures in the goldens' shapes (`fixtures/install/bundles/<bundle>` and
//! `fixtures/install/expected-manifests/<bundle>/<case>/NN_<kind>_<name>.yaml`): a bundle with
//! validating, mutating and conversion webhooks under both certificate providers, and an
//! Own/SingleNamespace bundle with a webhook, the `default` account and a deployment
//! configuration. They run everywhere, so CI exercises the rendering without the snapshot of
//! operator-controller; their expected objects were checked against operator-controller's rules
//! (generated names, certificate volumes, provider annotations, namespace selectors).

use std::path::PathBuf;

use olm_release_olm::cluster::{CertProvider, DeploymentConfig, Options};

use super::common::compare;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/install")
}

/// One case: bundle, case, install namespace, watch namespace, provider, deployment
/// configuration file.
type Case = (
    &'static str,
    &'static str,
    &'static str,
    Option<&'static str>,
    CertProvider,
    Option<&'static str>,
);

const CASES: &[Case] = &[
    (
        "webhook-mini.v0.1.0",
        "cert-manager",
        "mini-system",
        None,
        CertProvider::CertManager,
        None,
    ),
    (
        "webhook-mini.v0.1.0",
        "openshift-service-ca",
        "mini-system",
        None,
        CertProvider::OpenshiftServiceCa,
        None,
    ),
    (
        "scoped-mini.v0.2.0",
        "own-namespace",
        "scoped-system",
        Some("scoped-system"),
        CertProvider::CertManager,
        None,
    ),
    (
        "scoped-mini.v0.2.0",
        "single-namespace",
        "scoped-system",
        Some("team-a"),
        CertProvider::OpenshiftServiceCa,
        Some("scoped-deployment-config.yaml"),
    ),
];

#[test]
fn the_fixtures_render_as_expected() {
    let mut diffs = Vec::new();
    for (bundle, case, install, watch, provider, config) in CASES {
        let deployment_config = config.map(|f| {
            DeploymentConfig::parse(&std::fs::read_to_string(root().join(f)).unwrap()).unwrap()
        });
        let opts = Options {
            install_namespace: install.to_string(),
            watch_namespace: watch.map(String::from),
            deployment_config,
            cert_provider: Some(*provider),
        };
        diffs.extend(compare(
            &root().join("bundles").join(bundle),
            &root().join("expected-manifests").join(bundle).join(case),
            &opts,
        ));
    }
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
}
