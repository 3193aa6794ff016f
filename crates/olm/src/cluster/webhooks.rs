//! What OLM v1 makes of the CSV's `webhookdefinitions` (operator-controller's
//! `registryv1/generators` and `render/certproviders`, after OLM v0's
//! `pkg/controller/install/webhook.go`): a Validating- or MutatingWebhookConfiguration per
//! admission webhook, named after its `generateName`, calling the deployment's Service
//! `<deployment>-service` (limited to the target namespaces unless installed for all); the
//! owned CRDs a conversion webhook names get `spec.conversion` pointing at that Service; one
//! Service per webhook deployment with a port per distinct container/target port. The
//! certificate provider adds its CA-injection annotations and, for cert-manager, a self-signed
//! Issuer and a Certificate per deployment (two years, renewed a day before expiry, as OLM v0);
//! OpenShift's service CA is asked for the serving Secret on the Service.

use serde_json::json;
use serde_yaml_ng::{Mapping, Value};

use super::bundle::RegistryV1;
use super::model::{CertProvider, InstallError, Rendering, to_value};
use super::names::{scalar, webhook_cert, webhook_service, with_suffix};

const CERT_MANAGER_INJECT: &str = "cert-manager.io/inject-ca-from";
const SERVICE_CA_INJECT: &str = "service.beta.openshift.io/inject-cabundle";
const SERVICE_CA_SECRET: &str = "service.beta.openshift.io/serving-cert-secret-name";

fn definitions(b: &RegistryV1) -> &[Value] {
    b.csv_list("spec.webhookdefinitions")
}

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or_default()
}

fn container_port(w: &Value) -> i64 {
    w.get("containerPort").and_then(Value::as_i64).unwrap_or(0)
}

/// Adds the provider's CA-injection annotation to a webhook configuration or CRD.
fn inject_ca(obj: &mut Value, r: &Rendering, deployment: &str) {
    let (key, value) = match r.cert_provider {
        None => return,
        Some(CertProvider::CertManager) => (
            CERT_MANAGER_INJECT,
            format!("{}/{}", r.install_namespace, webhook_cert(deployment)),
        ),
        Some(CertProvider::OpenshiftServiceCa) => (SERVICE_CA_INJECT, "true".to_string()),
    };
    annotate(obj, key, value);
}

fn annotate(obj: &mut Value, key: &str, value: String) {
    let Some(m) = obj.as_mapping_mut() else {
        return;
    };
    let meta = m
        .entry("metadata".into())
        .or_insert_with(|| Value::Mapping(Mapping::new()));
    if let Some(meta) = meta.as_mapping_mut() {
        let ann = meta
            .entry("annotations".into())
            .or_insert_with(|| Value::Mapping(Mapping::new()));
        if !ann.is_mapping() {
            *ann = Value::Mapping(Mapping::new());
        }
        if let Some(ann) = ann.as_mapping_mut() {
            ann.insert(key.into(), value.into());
        }
    }
}

/// The Validating- and MutatingWebhookConfigurations.
pub(crate) fn configurations(b: &RegistryV1, r: &Rendering) -> Vec<Value> {
    let mut out = Vec::new();
    for w in definitions(b) {
        let kind = match str_of(w, "type") {
            "ValidatingAdmissionWebhook" => "ValidatingWebhookConfiguration",
            "MutatingAdmissionWebhook" => "MutatingWebhookConfiguration",
            _ => continue,
        };
        let deployment = str_of(w, "deploymentName");
        let name = str_of(w, "generateName").trim_end_matches('-');
        let mut service = json!({
            "namespace": r.install_namespace,
            "name": webhook_service(deployment),
            "port": container_port(w),
        });
        if let Some(path) = w.get("webhookPath").and_then(scalar) {
            service["path"] = json!(path);
        }
        let mut hook = serde_json::Map::new();
        hook.insert("name".into(), json!(name));
        hook.insert("clientConfig".into(), json!({"service": service}));
        for &key in webhook_fields(kind == "MutatingWebhookConfiguration") {
            if let Some(v) = w.get(key).filter(|v| !v.is_null()) {
                hook.insert(key.into(), serde_json::to_value(v).unwrap_or_default());
            }
        }
        if !r.all_namespaces() {
            hook.insert(
                "namespaceSelector".into(),
                json!({"matchExpressions": [{
                    "key": "kubernetes.io/metadata.name",
                    "operator": "In",
                    "values": r.target_namespaces,
                }]}),
            );
        }
        let mut obj = to_value(json!({
            "apiVersion": "admissionregistration.k8s.io/v1",
            "kind": kind,
            "metadata": {"name": name, "namespace": r.install_namespace},
            "webhooks": [hook],
        }));
        inject_ca(&mut obj, r, deployment);
        out.push(obj);
    }
    out
}

