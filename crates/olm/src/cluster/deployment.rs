//! The Deployments of the CSV's install strategy as OLM v1 creates them (operator-controller's
//! `registryv1/generators`, for parity with OLM v0's `pkg/controller/install/deployment.go`):
//! in the install namespace, labelled with the spec's `label`, the pod template annotated with
//! the CSV's annotations (the template's own win), `olm.targetNamespaces` and
//! `olm.operatorNamespace`, `revisionHistoryLimit: 1`. A deployment that serves webhooks gets
//! the certificate Secret of the provider mounted where OLM v0 mounts it
//! (`webhook-cert` at `/tmp/k8s-webhook-server/serving-certs`, `apiservice-cert` at
//! `/apiserver.local.config/certificates`), replacing any volume of those names or paths. The
//! `deploymentConfig` applies last.

use serde_json::json;
use serde_yaml_ng::{Mapping, Value};

use super::bundle::RegistryV1;
use super::model::{Rendering, to_value};
use super::names::webhook_cert;
use crate::value_at;

/// The certificate volumes OLM mounts into a webhook deployment: volume name, mount path, and
/// the file names of the certificate and the key.
pub(crate) const CERT_VOLUMES: [(&str, &str, &str, &str); 2] = [
    (
        "webhook-cert",
        "/tmp/k8s-webhook-server/serving-certs",
        "tls.crt",
        "tls.key",
    ),
    (
        "apiservice-cert",
        "/apiserver.local.config/certificates",
        "apiserver.crt",
        "apiserver.key",
    ),
];

/// The Deployments, in the CSV's order.
pub(crate) fn deployments(b: &RegistryV1, r: &Rendering) -> Vec<Value> {
    let webhook_deployments: Vec<&str> = b
        .csv_list("spec.webhookdefinitions")
        .iter()
        .filter_map(|w| w.get("deploymentName").and_then(Value::as_str))
        .collect();
    let csv_annotations = value_at(&b.csv, "metadata.annotations")
        .and_then(Value::as_mapping)
        .cloned()
        .unwrap_or_default();
    let mut out = Vec::new();
    for d in b.csv_list("spec.install.spec.deployments") {
        let name = d.get("name").and_then(Value::as_str).unwrap_or_default();
        let mut spec = d
            .get("spec")
            .filter(|s| s.is_mapping())
            .cloned()
            .unwrap_or_else(|| Value::Mapping(Mapping::new()));
        let mut annotations = csv_annotations.clone();
        if let Some(own) =
            value_at(&spec, "template.metadata.annotations").and_then(Value::as_mapping)
        {
            for (k, v) in own {
                annotations.insert(k.clone(), v.clone());
            }
        }
        annotations.insert(
            "olm.targetNamespaces".into(),
            r.target_namespaces.join(",").into(),
        );
        annotations.insert(
            "olm.operatorNamespace".into(),
            r.install_namespace.clone().into(),
        );
        let meta = entry(entry(&mut spec, "template"), "metadata");
        if let Some(m) = meta.as_mapping_mut() {
            m.insert("annotations".into(), Value::Mapping(annotations));
        }
        if let Some(m) = spec.as_mapping_mut() {
            m.insert("revisionHistoryLimit".into(), 1.into());
        }
        let mut metadata = json!({"name": name, "namespace": r.install_namespace});
        let mut deployment = to_value(json!({
            "apiVersion": "apps/v1",
            "kind": "Deployment",
        }));
        if let Some(labels) = d
            .get("label")
            .and_then(Value::as_mapping)
            .filter(|l| !l.is_empty())
        {
            metadata["labels"] = serde_json::to_value(labels).unwrap_or_default();
        }
        if let Some(m) = deployment.as_mapping_mut() {
            m.insert("metadata".into(), to_value(metadata));
            m.insert("spec".into(), spec);
        }
        if r.cert_provider.is_some() && webhook_deployments.contains(&name) {
            mount_certificates(&mut deployment, &webhook_cert(name));
        }
        if let Some(config) = &r.deployment_config {
            config.apply(&mut deployment);
        }
        out.push(deployment);
    }
    out
}

/// The mapping under `key`, created when absent or not a mapping.
fn entry<'a>(v: &'a mut Value, key: &str) -> &'a mut Value {
    if !v.is_mapping() {
        *v = Value::Mapping(Mapping::new());
    }
    let m = v.as_mapping_mut().expect("a mapping");
    let slot = m
        .entry(key.into())
        .or_insert_with(|| Value::Mapping(Mapping::new()));
    if !slot.is_mapping() {
        *slot = Value::Mapping(Mapping::new());
    }
    slot
}

/// Replaces the certificate volumes and mounts with the provider's Secret `secret`.
fn mount_certificates(deployment: &mut Value, secret: &str) {
    let pod = entry(entry(entry(deployment, "spec"), "template"), "spec");
    let mut remove: Vec<String> = CERT_VOLUMES.iter().map(|c| c.0.to_string()).collect();
    for c in pod
        .get("containers")
        .and_then(Value::as_sequence)
        .into_iter()
        .flatten()
    {
        for m in c
            .get("volumeMounts")
            .and_then(Value::as_sequence)
            .into_iter()
            .flatten()
        {
            let path = m.get("mountPath").and_then(Value::as_str);
            if CERT_VOLUMES.iter().any(|cv| Some(cv.1) == path)
                && let Some(n) = m.get("name").and_then(Value::as_str)
            {
                remove.push(n.to_string());
            }
        }
    }
    let removed = |v: &Value| {
        v.get("name")
            .and_then(Value::as_str)
            .is_some_and(|n| remove.iter().any(|r| r == n))
    };
    let mut volumes: Vec<Value> = pod
        .get("volumes")
        .and_then(Value::as_sequence)
        .cloned()
        .unwrap_or_default();
    volumes.retain(|v| !removed(v));
    for (name, _, crt, key) in CERT_VOLUMES {
        volumes.push(to_value(json!({
            "name": name,
            "secret": {"secretName": secret, "items": [
                {"key": "tls.crt", "path": crt},
                {"key": "tls.key", "path": key},
            ]},
        })));
    }
    let Some(pod_map) = pod.as_mapping_mut() else {
        return;
    };
    pod_map.insert("volumes".into(), Value::Sequence(volumes));
    if let Some(containers) = pod_map
        .get_mut("containers")
        .and_then(Value::as_sequence_mut)
    {
        for c in containers {
            let mut mounts: Vec<Value> = c
                .get("volumeMounts")
                .and_then(Value::as_sequence)
                .cloned()
                .unwrap_or_default();
            mounts.retain(|m| !removed(m));
            for (name, path, _, _) in CERT_VOLUMES {
                mounts.push(to_value(json!({"name": name, "mountPath": path})));
            }
            if let Some(m) = c.as_mapping_mut() {
                m.insert("volumeMounts".into(), Value::Sequence(mounts));
            }
        }
    }
}
