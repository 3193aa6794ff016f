//! The documents of a kustomize build sorted by kind, as operator-sdk's collector does
//! (`internal/generate/collector/manifests.go`): CSVs, RBAC, service accounts, Services,
//! Deployments, CRDs, the webhooks of every (Validating|Mutating)WebhookConfiguration, the
//! scorecard configuration, and the rest ("others"); custom resources are the others whose
//! group, version and kind a CRD serves (`filter.go`), and byte-identical RBAC, Deployments,
//! CRDs and webhooks are taken once (`deduplicate`).

use serde_yaml_ng::Value;

use super::paths::{seq, str_at};

/// The documents by kind.
#[derive(Debug, Default, Clone)]
pub(crate) struct Collected {
    pub csvs: Vec<Value>,
    pub roles: Vec<Value>,
    pub cluster_roles: Vec<Value>,
    pub role_bindings: Vec<Value>,
    pub cluster_role_bindings: Vec<Value>,
    pub service_accounts: Vec<Value>,
    pub services: Vec<Value>,
    pub deployments: Vec<Value>,
    pub crds: Vec<Value>,
    pub validating: Vec<Value>,
    pub mutating: Vec<Value>,
    pub custom_resources: Vec<Value>,
    pub scorecard: Option<Value>,
    pub others: Vec<Value>,
}

/// Sorts `docs` by kind.
pub(crate) fn collect(docs: &[Value]) -> Collected {
    let mut c = Collected::default();
    for d in docs {
        let group = str_at(d, &["apiVersion"])
            .and_then(|a| a.rsplit_once('/'))
            .map_or("", |(g, _)| g);
        let push = |list: &mut Vec<Value>| {
            if !list.contains(d) {
                list.push(d.clone());
            }
        };
        match (group, str_at(d, &["kind"]).unwrap_or("")) {
            ("operators.coreos.com", "ClusterServiceVersion") => c.csvs.push(d.clone()),
            ("rbac.authorization.k8s.io", "Role") => push(&mut c.roles),
            ("rbac.authorization.k8s.io", "ClusterRole") => push(&mut c.cluster_roles),
            ("rbac.authorization.k8s.io", "RoleBinding") => c.role_bindings.push(d.clone()),
            ("rbac.authorization.k8s.io", "ClusterRoleBinding") => {
                c.cluster_role_bindings.push(d.clone())
            }
            ("", "ServiceAccount") => c.service_accounts.push(d.clone()),
            ("", "Service") => c.services.push(d.clone()),
            ("apps", "Deployment") => push(&mut c.deployments),
            ("apiextensions.k8s.io", "CustomResourceDefinition") => push(&mut c.crds),
            ("admissionregistration.k8s.io", "ValidatingWebhookConfiguration") => {
                for w in seq(d, &["webhooks"]) {
                    if !c.validating.contains(w) {
                        c.validating.push(w.clone());
                    }
                }
            }
            ("admissionregistration.k8s.io", "MutatingWebhookConfiguration") => {
                for w in seq(d, &["webhooks"]) {
                    if !c.mutating.contains(w) {
                        c.mutating.push(w.clone());
                    }
                }
            }
            ("scorecard.operatorframework.io", "Configuration") => c.scorecard = Some(d.clone()),
            _ => c.others.push(d.clone()),
        }
    }
    let served = served_kinds(&c.crds);
    for o in &c.others {
        let key = (
            str_at(o, &["apiVersion"]).unwrap_or("").to_string(),
            str_at(o, &["kind"]).unwrap_or("").to_string(),
        );
        if served.contains(&key) && !c.custom_resources.contains(o) {
            c.custom_resources.push(o.clone());
        }
    }
    c
}

/// (apiVersion, kind) of every version every CRD defines.
fn served_kinds(crds: &[Value]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for crd in crds {
        let group = str_at(crd, &["spec", "group"]).unwrap_or("");
        let kind = str_at(crd, &["spec", "names", "kind"]).unwrap_or("");
        let mut versions: Vec<&str> = seq(crd, &["spec", "versions"])
            .iter()
            .filter_map(|v| str_at(v, &["name"]))
            .collect();
        // apiextensions.k8s.io/v1beta1 CRDs may name one `spec.version`.
        versions.extend(str_at(crd, &["spec", "version"]));
        for v in versions {
            out.push((format!("{group}/{v}"), kind.to_string()));
        }
    }
    out
}
