//! Which RBAC objects become the CSV's permissions and which stay objects of the bundle, as
//! operator-sdk splits them (`internal/generate/collector/clusterserviceversion.go`,
//! `SplitCSVPermissionsObjects`): a (Cluster)Role bound to a service account of the CSV's
//! deployments goes into the CSV; every other role, every binding with a subject left that is
//! not such a service account, and every service account the deployments do not run as stay
//! objects.

use std::collections::BTreeSet;

use serde_yaml_ng::Value;

use super::collect::Collected;
use super::paths::{seq, str_at};

/// The service account Kubernetes runs a pod as when it names none.
pub(super) const DEFAULT_SA: &str = "default";

/// The split.
pub(super) struct Split {
    /// Roles and ClusterRoles a RoleBinding binds to a CSV service account (`permissions`).
    pub in_namespace: Vec<Value>,
    /// ClusterRoles a ClusterRoleBinding binds to one (`clusterPermissions`).
    pub in_cluster: Vec<Value>,
    /// Everything else: objects of the bundle.
    pub out: Vec<Value>,
}

/// The service accounts of the CSV's deployments.
pub(super) fn csv_accounts(c: &Collected) -> BTreeSet<String> {
    c.deployments
        .iter()
        .map(|d| {
            str_at(d, &["spec", "template", "spec", "serviceAccountName"])
                .filter(|s| !s.is_empty())
                .unwrap_or(DEFAULT_SA)
                .to_string()
        })
        .collect()
}

pub(super) fn split(c: &Collected) -> Split {
    let sas = csv_accounts(c);
    let role_names: BTreeSet<&str> = c.roles.iter().filter_map(name).collect();
    let cluster_names: BTreeSet<&str> = c.cluster_roles.iter().filter_map(name).collect();
    let mut role_bindings: Vec<(usize, Vec<Value>)> = c
        .role_bindings
        .iter()
        .map(|b| seq(b, &["subjects"]).to_vec())
        .enumerate()
        .collect();
    let mut cluster_bindings: Vec<(usize, Vec<Value>)> = c
        .cluster_role_bindings
        .iter()
        .map(|b| seq(b, &["subjects"]).to_vec())
        .enumerate()
        .collect();
    let in_roles = bound(
        &mut role_bindings,
        &c.role_bindings,
        "Role",
        &role_names,
        &sas,
    );
    let in_cluster_ns = bound(
        &mut role_bindings,
        &c.role_bindings,
        "ClusterRole",
        &cluster_names,
        &sas,
    );
    let in_cluster_cs = bound(
        &mut cluster_bindings,
        &c.cluster_role_bindings,
        "ClusterRole",
        &cluster_names,
        &sas,
    );
    let find = |list: &[Value], n: &str| list.iter().find(|r| name(r) == Some(n)).cloned();
    let mut split = Split {
        in_namespace: Vec::new(),
        in_cluster: Vec::new(),
        out: Vec::new(),
    };
    split
        .in_namespace
        .extend(in_roles.iter().filter_map(|n| find(&c.roles, n)));
    split.in_namespace.extend(
        in_cluster_ns
            .iter()
            .filter_map(|n| find(&c.cluster_roles, n)),
    );
    split.in_cluster.extend(
        in_cluster_cs
            .iter()
            .filter_map(|n| find(&c.cluster_roles, n)),
    );
    let taken = |r: &&Value, names: &[&String]| !names.iter().any(|n| name(r) == Some(n));
    let cluster_taken: Vec<&String> = in_cluster_ns.iter().chain(&in_cluster_cs).collect();
    let roles_taken: Vec<&String> = in_roles.iter().collect();
    split
        .out
        .extend(c.roles.iter().filter(|r| taken(r, &roles_taken)).cloned());
    split.out.extend(
        c.cluster_roles
            .iter()
            .filter(|r| taken(r, &cluster_taken))
            .cloned(),
    );
    split.out.extend(
        role_bindings
            .iter()
            .map(|(i, _)| c.role_bindings[*i].clone()),
    );
    split.out.extend(
        cluster_bindings
            .iter()
            .map(|(i, _)| c.cluster_role_bindings[*i].clone()),
    );
    split.out.extend(
        c.service_accounts
            .iter()
            .filter(|sa| !name(sa).is_some_and(|n| sas.contains(n)))
            .cloned(),
    );
    split
}

/// The names of the roles of `kind` that `bindings` bind to one of `sas`; those subjects are
/// taken out of the partial bindings, and a binding left without subjects is dropped from them.
fn bound(
    partial: &mut Vec<(usize, Vec<Value>)>,
    bindings: &[Value],
    kind: &str,
    names: &BTreeSet<&str>,
    sas: &BTreeSet<String>,
) -> Vec<String> {
    let mut out = Vec::new();
    partial.retain_mut(|(i, subjects)| {
        let b = &bindings[*i];
        let role = str_at(b, &["roleRef", "name"]).unwrap_or("");
        let group = str_at(b, &["roleRef", "apiGroup"]).unwrap_or("");
        if !names.contains(role)
            || str_at(b, &["roleRef", "kind"]) != Some(kind)
            || !(group.is_empty() || group == "rbac.authorization.k8s.io")
        {
            return true;
        }
        let before = subjects.len();
        subjects.retain(|s| {
            !(str_at(s, &["kind"]) == Some("ServiceAccount")
                && str_at(s, &["name"]).is_some_and(|n| sas.contains(n)))
        });
        if subjects.len() < before {
            out.push(role.to_string());
        }
        !subjects.is_empty()
    });
    out
}

pub(super) fn name(v: &Value) -> Option<&str> {
    str_at(v, &["metadata", "name"])
}
