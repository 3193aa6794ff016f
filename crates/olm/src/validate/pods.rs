//! Whether what OLM installs can run: the checks made from the objects a cluster gets
//! ([`crate::cluster`] renders them), not from the files one by one. A Deployment's pods start
//! only if every Secret, ConfigMap and PersistentVolumeClaim they name exists: OLM creates the
//! bundle's objects and, for a deployment the CSV's `webhookdefinitions` or
//! `apiservicedefinitions` name, the certificate Secret `<deployment>-service-cert` it mounts at
//! the serving-certificate paths (replacing whatever the Deployment mounted there; OLM v0's
//! `pkg/controller/install/certresources.go`, operator-controller's `rukpak/render`); on
//! OpenShift the service CA creates the Secret a bundle Service's
//! `service.beta.openshift.io/serving-cert-secret-name` annotation names. A CRD
//! whose conversion calls a webhook needs the CSV to declare it (OLM then points the CRD at its
//! own Service); several served versions with different schemas and no webhook lose fields.
//! Webhook configurations in `manifests/` are never installed: OLM installs webhooks only from
//! `webhookdefinitions`. These shapes are those a kubebuilder project's kustomize output takes
//! when it is bundled without `operator-sdk generate bundle`'s webhook handling.

use serde_yaml_ng::Value;

use super::model::Unit;
use super::rules;
use super::sink::{At, Sink};
use crate::cluster::names::webhook_cert;
use crate::{Manifest, value_at};

/// The mount paths whose volumes OLM replaces with its certificate in a webhook deployment.
const CERT_PATHS: [&str; 2] = [
    "/tmp/k8s-webhook-server/serving-certs",
    "/apiserver.local.config/certificates",
];

/// The checks of one bundle.
pub(crate) fn check(unit: &Unit, sink: &mut Sink) {
    for csv in unit.csvs {
        deployments(csv, unit.objects, sink);
    }
    super::conversion::check(unit, sink);
    for m in unit.objects {
        if let Some(kind @ ("ValidatingWebhookConfiguration" | "MutatingWebhookConfiguration")) =
            m.kind()
        {
            let msg = format!(
                "{kind} {} is in manifests/, but OLM installs webhooks only from the CSV's spec.webhookdefinitions",
                m.name().unwrap_or_default()
            );
            sink.add(
                &rules::OBJECT_WEBHOOK_CONFIGURATION,
                &At::of(m),
                "kind",
                msg,
            );
        }
    }
}

fn list(v: Option<&Value>) -> &[Value] {
    v.and_then(Value::as_sequence)
        .map(Vec::as_slice)
        .unwrap_or_default()
}

fn s<'a>(v: &'a Value, path: &str) -> Option<&'a str> {
    value_at(v, path).and_then(Value::as_str)
}

fn optional(v: &Value) -> bool {
    v.get("optional").and_then(Value::as_bool) == Some(true)
}

/// The deployments OLM gives a certificate (webhooks and API services).
fn certified(csv: &Manifest) -> Vec<&str> {
    list(value_at(&csv.doc, "spec.webhookdefinitions"))
        .iter()
        .chain(list(value_at(&csv.doc, "spec.apiservicedefinitions.owned")))
        .filter_map(|w| s(w, "deploymentName"))
        .collect()
}

/// The certificate Secrets OLM creates in the install namespace: `<deployment>-service-cert`
/// for each deployment serving webhooks or API services (OLM v0's current naming, kept by
/// operator-controller), and `<version>.<group>-cert` for each owned API service (the name
/// older OLM v0 releases gave it, which CSVs such as service catalog's mount).
fn provided_secrets(csv: &Manifest, certified: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = certified.iter().map(|d| webhook_cert(d)).collect();
    for a in list(value_at(&csv.doc, "spec.apiservicedefinitions.owned")) {
        if let (Some(v), Some(g)) = (s(a, "version"), s(a, "group")) {
            out.push(format!("{v}.{g}-cert"));
        }
    }
    out
}

