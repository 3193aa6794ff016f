//! OLM v1's reasons to refuse a bundle, in its words (operator-controller's validators, its
//! manifest provider's gates and its resolver's dependency check), and the generated names a
//! change to a permission must change.

use std::collections::BTreeMap;

use olm_release_olm::cluster::{self, CertProvider, InstallError, Options, RegistryV1};

use super::common::bundle_files;

fn fixture(name: &str) -> BTreeMap<String, Vec<u8>> {
    bundle_files(
        &std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures/install/bundles")
            .join(name),
    )
}

/// The fixture with `from` replaced by `to` in its CSV.
fn edited(name: &str, from: &str, to: &str) -> RegistryV1 {
    let mut files = fixture(name);
    let csv = files
        .iter_mut()
        .find(|(k, _)| k.ends_with(".clusterserviceversion.yaml"))
        .unwrap()
        .1;
    let text = String::from_utf8(csv.clone()).unwrap();
    assert!(text.contains(from), "{from} is in the CSV");
    *csv = text.replace(from, to).into_bytes();
    RegistryV1::from_files(&files).unwrap()
}

fn opts(ns: &str, watch: Option<&str>) -> Options {
    Options {
        install_namespace: ns.into(),
        watch_namespace: watch.map(String::from),
        deployment_config: None,
        cert_provider: Some(CertProvider::CertManager),
    }
}

fn refusal(b: &RegistryV1, o: &Options) -> String {
    match cluster::render(b, o) {
        Err(InstallError::Refused(r)) => r.join("\n"),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn a_bundle_without_all_namespaces_needs_a_watch_namespace() {
    let b = RegistryV1::from_files(&fixture("scoped-mini.v0.2.0")).unwrap();
    let gates = cluster::install_refusals(&b, &opts("scoped-system", None));
    assert_eq!(
        gates,
        ["unsupported bundle: bundle does not support AllNamespaces install mode"]
    );
    assert!(cluster::install_refusals(&b, &opts("scoped-system", Some("team-a"))).is_empty());
    assert_eq!(
        refusal(&b, &opts("scoped-system", None)),
        "invalid option(s): invalid target namespaces []: exactly one target namespace must be specified"
    );
    assert_eq!(
        refusal(&b, &opts("scoped-system", Some(""))),
        "invalid option(s): invalid target namespaces []: supported install modes [OwnNamespace SingleNamespace] do not support targeting all namespaces"
    );
}

#[test]
fn own_namespace_needs_the_own_namespace_mode() {
    let b = edited(
        "scoped-mini.v0.2.0",
        "{type: OwnNamespace, supported: true}",
        "{type: OwnNamespace, supported: false}",
    );
    assert_eq!(
        refusal(&b, &opts("scoped-system", Some("scoped-system"))),
        "invalid option(s): invalid target namespaces [scoped-system]: supported install modes [SingleNamespace] do not support targeting own namespace"
    );
}

#[test]
fn conversion_webhooks_need_all_namespaces_only() {
    let b = edited(
        "webhook-mini.v0.1.0",
        "{type: OwnNamespace, supported: false}",
        "{type: OwnNamespace, supported: true}",
    );
    assert_eq!(
        refusal(&b, &opts("mini-system", None)),
        "bundle contains conversion webhook \"cgadget.mini.example.com\" and supports install modes [AllNamespaces OwnNamespace] - conversion webhooks are only supported for bundles that only support AllNamespaces install mode"
    );
}

#[test]
fn webhook_names_and_deployments_are_checked() {
    let b = edited(
        "webhook-mini.v0.1.0",
        "generateName: mgadget.mini.example.com",
        "generateName: mgadget.mini.example.com-",
    );
    assert!(refusal(&b, &opts("mini-system", None)).starts_with(
        "webhook of type 'MutatingAdmissionWebhook' has invalid name 'mgadget.mini.example.com-': a lowercase RFC 1123 subdomain"
    ));
    let b = edited(
        "webhook-mini.v0.1.0",
        "generateName: vgadget.mini.example.com\n    deploymentName: mini.manager",
        "generateName: vgadget.mini.example.com\n    deploymentName: gone",
    );
    assert_eq!(
        refusal(&b, &opts("mini-system", None)),
        "webhook of type 'ValidatingAdmissionWebhook' with name 'vgadget.mini.example.com' references non-existent deployment 'gone'"
    );
}

#[test]
fn webhooks_need_a_certificate_provider_and_api_services_are_refused() {
    let b = RegistryV1::from_files(&fixture("webhook-mini.v0.1.0")).unwrap();
    let mut o = opts("mini-system", None);
    o.cert_provider = None;
    assert_eq!(
        cluster::install_refusals(&b, &o),
        ["unsupported bundle: webhookDefinitions are not supported: certificate provider is nil"]
    );
    let b = edited(
        "webhook-mini.v0.1.0",
        "  webhookdefinitions:",
        "  apiservicedefinitions:\n    owned:\n    - {group: mini.example.com, version: v1, kind: Gizmo, name: gizmos, deploymentName: mini.manager}\n  webhookdefinitions:",
    );
    assert_eq!(
        cluster::install_refusals(&b, &opts("mini-system", None)),
        ["unsupported bundle: apiServiceDefintions are not supported"]
    );
}

#[test]
fn dependencies_are_refused_in_the_resolvers_words() {
    let mut files = fixture("webhook-mini.v0.1.0");
    files.insert(
        "metadata/dependencies.yaml".into(),
        b"dependencies:\n- type: olm.package\n  value: {packageName: etcd, version: '>0.9.0'}\n"
            .to_vec(),
    );
    let b = RegistryV1::from_files(&files).unwrap();
    assert_eq!(
        cluster::install_refusals(&b, &opts("mini-system", None)),
        [
            "bundle \"webhook-mini.v0.1.0\" has a dependency declared via property \"olm.package.required\" which is currently not supported (declared in metadata/dependencies.yaml)"
        ]
    );
}

#[test]
fn a_changed_permission_changes_the_generated_name() {
    let name_of = |b: &RegistryV1| -> Vec<String> {
        cluster::render(b, &opts("mini-system", None))
            .unwrap()
            .iter()
            .filter(|o| o["kind"] == "ClusterRole")
            .map(|o| o["metadata"]["name"].as_str().unwrap().to_string())
            .collect()
    };
    let before = name_of(&RegistryV1::from_files(&fixture("webhook-mini.v0.1.0")).unwrap());
    let after = name_of(&edited(
        "webhook-mini.v0.1.0",
        "verbs: [get, list, watch, update, patch]",
        "verbs: [get, list, watch, update]",
    ));
    assert_eq!(before.len(), after.len());
    assert_ne!(before, after);
    assert!(after.iter().all(|n| n.len() <= 63));
}
