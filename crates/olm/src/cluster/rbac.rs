//! ServiceAccounts, Roles, ClusterRoles and their bindings from the CSV's install strategy, as
//! operator-controller's `registryv1/generators` makes them (after OLM v0): one ServiceAccount
//! per account the permissions name (never `default`); per target namespace a Role and
//! RoleBinding per `permissions` entry; a ClusterRole and ClusterRoleBinding per
//! `clusterPermissions` entry. Installed for all namespaces, the `permissions` become cluster
//! permissions with `get`, `list`, `watch` on namespaces added, as OLM v0's global
//! OperatorGroup does (`pkg/controller/operators/olm/operatorgroup.go`).

use serde_json::json;
use serde_yaml_ng::Value;

use super::bundle::RegistryV1;
use super::model::{Rendering, to_value};
use super::names::{permission_role, scalar, strings};

const PERMISSIONS: &str = "spec.install.spec.permissions";
const CLUSTER_PERMISSIONS: &str = "spec.install.spec.clusterPermissions";

/// The account a permission names (`default` when it names none).
pub(crate) fn account(permission: &Value) -> String {
    permission
        .get("serviceAccountName")
        .and_then(scalar)
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "default".into())
}

/// One ServiceAccount per account named, except `default`.
pub(crate) fn service_accounts(b: &RegistryV1, r: &Rendering) -> Vec<Value> {
    let mut names: Vec<String> = b
        .csv_list(PERMISSIONS)
        .iter()
        .chain(b.csv_list(CLUSTER_PERMISSIONS))
        .map(account)
        .filter(|n| n != "default")
        .collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .map(|name| {
            to_value(json!({
                "apiVersion": "v1",
                "kind": "ServiceAccount",
                "metadata": {"name": name, "namespace": r.install_namespace},
            }))
        })
        .collect()
}

/// Roles and RoleBindings in each target namespace (none when installed for all namespaces).
pub(crate) fn roles(b: &RegistryV1, r: &Rendering) -> Vec<Value> {
    if r.all_namespaces() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for ns in &r.target_namespaces {
        for p in b.csv_list(PERMISSIONS) {
            let sa = account(p);
            let name = permission_role(b.csv_name(), &sa, p);
            out.push(to_value(json!({
                "apiVersion": "rbac.authorization.k8s.io/v1",
                "kind": "Role",
                "metadata": {"name": name, "namespace": ns},
                "rules": rules(p),
            })));
            out.push(to_value(json!({
                "apiVersion": "rbac.authorization.k8s.io/v1",
                "kind": "RoleBinding",
                "metadata": {"name": name, "namespace": ns},
                "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": name},
                "subjects": [{"kind": "ServiceAccount", "name": sa, "namespace": r.install_namespace}],
            })));
        }
    }
    out
}

/// ClusterRoles and ClusterRoleBindings (with the lifted `permissions` for all namespaces).
pub(crate) fn cluster_roles(b: &RegistryV1, r: &Rendering) -> Vec<Value> {
    let mut permissions: Vec<Value> = b.csv_list(CLUSTER_PERMISSIONS).to_vec();
    if r.all_namespaces() {
        for p in b.csv_list(PERMISSIONS) {
            let mut p = p.clone();
            let namespaces = to_value(json!({
                "verbs": ["get", "list", "watch"],
                "apiGroups": [""],
                "resources": ["namespaces"],
            }));
            match p.get_mut("rules").and_then(Value::as_sequence_mut) {
                Some(rules) => rules.push(namespaces),
                None => {
                    if let Some(m) = p.as_mapping_mut() {
                        m.insert("rules".into(), Value::Sequence(vec![namespaces]));
                    }
                }
            }
            permissions.push(p);
        }
    }
    let mut out = Vec::new();
    for p in &permissions {
        let sa = account(p);
        let name = permission_role(b.csv_name(), &sa, p);
        out.push(to_value(json!({
            "apiVersion": "rbac.authorization.k8s.io/v1",
            "kind": "ClusterRole",
            "metadata": {"name": name},
            "rules": rules(p),
        })));
        out.push(to_value(json!({
            "apiVersion": "rbac.authorization.k8s.io/v1",
            "kind": "ClusterRoleBinding",
            "metadata": {"name": name},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": name},
            "subjects": [{"kind": "ServiceAccount", "name": sa, "namespace": r.install_namespace}],
        })));
    }
    out
}

/// A permission's rules as rbac/v1 `PolicyRule`s: empty lists left out, `verbs` always there.
fn rules(permission: &Value) -> serde_json::Value {
    let Some(list) = permission.get("rules").and_then(Value::as_sequence) else {
        return serde_json::Value::Null;
    };
    list.iter()
        .map(|rule| {
            let mut m = serde_json::Map::new();
            for key in ["apiGroups", "nonResourceURLs", "resourceNames", "resources"] {
                if let Some(v) = strings(rule.get(key)).filter(|v| !v.is_empty()) {
                    m.insert(key.into(), json!(v));
                }
            }
            m.insert("verbs".into(), json!(strings(rule.get("verbs"))));
            serde_json::Value::Object(m)
        })
        .collect()
}
