//! `verify`'s checks of what the cluster gets: the shapes a kubebuilder project's kustomize
//! output takes when bundled without its webhooks wired into the CSV
//! (`fixtures/install/unstartable/`) are refused, each finding naming the Deployment or CRD,
//! the reference and the fix; the wired fixtures pass them.

use std::path::PathBuf;

use olm_release_olm::Level;
use olm_release_olm::validate::{self, Options, Profile};

fn fixture(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/install")
        .join(path)
}

const OURS: [&str; 5] = [
    "deployment-references",
    "deployment-pull-secrets",
    "crd-conversion-webhook",
    "crd-conversion-schemas",
    "object-webhook-configuration",
];

fn findings(path: &str) -> Vec<(Level, String, String, String, String)> {
    let opts = Options {
        profile: Profile::Modern,
        ..Options::default()
    };
    let report = validate::verify_path(&fixture(path), &opts).expect("the fixture reads");
    let mut out: Vec<_> = report
        .findings
        .into_iter()
        .filter(|f| OURS.contains(&f.rule.as_str()))
        .map(|f| (f.level, f.rule, f.field, f.message, f.fix))
        .collect();
    out.sort_by(|a, b| (&a.1, &a.2).cmp(&(&b.1, &b.2)));
    out
}

#[test]
fn an_unwired_kubebuilder_bundle_is_refused_with_every_reason() {
    let got = findings("unstartable/kubebuilder-unwired.v0.1.0");
    let summary: Vec<(Level, &str, &str)> = got
        .iter()
        .map(|(l, r, f, _, _)| (*l, r.as_str(), f.as_str()))
        .collect();
    let pod = "spec.install.spec.deployments[unwired-controller-manager].spec.template.spec";
    assert_eq!(
        summary,
        [
            (
                Level::Warning,
                "crd-conversion-webhook",
                "spec.conversion.strategy"
            ),
            (
                Level::Warning,
                "deployment-pull-secrets",
                &*format!("{pod}.imagePullSecrets[0].name")
            ),
            (
                Level::Error,
                "deployment-references",
                &*format!("{pod}.containers[manager].envFrom[0].configMapRef.name")
            ),
            (
                Level::Error,
                "deployment-references",
                &*format!("{pod}.containers[manager].env[TOKEN].valueFrom.secretKeyRef.name")
            ),
            (
                Level::Error,
                "deployment-references",
                &*format!("{pod}.volumes[cert].secret.secretName")
            ),
            (Level::Error, "object-webhook-configuration", "kind"),
        ]
    );
    let cert = got
        .iter()
        .find(|f| f.2.ends_with("volumes[cert].secret.secretName"))
        .unwrap();
    assert!(
        cert.3
            .contains("Deployment unwired-controller-manager needs Secret webhook-server-cert"),
        "{}",
        cert.3
    );
    assert!(
        cert.4
            .contains("spec.webhookdefinitions with deploymentName unwired-controller-manager"),
        "{}",
        cert.4
    );
    assert!(
        cert.4.contains("unwired-controller-manager-service-cert"),
        "{}",
        cert.4
    );
    let crd = got
        .iter()
        .find(|f| f.1 == "crd-conversion-webhook")
        .unwrap();
    assert!(
        crd.3.contains(
            "CRD engines.unwired.example.com converts through a webhook (Service webhook-service)"
        ),
        "{}",
        crd.3
    );
}

#[test]
fn the_wired_fixtures_pass_these_checks() {
    for b in ["bundles/webhook-mini.v0.1.0", "bundles/scoped-mini.v0.2.0"] {
        assert_eq!(findings(b), [], "{b}");
    }
}

#[test]
fn different_schemas_without_a_webhook_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let src = fixture("unstartable/kubebuilder-unwired.v0.1.0");
    for sub in ["manifests", "metadata"] {
        std::fs::create_dir_all(tmp.path().join(sub)).unwrap();
        for e in std::fs::read_dir(src.join(sub)).unwrap() {
            let e = e.unwrap();
            let text = std::fs::read_to_string(e.path()).unwrap();
            std::fs::write(
                tmp.path().join(sub).join(e.file_name()),
                text.replace("strategy: Webhook", "strategy: None"),
            )
            .unwrap();
        }
    }
    let opts = Options {
        profile: Profile::Modern,
        ..Options::default()
    };
    let report = validate::verify_path(tmp.path(), &opts).unwrap();
    let f = report
        .findings
        .iter()
        .find(|f| f.rule == "crd-conversion-schemas")
        .expect("reported");
    assert_eq!(f.level, Level::Error);
    assert!(
        f.message.contains(
            "CRD engines.unwired.example.com serves versions v1, v2 with different schemas"
        ),
        "{}",
        f.message
    );
    assert!(f.fix.contains("ConversionWebhook"), "{}", f.fix);
    assert!(!report.is_valid(), "refused");
}

/// Findings of the `olm-v1-*` rules for a copy of a fixture with `from` replaced by `to` in
/// its CSV, under `profile`.
fn olm_v1_findings(
    fixture_path: &str,
    from: &str,
    to: &str,
    profile: Profile,
) -> Vec<(Level, String, String)> {
    let tmp = tempfile::tempdir().unwrap();
    let src = fixture(fixture_path);
    for sub in ["manifests", "metadata"] {
        std::fs::create_dir_all(tmp.path().join(sub)).unwrap();
        for e in std::fs::read_dir(src.join(sub)).unwrap() {
            let e = e.unwrap();
            let text = std::fs::read_to_string(e.path()).unwrap();
            std::fs::write(
                tmp.path().join(sub).join(e.file_name()),
                text.replace(from, to),
            )
            .unwrap();
        }
    }
    let opts = Options {
        profile,
        ..Options::default()
    };
    let report = validate::verify_path(tmp.path(), &opts).unwrap();
    report
        .findings
        .into_iter()
        .filter(|f| f.rule.starts_with("olm-v1-"))
        .map(|f| (f.level, f.rule, f.message))
        .collect()
}