/// One reference: kind, name, field (relative to the pod spec), and whether it is a volume
/// mounted at a certificate path.
struct Ref {
    kind: &'static str,
    name: String,
    field: String,
    at_cert_path: bool,
}

/// The Secrets OpenShift's service CA creates for the bundle's Services that ask for a serving
/// certificate (`service.beta.openshift.io/serving-cert-secret-name`,
/// <https://docs.openshift.com/container-platform/4.14/security/certificates/service-serving-certificate.html>):
/// an OpenShift flavour of a bundle mounts them (opentelemetry-operator's `bundle/openshift`).
fn service_ca_secrets(objects: &[Manifest]) -> Vec<String> {
    objects
        .iter()
        .filter(|m| m.kind() == Some("Service"))
        .filter_map(|m| {
            value_at(&m.doc, "metadata.annotations")?
                .get("service.beta.openshift.io/serving-cert-secret-name")?
                .as_str()
        })
        .map(str::to_string)
        .collect()
}

fn deployments(csv: &Manifest, objects: &[Manifest], sink: &mut Sink) {
    let certified = certified(csv);
    let mut provided = provided_secrets(csv, &certified);
    provided.extend(service_ca_secrets(objects));
    let at = At::of(csv);
    for (i, d) in list(value_at(&csv.doc, "spec.install.spec.deployments"))
        .iter()
        .enumerate()
    {
        let name = s(d, "name").unwrap_or_default();
        let base = if name.is_empty() {
            format!("spec.install.spec.deployments[{i}].spec.template.spec")
        } else {
            format!("spec.install.spec.deployments[{name}].spec.template.spec")
        };
        let Some(pod) = value_at(d, "spec.template.spec") else {
            continue;
        };
        let has_cert = certified.contains(&name);
        for r in references(pod) {
            if r.at_cert_path && has_cert {
                continue; // OLM replaces this volume with its certificate
            }
            let present = objects
                .iter()
                .any(|m| m.kind() == Some(r.kind) && m.name() == Some(&r.name));
            let by_admin = sink
                .opts
                .provided
                .iter()
                .any(|p| p.split_once('/') == Some((r.kind, r.name.as_str())));
            if present || by_admin || (r.kind == "Secret" && provided.contains(&r.name)) {
                continue;
            }
            let field = format!("{base}.{}", r.field);
            if r.kind == "Secret" && r.field.starts_with("imagePullSecrets") {
                let msg = format!(
                    "Deployment {name} pulls with Secret {}, which is not in the bundle (the cluster admin must create it in the install namespace)",
                    r.name
                );
                sink.add(&rules::DEPLOYMENT_PULL_SECRETS, &at, &field, msg);
                continue;
            }
            let msg = format!(
                "Deployment {name} needs {} {}, which is not in the bundle and which OLM does not create: its pods never start",
                r.kind, r.name
            );
            let fix = if r.at_cert_path {
                format!(
                    "declare the webhooks in spec.webhookdefinitions with deploymentName {name}: OLM then mounts its certificate (Secret {}) at this path",
                    webhook_cert(name)
                )
            } else if r.kind == "PersistentVolumeClaim" {
                "a bundle cannot carry a PersistentVolumeClaim; use an emptyDir, or let the cluster admin provide the claim through the subscription's or extension's deployment config".to_string()
            } else {
                format!(
                    "add {kind} {name} to the bundle's manifests/, mark the reference optional: true, or, when the cluster admin creates it before installing (a documented prerequisite), say so with verify --provided {kind}/{name} (a pipeline's verify.provided)",
                    kind = r.kind,
                    name = r.name
                )
            };
            sink.add_fix(&rules::DEPLOYMENT_REFERENCES, &at, &field, msg, fix);
        }
    }
}

