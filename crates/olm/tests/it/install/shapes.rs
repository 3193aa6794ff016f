//! The shapes a kubebuilder project's bundle takes when its kustomize output is bundled
//! without `operator-sdk generate bundle`'s webhook handling, one at a time: each is the wired
//! webhook fixture (`fixtures/install/bundles/webhook-mini.v0.1.0`, which passes) with one
//! edit, and must give exactly the findings listed, with the rule, the field and the level.

use std::path::{Path, PathBuf};

use olm_release_olm::Level;
use olm_release_olm::validate::{self, Options, Profile};

const CSV: &str = "manifests/webhook-mini.clusterserviceversion.yaml";
const CRD: &str = "manifests/mini.example.com_gadgets.yaml";
const POD: &str = "spec.install.spec.deployments[mini.manager].spec.template.spec";

const RULES: [&str; 5] = [
    "deployment-references",
    "deployment-pull-secrets",
    "crd-conversion-webhook",
    "crd-conversion-schemas",
    "object-webhook-configuration",
];

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/install/bundles/webhook-mini.v0.1.0")
}

/// One edit: in `file`, `from` becomes `to` (`from` empty: `to` is the whole new file).
type Edit = (&'static str, &'static str, &'static str);

/// The fixture copied into `dir` with `edits` applied.
fn shaped(dir: &Path, edits: &[Edit]) {
    for sub in ["manifests", "metadata"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
        for e in std::fs::read_dir(fixture().join(sub)).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), dir.join(sub).join(e.file_name())).unwrap();
        }
    }
    for (file, from, to) in edits {
        let path = dir.join(file);
        let text = if from.is_empty() {
            to.to_string()
        } else {
            let old = std::fs::read_to_string(&path).unwrap();
            assert!(old.contains(from), "{file} holds {from:?}");
            old.replace(from, to)
        };
        std::fs::write(path, text).unwrap();
    }
}

/// The findings of this module's rules, as (level, rule, field).
fn findings(edits: &[Edit]) -> Vec<(Level, String, String)> {
    findings_with(edits, &[])
}

/// The findings with `provided` as the objects the cluster admin creates.
fn findings_with(edits: &[Edit], provided: &[&str]) -> Vec<(Level, String, String)> {
    let tmp = tempfile::tempdir().unwrap();
    shaped(tmp.path(), edits);
    let opts = Options {
        profile: Profile::Modern,
        provided: provided.iter().map(|p| p.to_string()).collect(),
        ..Options::default()
    };
    let report = validate::verify_path(tmp.path(), &opts).unwrap();
    let mut out: Vec<_> = report
        .findings
        .into_iter()
        .filter(|f| RULES.contains(&f.rule.as_str()))
        .map(|f| (f.level, f.rule, f.field))
        .collect();
    out.sort_by(|a, b| (&a.1, &a.2).cmp(&(&b.1, &b.2)));
    out
}

fn want(list: &[(Level, &str, &str)]) -> Vec<(Level, String, String)> {
    list.iter()
        .map(|(l, r, f)| (*l, r.to_string(), f.to_string()))
        .collect()
}

#[test]
fn the_wired_fixture_has_none_of_them() {
    assert_eq!(findings(&[]), []);
}

#[test]
fn a_webhook_certificate_secret_without_webhookdefinitions() {
    // The Deployment still mounts the serving certificate kustomize's cert-manager patch named;
    // without webhookdefinitions OLM creates no certificate, and the CRD converts nothing.
    let got = findings(&[(CSV, "  webhookdefinitions:\n", "  kustomizeWebhooks:\n")]);
    let volume = format!("{POD}.volumes[serving].secret.secretName");
    assert_eq!(
        got,
        want(&[
            (Level::Error, "crd-conversion-schemas", "spec.versions"),
            (Level::Error, "deployment-references", &volume),
        ])
    );
}

#[test]
fn a_conversion_webhook_the_csv_does_not_declare() {
    let got = findings(&[
        (
            CRD,
            "    strategy: None\n",
            "    strategy: Webhook\n    webhook:\n      conversionReviewVersions: [v1]\n      clientConfig:\n        service: {name: webhook-service, namespace: system, path: /convert}\n",
        ),
        (
            CSV,
            "conversionCRDs: [gadgets.mini.example.com]",
            "conversionCRDs: []",
        ),
    ]);
    assert_eq!(
        got,
        want(&[(
            Level::Warning,
            "crd-conversion-webhook",
            "spec.conversion.strategy"
        )])
    );
}

#[test]
fn versions_with_different_schemas_and_no_conversion() {
    let got = findings(&[(
        CSV,
        "conversionCRDs: [gadgets.mini.example.com]",
        "conversionCRDs: []",
    )]);
    assert_eq!(
        got,
        want(&[(Level::Error, "crd-conversion-schemas", "spec.versions")])
    );
}

#[test]
fn a_webhook_configuration_in_manifests() {
    let vwc = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata:\n  name: validating-webhook-configuration\nwebhooks: []\n";
    let got = findings(&[("manifests/validating-webhook-configuration.yaml", "", vwc)]);
    assert_eq!(
        got,
        want(&[(Level::Error, "object-webhook-configuration", "kind")])
    );
}

#[test]
fn a_config_map_nobody_ships() {
    let got = findings(&[(
        CSV,
        "configMap: {name: mini-config}",
        "configMap: {name: manager-config}",
    )]);
    let volume = format!("{POD}.volumes[config].configMap.name");
    assert_eq!(
        got,
        want(&[(Level::Error, "deployment-references", &volume)])
    );
}

#[test]
fn a_config_map_the_cluster_admin_provides() {
    let edit = [(
        CSV,
        "configMap: {name: mini-config}",
        "configMap: {name: manager-config}",
    )];
    // Declared as a prerequisite: no refusal. Another kind or name of the same is no excuse.
    assert_eq!(
        findings_with(&edit, &["ConfigMap/manager-config"]),
        want(&[])
    );
    let volume = format!("{POD}.volumes[config].configMap.name");
    for other in ["Secret/manager-config", "ConfigMap/other-config"] {
        assert_eq!(
            findings_with(&edit, &[other]),
            want(&[(Level::Error, "deployment-references", &volume)]),
            "{other}"
        );
    }
    assert!(validate::check_provided("ConfigMap/manager-config").is_ok());
    for bad in [
        "manager-config",
        "Deployment/x",
        "ConfigMap/",
        "ConfigMap/a/b",
    ] {
        assert!(validate::check_provided(bad).is_err(), "{bad}");
    }
}

#[test]
fn an_optional_reference_and_a_pull_secret() {
    // Optional: the kubelet starts the pod without it. A pull secret only warns.
    let got = findings(&[(
        CSV,
        "configMap: {name: mini-config}",
        "configMap: {name: manager-config, optional: true}\n              imagePullSecrets:\n              - name: registry-credentials",
    )]);
    let pull = format!("{POD}.imagePullSecrets[0].name");
    assert_eq!(
        got,
        want(&[(Level::Warning, "deployment-pull-secrets", &pull)])
    );
}