/// The CRDs, with `spec.conversion` set for those a conversion webhook names.
pub(crate) fn crds(b: &RegistryV1, r: &Rendering) -> Result<Vec<Value>, InstallError> {
    let mut out = Vec::new();
    for crd in &b.crds {
        let mut crd = crd.clone();
        let name = crate::value_at(&crd, "metadata.name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let converters: Vec<&Value> = definitions(b)
            .iter()
            .filter(|w| str_of(w, "type") == "ConversionWebhook")
            .filter(|w| {
                w.get("conversionCRDs")
                    .and_then(Value::as_sequence)
                    .is_some_and(|c| c.iter().any(|n| n.as_str() == Some(&name)))
            })
            .collect();
        if converters.len() > 1 {
            return Err(InstallError::refused(format!(
                "custom resource definition '{name}' is referenced by multiple conversion webhook definitions"
            )));
        }
        if let Some(w) = converters.first() {
            if crate::value_at(&crd, "spec.preserveUnknownFields").and_then(Value::as_bool)
                == Some(true)
            {
                return Err(InstallError::refused(format!(
                    "custom resource definition '{name}' must have .spec.preserveUnknownFields set to false to let API Server call webhook to do the conversion"
                )));
            }
            let deployment = str_of(w, "deploymentName");
            let path = w
                .get("webhookPath")
                .and_then(scalar)
                .unwrap_or_else(|| "/".into());
            let mut webhook = json!({"clientConfig": {"service": {
                "namespace": r.install_namespace,
                "name": webhook_service(deployment),
                "path": path,
                "port": container_port(w),
            }}});
            if let Some(v) = w.get("admissionReviewVersions").filter(|v| !v.is_null()) {
                webhook["conversionReviewVersions"] = serde_json::to_value(v).unwrap_or_default();
            }
            let conversion = to_value(json!({"strategy": "Webhook", "webhook": webhook}));
            if let Some(spec) = crd.get_mut("spec").and_then(Value::as_mapping_mut) {
                spec.insert("conversion".into(), conversion);
            }
            inject_ca(&mut crd, r, deployment);
        }
        out.push(crd);
    }
    Ok(out)
}

/// The deployments that serve webhooks, in the CSV's deployment order.
fn webhook_deployments(b: &RegistryV1) -> Vec<(String, Value)> {
    b.csv_list("spec.install.spec.deployments")
        .iter()
        .filter_map(|d| {
            let name = str_of(d, "name");
            definitions(b)
                .iter()
                .any(|w| str_of(w, "deploymentName") == name)
                .then(|| (name.to_string(), d.clone()))
        })
        .collect()
}

/// One Service per webhook deployment.
pub(crate) fn services(b: &RegistryV1, r: &Rendering) -> Vec<Value> {
    let mut out = Vec::new();
    for (name, d) in webhook_deployments(b) {
        let mut ports: Vec<(i64, Value)> = Vec::new();
        for w in definitions(b)
            .iter()
            .filter(|w| str_of(w, "deploymentName") == name)
        {
            let port = Some(container_port(w)).filter(|p| *p > 0).unwrap_or(443);
            let target = w
                .get("targetPort")
                .filter(|t| !t.is_null())
                .cloned()
                .unwrap_or_else(|| port.into());
            if !ports.iter().any(|(p, t)| *p == port && *t == target) {
                ports.push((port, target));
            }
        }
        let target_int = |t: &Value| t.as_i64().unwrap_or(0);
        ports.sort_by_key(|(port, target)| (*port, target_int(target)));
        let ports: Vec<Value> = ports
            .into_iter()
            .map(|(port, target)| {
                let mut m = Mapping::new();
                m.insert("name".into(), port.to_string().into());
                m.insert("port".into(), port.into());
                m.insert("targetPort".into(), target);
                Value::Mapping(m)
            })
            .collect();
        let service_name = webhook_service(&name);
        let mut spec = Mapping::new();
        spec.insert("ports".into(), Value::Sequence(ports));
        if let Some(sel) = crate::value_at(&d, "spec.selector.matchLabels").filter(|v| !v.is_null())
        {
            spec.insert("selector".into(), sel.clone());
        }
        let mut obj = to_value(json!({
            "apiVersion": "v1",
            "kind": "Service",
            "metadata": {"name": service_name, "namespace": r.install_namespace},
        }));
        if let Some(m) = obj.as_mapping_mut() {
            m.insert("spec".into(), Value::Mapping(spec));
        }
        if r.cert_provider == Some(CertProvider::OpenshiftServiceCa) {
            annotate(&mut obj, SERVICE_CA_SECRET, webhook_cert(&name));
        }
        out.push(obj);
    }
    out
}

/// cert-manager's self-signed Issuer and Certificate per webhook deployment.
pub(crate) fn certificates(b: &RegistryV1, r: &Rendering) -> Vec<Value> {
    if r.cert_provider != Some(CertProvider::CertManager) {
        return Vec::new();
    }
    let ns = &r.install_namespace;
    let mut out = Vec::new();
    for (name, _) in webhook_deployments(b) {
        let service = webhook_service(&name);
        let cert = webhook_cert(&name);
        let issuer = with_suffix(&cert, "selfsigned-issuer");
        out.push(to_value(json!({
            "apiVersion": "cert-manager.io/v1",
            "kind": "Issuer",
            "metadata": {"name": issuer, "namespace": ns},
            "spec": {"selfSigned": {}},
        })));
        out.push(to_value(json!({
            "apiVersion": "cert-manager.io/v1",
            "kind": "Certificate",
            "metadata": {"name": cert, "namespace": ns},
            "spec": {
                "secretName": cert,
                "commonName": format!("{service}.{ns}"),
                "usages": ["server auth"],
                "dnsNames": [
                    format!("{service}.{ns}"),
                    format!("{service}.{ns}.svc"),
                    format!("{service}.{ns}.svc.cluster.local"),
                ],
                "issuerRef": {"name": issuer},
                "duration": "17520h0m0s",
                "renewBefore": "24h0m0s",
            },
        })));
    }
    out
}

/// The fields an admission webhook keeps between a webhook configuration's entry and a CSV's
/// `webhookdefinitions` entry, in both directions (what `operator-sdk generate bundle` copies
/// and what OLM copies back when it installs): the rules and policies, and for a mutating
/// webhook its `reinvocationPolicy`.
pub fn webhook_fields(mutating: bool) -> &'static [&'static str] {
    const FIELDS: [&str; 8] = [
        "rules",
        "failurePolicy",
        "matchPolicy",
        "objectSelector",
        "sideEffects",
        "timeoutSeconds",
        "admissionReviewVersions",
        "reinvocationPolicy",
    ];
    if mutating { &FIELDS } else { &FIELDS[..7] }
}
