//! Admission and conversion webhooks as the CSV's `webhookdefinitions`, as operator-sdk's
//! `applyWebhooks` writes them (`clusterserviceversion_updaters.go`): every webhook of a
//! Validating or Mutating WebhookConfiguration becomes a definition of its type with its name
//! as `generateName`, its rules, policies, selector, timeout and review versions (`v1beta1`
//! when it names none; side effects `None` when unset); the Service its client config names
//! gives the port (`containerPort`, `targetPort`: the Service port the reference names, 443 by
//! default) and, through its selector matched against the Deployments' pod labels, the
//! `deploymentName` (else the Service's name without `-service`). CRDs whose conversion
//! strategy calls a webhook on a Service become one `ConversionWebhook` definition per
//! Service, port and path, listing them as `conversionCRDs` and named `c` + the first word of
//! each CRD name + `.kb.io`. Definitions are sorted by `generateName`.

use std::collections::BTreeMap;

use serde_yaml_ng::{Mapping, Value};

use super::collect::Collected;
use super::paths::{at, seq, str_at};

/// The definitions of every webhook the build holds.
pub(super) fn definitions(c: &Collected) -> Vec<Value> {
    let mut out = Vec::new();
    for (kind, list) in [
        ("ValidatingAdmissionWebhook", &c.validating),
        ("MutatingAdmissionWebhook", &c.mutating),
    ] {
        for w in list {
            out.push(admission(c, kind, w));
        }
    }
    for svc in &c.services {
        out.extend(conversion(c, svc));
    }
    out.sort_by(|a, b| {
        str_at(a, &["generateName"])
            .unwrap_or("")
            .cmp(str_at(b, &["generateName"]).unwrap_or(""))
    });
    out
}

fn admission(c: &Collected, kind: &str, w: &Value) -> Value {
    let mut d = Mapping::new();
    d.insert("type".into(), kind.into());
    d.insert(
        "generateName".into(),
        str_at(w, &["name"]).unwrap_or("").into(),
    );
    for &key in olm_release_olm::cluster::webhook_fields(kind == "MutatingAdmissionWebhook") {
        if let Some(v) = w.get(key).filter(|v| !v.is_null()) {
            d.insert(key.into(), v.clone());
        }
    }
    if seq(w, &["admissionReviewVersions"]).is_empty() {
        d.insert(
            "admissionReviewVersions".into(),
            Value::Sequence(vec!["v1beta1".into()]),
        );
    }
    if !d.contains_key("sideEffects") {
        d.insert("sideEffects".into(), "None".into());
    }
    if let Some(service_ref) = at(w, &["clientConfig", "service"]) {
        let svc_name = str_at(service_ref, &["name"]).unwrap_or("");
        let svc = c
            .services
            .iter()
            .find(|s| str_at(s, &["metadata", "name"]) == Some(svc_name));
        port(&mut d, svc, service_ref.get("port"));
        let selected = svc.filter(|s| {
            str_at(s, &["spec", "type"]) != Some("ExternalName")
                && at(s, &["spec", "selector"])
                    .and_then(Value::as_mapping)
                    .is_some_and(|m| !m.is_empty())
        });
        let dep = selected.and_then(|s| deployment_of(c, s));
        let dep = dep.unwrap_or_else(|| svc_name.trim_end_matches("-service").to_string());
        if !dep.is_empty() {
            d.insert("deploymentName".into(), dep.into());
        }
        if let Some(path) = service_ref.get("path").filter(|p| !p.is_null()) {
            d.insert("webhookPath".into(), path.clone());
        }
    }
    Value::Mapping(d)
}