#[test]
fn the_olm_v1_profile_says_what_olm_v1_refuses() {
    let got = olm_v1_findings("bundles/scoped-mini.v0.2.0", "", "", Profile::OlmV1);
    let rules: Vec<(Level, &str)> = got.iter().map(|(l, r, _)| (*l, r.as_str())).collect();
    assert_eq!(
        rules,
        [
            (Level::Error, "olm-v1-install-modes"),
            (Level::Warning, "olm-v1-webhooks")
        ]
    );
    assert!(
        got[0]
            .2
            .contains("unsupported bundle: bundle does not support AllNamespaces install mode")
    );
    // The same bundle under modern: none of these rules.
    assert_eq!(
        olm_v1_findings("bundles/scoped-mini.v0.2.0", "", "", Profile::Modern),
        []
    );
}

#[test]
fn dependencies_api_services_and_operator_conditions_under_olm_v1() {
    let got = olm_v1_findings(
        "bundles/webhook-mini.v0.1.0",
        "  webhookdefinitions:",
        "  apiservicedefinitions:\n    owned:\n    - {group: mini.example.com, version: v1, kind: Gizmo, name: gizmos, deploymentName: mini.manager}\n  webhookdefinitions:",
        Profile::OlmV1,
    );
    let rules: Vec<&str> = got.iter().map(|(_, r, _)| r.as_str()).collect();
    assert!(rules.contains(&"olm-v1-api-services"), "{got:?}");
    let got = olm_v1_findings(
        "bundles/webhook-mini.v0.1.0",
        "  customresourcedefinitions:\n    owned:",
        "  customresourcedefinitions:\n    required:\n    - {name: etcds.etcd.example.com, kind: Etcd, version: v1}\n    owned:",
        Profile::OlmV1,
    );
    let dep = got.iter().find(|f| f.1 == "olm-v1-dependencies").unwrap();
    assert!(dep.2.contains("has a dependency declared via property \"olm.gvk.required\" which is currently not supported"), "{}", dep.2);
    let got = olm_v1_findings(
        "bundles/scoped-mini.v0.2.0",
        "- {name: LOG_LEVEL, value: info}",
        "- {name: LOG_LEVEL, value: info}\n                - {name: OPERATOR_CONDITION_NAME, value: x}",
        Profile::OlmV1,
    );
    let cond = got
        .iter()
        .find(|f| f.1 == "olm-v1-operator-conditions")
        .expect("reported");
    assert_eq!(cond.0, Level::Warning);
}

/// A Secret OpenShift's service CA creates for a bundle Service (its
/// `service.beta.openshift.io/serving-cert-secret-name` annotation) is there when the pods
/// start: an OpenShift flavour mounting it is not refused; the same mount without the
/// annotation is.
#[test]
fn a_secret_the_openshift_service_ca_creates_is_provided() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let put = |rel: &str, text: &str| {
        std::fs::create_dir_all(d.join(rel).parent().unwrap()).unwrap();
        std::fs::write(d.join(rel), text).unwrap();
    };
    put(
        "manifests/op.clusterserviceversion.yaml",
        "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: op.v0.1.0\nspec:\n  version: 0.1.0\n  displayName: Op\n  description: op\n  provider: {name: example}\n  maintainers: [{name: example, email: a@example.com}]\n  installModes:\n  - {type: AllNamespaces, supported: true}\n  install:\n    strategy: deployment\n    spec:\n      deployments:\n      - name: op\n        spec:\n          selector: {matchLabels: {app: op}}\n          template:\n            metadata: {labels: {app: op}}\n            spec:\n              containers:\n              - name: manager\n                image: quay.io/example/op:v0.1.0\n                volumeMounts: [{name: metrics-cert, mountPath: /var/run/tls}]\n              volumes:\n              - name: metrics-cert\n                secret: {secretName: op-metrics}\n",
    );
    put(
        "metadata/annotations.yaml",
        "annotations:\n  operators.operatorframework.io.bundle.mediatype.v1: registry+v1\n  operators.operatorframework.io.bundle.manifests.v1: manifests/\n  operators.operatorframework.io.bundle.metadata.v1: metadata/\n  operators.operatorframework.io.bundle.package.v1: op\n  operators.operatorframework.io.bundle.channels.v1: stable\n",
    );
    let service = |annotated: bool| {
        format!(
            "apiVersion: v1\nkind: Service\nmetadata:\n  name: op-metrics\n{}spec:\n  ports: [{{port: 8443}}]\n",
            if annotated {
                "  annotations:\n    service.beta.openshift.io/serving-cert-secret-name: op-metrics\n"
            } else {
                ""
            }
        )
    };
    let refs = |bundle: &std::path::Path| -> Vec<String> {
        let opts = Options {
            profile: Profile::Modern,
            ..Options::default()
        };
        validate::verify_path(bundle, &opts)
            .unwrap()
            .findings
            .into_iter()
            .filter(|f| f.rule == "deployment-references")
            .map(|f| f.message)
            .collect()
    };
    put("manifests/op-metrics_v1_service.yaml", &service(false));
    let refused = refs(d);
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert!(
        refused[0].contains("needs Secret op-metrics"),
        "{refused:?}"
    );
    put("manifests/op-metrics_v1_service.yaml", &service(true));
    assert_eq!(refs(d), Vec::<String>::new());
}
