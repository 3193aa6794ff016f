//! `verify`'s checks of what the cluster gets: the shapes a kubebuilder project's kustomize
//! output takes when bundled without its webhooks wired into the CSV
//! (`fixtures/install/unstartable/`) are refused, each finding naming the Deployment or CRD,
//! the reference and the fix; the wired fixtures pass them.

use std::path::PathBuf;

use olm_release_olm::Level;
use olm_release_olm::validate::{self, Options, Profile};

fn fixture(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/install").join(path)
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
            (Level::Error, "crd-conversion-webhook", "spec.conversion.strategy"),
            (Level::Warning, "deployment-pull-secrets", &*format!("{pod}.imagePullSecrets[0].name")),
            (Level::Error, "deployment-references", &*format!("{pod}.containers[manager].envFrom[0].configMapRef.name")),
            (Level::Error, "deployment-references", &*format!("{pod}.containers[manager].env[TOKEN].valueFrom.secretKeyRef.name")),
            (Level::Error, "deployment-references", &*format!("{pod}.volumes[cert].secret.secretName")),
            (Level::Error, "object-webhook-configuration", "kind"),
        ]
    );
    let cert = got.iter().find(|f| f.2.ends_with("volumes[cert].secret.secretName")).unwrap();
    assert!(cert.3.contains("Deployment unwired-controller-manager needs Secret webhook-server-cert"), "{}", cert.3);
    assert!(cert.4.contains("spec.webhookdefinitions with deploymentName unwired-controller-manager"), "{}", cert.4);
    assert!(cert.4.contains("unwired-controller-manager-service-cert"), "{}", cert.4);
    let crd = got.iter().find(|f| f.1 == "crd-conversion-webhook").unwrap();
    assert!(crd.3.contains("CRD engines.unwired.example.com converts through a webhook (Service webhook-service)"), "{}", crd.3);
}

#[test]
fn the_wired_fixtures_pass_these_checks() {
    for b in ["bundles/webhook-mini.v0.1.0", "bundles/scoped-mini.v0.2.0"] {
        assert_eq!(findings(b), [], "{b}");
    }
}

#[test]
fn different_schemas_without_a_webhook_are_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    let src = fixture("unstartable/kubebuilder-unwired.v0.1.0");
    for sub in ["manifests", "metadata"] {
        std::fs::create_dir_all(tmp.path().join(sub)).unwrap();
        for e in std::fs::read_dir(src.join(sub)).unwrap() {
            let e = e.unwrap();
            let text = std::fs::read_to_string(e.path()).unwrap();
            std::fs::write(tmp.path().join(sub).join(e.file_name()), text.replace("strategy: Webhook", "strategy: None")).unwrap();
        }
    }
    let opts = Options { profile: Profile::Modern, ..Options::default() };
    let report = validate::verify_path(tmp.path(), &opts).unwrap();
    let f = report.findings.iter().find(|f| f.rule == "crd-conversion-schemas").expect("reported");
    assert_eq!(f.level, Level::Warning);
    assert!(f.message.contains("serves v1 and v2 with different schemas"), "{}", f.message);
}
