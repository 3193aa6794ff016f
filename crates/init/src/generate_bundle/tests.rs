//! The generation on a fixture in the shape of `kustomize build config/manifests` of a Go
//! operator with admission and conversion webhooks (`fixtures/make-bundle/built.yaml`); the
//! operator-sdk goldens are the oracle in `tests/it/operator_sdk_oracle.rs`.

use serde_yaml_ng::Value;

use super::paths::{seq, str_at};
use super::{GeneratedBundle, generate_bundle};

const BUILT: &str = include_str!("../../../../fixtures/make-bundle/built.yaml");

fn generated() -> GeneratedBundle {
    generate_bundle(BUILT, None, None).expect("a bundle")
}

fn yaml(text: &str) -> Value {
    serde_yaml_ng::from_str(text).unwrap()
}

fn definition<'a>(csv: &'a Value, name: &str) -> &'a Value {
    seq(csv, &["spec", "webhookdefinitions"])
        .iter()
        .find(|d| str_at(d, &["generateName"]) == Some(name))
        .unwrap_or_else(|| panic!("no webhook definition {name}: {csv:?}"))
}

#[test]
fn webhooks_become_definitions_as_operator_sdk_writes_them() {
    let b = generated();
    let csv = &b.csv.1;
    let names: Vec<&str> = seq(csv, &["spec", "webhookdefinitions"])
        .iter()
        .filter_map(|d| str_at(d, &["generateName"]))
        .collect();
    assert_eq!(
        names,
        ["cguestbooks.kb.io", "mguestbook.kb.io", "vguestbook.kb.io"]
    );
    assert_eq!(
        definition(csv, "cguestbooks.kb.io"),
        &yaml(
            "type: ConversionWebhook\nconversionCRDs: [guestbooks.webapp.example.com]\nadmissionReviewVersions: [v1]\nwebhookPath: /convert\ndeploymentName: guestbook-controller-manager\ngenerateName: cguestbooks.kb.io\nsideEffects: None\ncontainerPort: 443\ntargetPort: 9443\n"
        )
    );
    assert_eq!(
        definition(csv, "mguestbook.kb.io"),
        &yaml(
            "type: MutatingAdmissionWebhook\ngenerateName: mguestbook.kb.io\nrules:\n- apiGroups: [webapp.example.com]\n  apiVersions: [v1]\n  operations: [CREATE, UPDATE]\n  resources: [guestbooks]\nfailurePolicy: Fail\nsideEffects: None\nadmissionReviewVersions: [v1]\nreinvocationPolicy: IfNeeded\ncontainerPort: 443\ntargetPort: 9443\ndeploymentName: guestbook-controller-manager\nwebhookPath: /mutate-webapp-example-com-v1-guestbook\n"
        )
    );
    let v = definition(csv, "vguestbook.kb.io");
    assert_eq!(str_at(v, &["type"]), Some("ValidatingAdmissionWebhook"));
    assert_eq!(str_at(v, &["failurePolicy"]), Some("Ignore"));
    assert_eq!(str_at(v, &["matchPolicy"]), Some("Equivalent"));
    assert_eq!(v["timeoutSeconds"].as_i64(), Some(5));
    // No sideEffects in the webhook: operator-sdk writes None.
    assert_eq!(str_at(v, &["sideEffects"]), Some("None"));
    assert_eq!(
        str_at(
            v,
            &[
                "objectSelector",
                "matchLabels",
                "guestbook.example.com/validate"
            ]
        ),
        Some("true")
    );
}