/// `containerPort` and `targetPort` from the port of `svc` the reference names (443 when it
/// names none).
fn port(d: &mut Mapping, svc: Option<&Value>, wanted: Option<&Value>) {
    let wanted = wanted.and_then(Value::as_i64).unwrap_or(443);
    let Some(p) = svc.and_then(|s| {
        seq(s, &["spec", "ports"])
            .iter()
            .find(|p| at(p, &["port"]).and_then(Value::as_i64) == Some(wanted))
    }) else {
        return;
    };
    d.insert("containerPort".into(), wanted.into());
    if let Some(t) = p.get("targetPort") {
        d.insert("targetPort".into(), t.clone());
    }
}

/// The first Deployment whose pod labels hold every label of the Service's selector.
fn deployment_of(c: &Collected, svc: &Value) -> Option<String> {
    let selector = at(svc, &["spec", "selector"])?.as_mapping()?;
    c.deployments.iter().find_map(|d| {
        let labels = at(d, &["spec", "template", "metadata", "labels"])?.as_mapping()?;
        (!labels.is_empty() && selector.iter().all(|(k, v)| labels.get(k) == Some(v)))
            .then(|| str_at(d, &["metadata", "name"]).unwrap_or("").to_string())
    })
}

/// The Service port a conversion webhook names (443 when `None`) and its path: CRDs that share
/// them share one definition.
type PortAndPath = (Option<i64>, String);

/// The conversion webhooks served by `svc`: one definition per port and path.
fn conversion(c: &Collected, svc: &Value) -> Vec<Value> {
    let Some(svc_name) = str_at(svc, &["metadata", "name"]).filter(|n| !n.is_empty()) else {
        return Vec::new();
    };
    let mut groups: BTreeMap<PortAndPath, Vec<(String, Option<Value>)>> = BTreeMap::new();
    for crd in &c.crds {
        let conv = at(crd, &["spec", "conversion"]);
        // apiextensions.k8s.io/v1: conversion.webhook.{clientConfig, conversionReviewVersions};
        // v1beta1: conversion.{webhookClientConfig, conversionReviewVersions}.
        let (service, versions) = match conv.and_then(|c| c.get("webhook")) {
            Some(w) => (
                at(w, &["clientConfig", "service"]),
                w.get("conversionReviewVersions"),
            ),
            None => (
                conv.and_then(|c| at(c, &["webhookClientConfig", "service"])),
                conv.and_then(|c| c.get("conversionReviewVersions")),
            ),
        };
        let Some(service) = service.filter(|s| str_at(s, &["name"]) == Some(svc_name)) else {
            continue;
        };
        let key = (
            service.get("port").and_then(Value::as_i64),
            str_at(service, &["path"]).unwrap_or("").to_string(),
        );
        groups.entry(key).or_default().push((
            str_at(crd, &["metadata", "name"]).unwrap_or("").to_string(),
            versions.cloned(),
        ));
    }
    let dep = deployment_of(c, svc).unwrap_or_default();
    groups
        .into_iter()
        .map(|((port_ref, path), mut crds)| {
            crds.sort_by(|a, b| a.0.cmp(&b.0));
            let mut d = Mapping::new();
            d.insert("type".into(), "ConversionWebhook".into());
            let names: Vec<Value> = crds.iter().map(|(n, _)| n.as_str().into()).collect();
            d.insert("conversionCRDs".into(), Value::Sequence(names));
            d.insert(
                "admissionReviewVersions".into(),
                crds[0].1.clone().unwrap_or(Value::Null),
            );
            d.insert("webhookPath".into(), path.into());
            let dep = if dep.is_empty() {
                svc_name.trim_end_matches("-service").to_string()
            } else {
                dep.clone()
            };
            d.insert("deploymentName".into(), dep.into());
            let stems: String = crds
                .iter()
                .filter(|(n, _)| !n.is_empty())
                .map(|(n, _)| n.split('.').next().unwrap_or(""))
                .collect();
            d.insert("generateName".into(), format!("c{stems}.kb.io").into());
            d.insert("sideEffects".into(), "None".into());
            port(&mut d, Some(svc), port_ref.map(Value::from).as_ref());
            Value::Mapping(d)
        })
        .collect()
}
