//! The manifests written beside the CSV, as operator-sdk chooses them
//! (`internal/cmd/operator-sdk/generate/internal/manifests.go`, `GetManifestObjects`): every
//! CRD, every Service, every other object of a kind operator-registry supports in a bundle
//! (so cert-manager's Certificate and Issuer, a Namespace and the sample custom resources are
//! left out: OLM provides the webhook certificate), and the RBAC that is not the CSV's
//! permissions; each without `metadata.namespace`, named as operator-sdk names its files
//! (`genutil.go`: `GROUP_PLURAL.yaml` for a CRD, `NAME_[GROUP_]VERSION_KIND.yaml` otherwise).

use std::collections::BTreeSet;

use olm_release_olm::bundle_image::folder::SUPPORTED_KINDS;
use serde_yaml_ng::Value;

use super::collect::Collected;
use super::paths::{seq, str_at};
use super::rbac;

/// The objects with their file names, and notes on what was left out.
pub(super) fn objects(c: &Collected) -> (Vec<(String, Value)>, Vec<String>) {
    let mut all: Vec<Value> = c.crds.iter().chain(&c.services).cloned().collect();
    let mut left_out: Vec<String> = Vec::new();
    for o in &c.others {
        let kind = str_at(o, &["kind"]).unwrap_or("");
        if SUPPORTED_KINDS.contains(&kind) {
            all.push(o.clone());
        } else if !c.custom_resources.contains(o) {
            left_out.push(format!("{kind} {}", rbac::name(o).unwrap_or("")));
        }
    }
    all.extend(rbac::split(c).out);
    let mut out: Vec<(String, Value)> = Vec::new();
    for mut o in all {
        if let Some(m) = o.get_mut("metadata").and_then(Value::as_mapping_mut) {
            m.remove("namespace");
        }
        let name = file_name(&o);
        if !out.iter().any(|(n, _)| *n == name) {
            out.push((name, o));
        }
    }
    let mut notes = Vec::new();
    if !left_out.is_empty() {
        notes.push(format!(
            "not in the bundle, as operator-sdk generate bundle leaves out kinds a bundle cannot hold: {}",
            olm_release_base::words::some(&left_out, 4)
        ));
    }
    (out, notes)
}

/// operator-sdk's file name for `o`.
pub(super) fn file_name(o: &Value) -> String {
    let api = str_at(o, &["apiVersion"]).unwrap_or("");
    let (group, version) = api.rsplit_once('/').unwrap_or(("", api));
    let kind = str_at(o, &["kind"]).unwrap_or("");
    if kind == "CustomResourceDefinition" {
        let g = str_at(o, &["spec", "group"]).unwrap_or("");
        let plural = str_at(o, &["spec", "names", "plural"]).unwrap_or("");
        return format!("{g}_{plural}.yaml");
    }
    let name = rbac::name(o).unwrap_or("");
    let kind = kind.to_ascii_lowercase();
    match group {
        "" => format!("{name}_{version}_{kind}.yaml"),
        g => format!("{name}_{g}_{version}_{kind}.yaml"),
    }
}

/// Where the webhooks become the CSV's, OLM creates and mounts their serving certificate
/// (at `/tmp/k8s-webhook-server/serving-certs`, where controller-runtime reads it): a
/// Deployment volume of the Secret a cert-manager Certificate of the build would have filled,
/// which the bundle does not ship, is removed with its mounts, as the `[WEBHOOK]` patch of an
/// operator-sdk project's `config/manifests/kustomization.yaml` does. Returns notes.
pub(super) fn drop_certificate_volumes(c: &Collected, csv: &mut Value) -> Vec<String> {
    let secrets: BTreeSet<&str> = c
        .others
        .iter()
        .filter(|o| {
            str_at(o, &["kind"]) == Some("Certificate")
                && str_at(o, &["apiVersion"]).is_some_and(|a| a.starts_with("cert-manager.io/"))
        })
        .filter_map(|o| str_at(o, &["spec", "secretName"]))
        .filter(|s| {
            !c.others
                .iter()
                .any(|o| str_at(o, &["kind"]) == Some("Secret") && rbac::name(o) == Some(*s))
        })
        .collect();
    let mut notes = Vec::new();
    let Some(deployments) = csv
        .get_mut("spec")
        .and_then(|s| s.get_mut("install"))
        .and_then(|i| i.get_mut("spec"))
        .and_then(|s| s.get_mut("deployments"))
        .and_then(Value::as_sequence_mut)
    else {
        return notes;
    };
    for d in deployments {
        let dep = str_at(d, &["name"]).unwrap_or("").to_string();
        let Some(pod) = d
            .get_mut("spec")
            .and_then(|s| s.get_mut("template"))
            .and_then(|t| t.get_mut("spec"))
        else {
            continue;
        };
        let dropped: Vec<String> = seq(pod, &["volumes"])
            .iter()
            .filter(|v| str_at(v, &["secret", "secretName"]).is_some_and(|s| secrets.contains(s)))
            .filter_map(|v| str_at(v, &["name"]).map(str::to_string))
            .collect();
        if dropped.is_empty() {
            continue;
        }
        if let Some(vols) = pod.get_mut("volumes").and_then(Value::as_sequence_mut) {
            vols.retain(|v| !str_at(v, &["name"]).is_some_and(|n| dropped.iter().any(|d| d == n)));
        }
        for key in ["containers", "initContainers"] {
            for ctr in pod
                .get_mut(key)
                .and_then(Value::as_sequence_mut)
                .into_iter()
                .flatten()
            {
                if let Some(mounts) = ctr.get_mut("volumeMounts").and_then(Value::as_sequence_mut) {
                    mounts.retain(|m| {
                        !str_at(m, &["name"]).is_some_and(|n| dropped.iter().any(|d| d == n))
                    });
                }
            }
        }
        notes.push(format!(
            "Deployment {dep}: volume {} (cert-manager's webhook certificate) removed: OLM mounts the certificate of the CSV's webhookdefinitions",
            dropped.join(", ")
        ));
    }
    notes
}