#[test]
fn the_csv_base_keeps_its_descriptors_icon_and_links_and_gains_the_install_strategy() {
    let b = generated();
    let (file, csv) = &b.csv;
    assert_eq!(file, "guestbook-operator.clusterserviceversion.yaml");
    assert_eq!(
        str_at(csv, &["metadata", "name"]),
        Some("guestbook-operator.v0.0.0")
    );
    assert!(str_at(csv, &["spec", "icon"]).is_none());
    assert_eq!(
        str_at(&seq(csv, &["spec", "icon"])[0], &["mediatype"]),
        Some("image/svg+xml")
    );
    assert_eq!(
        str_at(&seq(csv, &["spec", "links"])[0], &["url"]),
        Some("https://guestbook.example.com")
    );
    assert!(
        str_at(csv, &["spec", "description"]).is_some_and(|d| d.contains("database of its own"))
    );
    let owned: Vec<(&str, &str)> = seq(csv, &["spec", "customresourcedefinitions", "owned"])
        .iter()
        .map(|o| {
            (
                str_at(o, &["kind"]).unwrap(),
                str_at(o, &["version"]).unwrap(),
            )
        })
        .collect();
    // One per served version; the base's Page v1alpha1 (no such version) is gone.
    assert_eq!(
        owned,
        [
            ("Guestbook", "v1"),
            ("Guestbook", "v1beta1"),
            ("Page", "v1")
        ]
    );
    let first = &seq(csv, &["spec", "customresourcedefinitions", "owned"])[0];
    assert_eq!(seq(first, &["specDescriptors"]).len(), 1, "{first:?}");
    assert_eq!(
        str_at(csv, &["spec", "install", "strategy"]),
        Some("deployment")
    );
    let spec = &csv["spec"]["install"]["spec"];
    let sa = |list: &str| -> Vec<&str> {
        seq(spec, &[list])
            .iter()
            .filter_map(|p| str_at(p, &["serviceAccountName"]))
            .collect()
    };
    assert_eq!(sa("permissions"), ["guestbook-controller-manager"]);
    assert_eq!(sa("clusterPermissions"), ["guestbook-controller-manager"]);
    assert_eq!(
        seq(&seq(spec, &["clusterPermissions"])[0], &["rules"]).len(),
        1
    );
    let dep = &seq(spec, &["deployments"])[0];
    assert_eq!(str_at(dep, &["name"]), Some("guestbook-controller-manager"));
    assert_eq!(
        str_at(dep, &["label", "control-plane"]),
        Some("controller-manager")
    );
    let pod = &dep["spec"]["template"]["spec"];
    let env = &seq(&seq(pod, &["containers"])[0], &["env"])[0];
    assert_eq!(
        str_at(env, &["valueFrom", "fieldRef", "fieldPath"]),
        Some("metadata.annotations['olm.targetNamespaces']")
    );
    let examples: serde_json::Value =
        serde_json::from_str(str_at(csv, &["metadata", "annotations", "alm-examples"]).unwrap())
            .unwrap();
    assert_eq!(examples[0]["metadata"]["name"], "guestbook-sample");
    assert!(
        str_at(csv, &["metadata", "annotations", "createdAt"]).is_none(),
        "createdAt only when a pipeline asks"
    );
}

#[test]
fn the_webhook_certificate_volume_is_left_to_olm() {
    let b = generated();
    let pod = &b.csv.1["spec"]["install"]["spec"]["deployments"][0]["spec"]["template"]["spec"];
    let volumes: Vec<&str> = seq(pod, &["volumes"])
        .iter()
        .filter_map(|v| str_at(v, &["name"]))
        .collect();
    assert_eq!(volumes, ["manager-config"]);
    let mounts: Vec<&str> = seq(&seq(pod, &["containers"])[0], &["volumeMounts"])
        .iter()
        .filter_map(|v| str_at(v, &["name"]))
        .collect();
    assert_eq!(mounts, ["manager-config"]);
    assert!(
        b.notes.iter().any(|n| n.contains("volume cert")),
        "{:?}",
        b.notes
    );
    // Without webhooks, the certificate volume is the project's business and stays.
    let plain: String = BUILT
        .split("\n---\n")
        .filter(|d| !d.contains("WebhookConfiguration") && !d.contains("conversion:"))
        .collect::<Vec<_>>()
        .join("\n---\n");
    let b = generate_bundle(&plain, None, None).unwrap();
    let pod = &b.csv.1["spec"]["install"]["spec"]["deployments"][0]["spec"]["template"]["spec"];
    assert_eq!(seq(pod, &["volumes"]).len(), 2);
}

#[test]
fn the_other_objects_are_those_operator_sdk_writes_without_namespace() {
    let b = generated();
    let mut names: Vec<&str> = b.objects.iter().map(|(n, _)| n.as_str()).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "guestbook-controller-manager-metrics-service_v1_service.yaml",
            "guestbook-manager-config_v1_configmap.yaml",
            // The binding keeps a subject that is not the deployment's service account.
            "guestbook-manager-rolebinding_rbac.authorization.k8s.io_v1_clusterrolebinding.yaml",
            "guestbook-metrics-reader_rbac.authorization.k8s.io_v1_clusterrole.yaml",
            "guestbook-reporter_v1_serviceaccount.yaml",
            "guestbook-webhook-service_v1_service.yaml",
            "webapp.example.com_guestbooks.yaml",
            "webapp.example.com_pages.yaml",
        ]
    );
    for (name, o) in &b.objects {
        assert!(o["metadata"].get("namespace").is_none(), "{name}");
    }
    let note = b.notes.iter().find(|n| n.contains("leaves out")).unwrap();
    for kind in ["Namespace", "Certificate", "Issuer"] {
        assert!(note.contains(kind), "{note}");
    }
    assert!(!note.contains("Guestbook guestbook-sample"), "{note}");
}

#[test]
fn an_operator_name_and_version_name_the_csv() {
    let b = generate_bundle(BUILT, Some("guestbook-operator"), Some("1.2.3")).unwrap();
    assert_eq!(
        str_at(&b.csv.1, &["metadata", "name"]),
        Some("guestbook-operator.v1.2.3")
    );
    assert_eq!(str_at(&b.csv.1, &["spec", "version"]), Some("1.2.3"));
    assert!(
        generate_bundle(
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n",
            None,
            None
        )
        .is_none()
    );
}