/// Every required Secret, ConfigMap and claim the pod spec names.
fn references(pod: &Value) -> Vec<Ref> {
    let mut out = Vec::new();
    let mut mounted_at_cert: Vec<&str> = Vec::new();
    let containers: Vec<(&str, &Value)> = ["initContainers", "containers"]
        .iter()
        .flat_map(|k| list(pod.get(*k)).iter().map(move |c| (*k, c)))
        .collect();
    for (_, c) in &containers {
        for m in list(c.get("volumeMounts")) {
            if CERT_PATHS.contains(&s(m, "mountPath").unwrap_or_default()) {
                mounted_at_cert.extend(s(m, "name"));
            }
        }
    }
    let mut push = |kind, name: Option<&str>, field: String, at_cert_path| {
        if let Some(name) = name.filter(|n| !n.is_empty()) {
            out.push(Ref {
                kind,
                name: name.to_string(),
                field,
                at_cert_path,
            });
        }
    };
    for (i, v) in list(pod.get("volumes")).iter().enumerate() {
        let vname = s(v, "name").unwrap_or_default();
        let cert = mounted_at_cert.contains(&vname)
            || ["webhook-cert", "apiservice-cert"].contains(&vname);
        let key = if vname.is_empty() {
            i.to_string()
        } else {
            vname.to_string()
        };
        if let Some(sec) = v.get("secret").filter(|x| !optional(x)) {
            push(
                "Secret",
                s(sec, "secretName"),
                format!("volumes[{key}].secret.secretName"),
                cert,
            );
        }
        if let Some(cm) = v.get("configMap").filter(|x| !optional(x)) {
            push(
                "ConfigMap",
                s(cm, "name"),
                format!("volumes[{key}].configMap.name"),
                cert,
            );
        }
        if let Some(pvc) = v.get("persistentVolumeClaim") {
            push(
                "PersistentVolumeClaim",
                s(pvc, "claimName"),
                format!("volumes[{key}].persistentVolumeClaim.claimName"),
                false,
            );
        }
        for (j, src) in list(value_at(v, "projected.sources")).iter().enumerate() {
            if let Some(sec) = src.get("secret").filter(|x| !optional(x)) {
                push(
                    "Secret",
                    s(sec, "name"),
                    format!("volumes[{key}].projected.sources[{j}].secret.name"),
                    cert,
                );
            }
            if let Some(cm) = src.get("configMap").filter(|x| !optional(x)) {
                push(
                    "ConfigMap",
                    s(cm, "name"),
                    format!("volumes[{key}].projected.sources[{j}].configMap.name"),
                    cert,
                );
            }
        }
    }
    for (list_key, c) in &containers {
        let cname = s(c, "name").unwrap_or_default();
        for (j, e) in list(c.get("envFrom")).iter().enumerate() {
            if let Some(r) = e.get("secretRef").filter(|x| !optional(x)) {
                push(
                    "Secret",
                    s(r, "name"),
                    format!("{list_key}[{cname}].envFrom[{j}].secretRef.name"),
                    false,
                );
            }
            if let Some(r) = e.get("configMapRef").filter(|x| !optional(x)) {
                push(
                    "ConfigMap",
                    s(r, "name"),
                    format!("{list_key}[{cname}].envFrom[{j}].configMapRef.name"),
                    false,
                );
            }
        }
        for e in list(c.get("env")) {
            let ename = s(e, "name").unwrap_or_default();
            if let Some(r) = value_at(e, "valueFrom.secretKeyRef").filter(|x| !optional(x)) {
                push(
                    "Secret",
                    s(r, "name"),
                    format!("{list_key}[{cname}].env[{ename}].valueFrom.secretKeyRef.name"),
                    false,
                );
            }
            if let Some(r) = value_at(e, "valueFrom.configMapKeyRef").filter(|x| !optional(x)) {
                push(
                    "ConfigMap",
                    s(r, "name"),
                    format!("{list_key}[{cname}].env[{ename}].valueFrom.configMapKeyRef.name"),
                    false,
                );
            }
        }
    }
    for (i, p) in list(pod.get("imagePullSecrets")).iter().enumerate() {
        push(
            "Secret",
            s(p, "name"),
            format!("imagePullSecrets[{i}].name"),
            false,
        );
    }
    out
}
