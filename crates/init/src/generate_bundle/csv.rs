//! The CSV as operator-sdk completes its base (`clusterserviceversion.go` and
//! `clusterserviceversion_updaters.go` of `internal/generate/clusterserviceversion/`): the base
//! named after the operator, its install strategy `deployment` when it names none, the
//! permissions and cluster permissions of each service account the deployments run as (the
//! rules of every role bound to it), the deployments, `WATCH_NAMESPACE` read from
//! `olm.targetNamespaces`, the owned CRDs (one per served version, the base's descriptions and
//! descriptors kept), and `alm-examples` from the custom resources built beside them.
//! `createdAt` is not set: a release adds it only when its pipeline asks.

use std::collections::BTreeMap;

use serde_yaml_ng::{Mapping, Value};

use super::collect::Collected;
use super::paths::{at, entry, seq, set, str_at};
use super::rbac;

/// What the generation is asked: the operator's name (the CSV base whose name starts with
/// `NAME.` is taken; default: the first CSV's name before `.v`) and the version (default: the
/// base's).
#[derive(Debug, Clone, Default)]
pub(crate) struct Ask<'a> {
    pub operator: Option<&'a str>,
    pub version: Option<&'a str>,
}

/// The CSV base and the operator's name: the CSV whose name starts with `OPERATOR.`, else the
/// first; a new one when the build holds none.
pub(super) fn base(c: &Collected, ask: &Ask) -> (String, Value) {
    let stem = |csv: &Value| {
        let n = rbac::name(csv).unwrap_or("");
        n.split_once(".v").map_or(n, |(s, _)| s).to_string()
    };
    let chosen = match ask.operator {
        Some(op) => c
            .csvs
            .iter()
            .find(|csv| rbac::name(csv).is_some_and(|n| n.starts_with(&format!("{op}."))))
            .map(|csv| (op.to_string(), csv.clone())),
        None => c.csvs.first().map(|csv| (stem(csv), csv.clone())),
    };
    let (operator, mut csv) = chosen.unwrap_or_else(|| {
        let op = ask
            .operator
            .map(str::to_string)
            .or_else(|| c.deployments.first().and_then(rbac::name).map(str::to_string))
            .unwrap_or_else(|| "operator".into());
        let text = format!(
            "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: {op}.v0.0.0\n  namespace: placeholder\nspec:\n  version: 0.0.0\n"
        );
        let csv = serde_yaml_ng::from_str(&text).unwrap_or_default();
        (op, csv)
    });
    if let Some(v) = ask.version {
        set(
            entry(&mut csv, "metadata"),
            "name",
            format!("{operator}.v{v}").into(),
        );
        set(entry(&mut csv, "spec"), "version", v.into());
    }
    (operator, csv)
}

/// Completes `csv` from what the build holds.
pub(super) fn apply(c: &Collected, csv: &mut Value) {
    let install = entry(entry(csv, "spec"), "install");
    if str_at(install, &["strategy"]).is_none_or(str::is_empty) {
        set(install, "strategy", "deployment".into());
    }
    if str_at(install, &["strategy"]) == Some("deployment") {
        let split = rbac::split(c);
        let strategy = entry(install, "spec");
        let bindings: Vec<&Value> = c.role_bindings.iter().collect();
        let cluster_bindings: Vec<&Value> = c.cluster_role_bindings.iter().collect();
        let permissions = permissions_of(c, &split.in_namespace, &bindings, true);
        let cluster = permissions_of(c, &split.in_cluster, &cluster_bindings, false);
        put_or_remove(strategy, "permissions", permissions);
        put_or_remove(strategy, "clusterPermissions", cluster);
        let deployments = c.deployments.iter().map(deployment).collect();
        set(strategy, "deployments", Value::Sequence(deployments));
    }
    owned_crds(c, csv);
    let examples: Vec<serde_json::Value> = c
        .custom_resources
        .iter()
        .filter_map(|cr| serde_json::to_value(cr).ok())
        .collect();
    let json = serde_json::to_string_pretty(&examples).unwrap_or_else(|_| "[]".into());
    set(
        entry(entry(csv, "metadata"), "annotations"),
        "alm-examples",
        json.into(),
    );
}

fn put_or_remove(v: &mut Value, key: &str, list: Vec<Value>) {
    match v.as_mapping_mut() {
        Some(m) if list.is_empty() => {
            m.remove(key);
        }
        Some(m) => {
            m.insert(key.into(), Value::Sequence(list));
        }
        None => {}
    }
}

/// One entry per service account of the deployments whose bound roles give it rules, sorted
/// by service account. `by_kind`: a RoleBinding's `roleRef.kind` chooses between the Roles and
/// the ClusterRoles of `roles`; a ClusterRoleBinding reads ClusterRoles alone.
fn permissions_of(
    c: &Collected,
    roles: &[Value],
    bindings: &[&Value],
    by_kind: bool,
) -> Vec<Value> {
    let mut rules: BTreeMap<String, Vec<Value>> = rbac::csv_accounts(c)
        .into_iter()
        .map(|sa| (sa, Vec::new()))
        .collect();
    for b in bindings {
        let ref_name = str_at(b, &["roleRef", "name"]).unwrap_or("");
        let ref_kind = str_at(b, &["roleRef", "kind"]).unwrap_or("");
        if by_kind && ref_kind != "Role" && ref_kind != "ClusterRole" {
            continue;
        }
        let wanted_kind = if by_kind { ref_kind } else { "ClusterRole" };
        let Some(role) = roles
            .iter()
            .find(|r| rbac::name(r) == Some(ref_name) && str_at(r, &["kind"]) == Some(wanted_kind))
        else {
            continue;
        };
        for s in seq(b, &["subjects"]) {
            if str_at(s, &["kind"]) != Some("ServiceAccount") {
                continue;
            }
            if let Some(list) = str_at(s, &["name"]).and_then(|n| rules.get_mut(n)) {
                list.extend(seq(role, &["rules"]).iter().cloned());
            }
        }
    }
    rules
        .into_iter()
        .filter(|(_, r)| !r.is_empty())
        .map(|(sa, r)| {
            let mut m = Mapping::new();
            m.insert("rules".into(), Value::Sequence(r));
            m.insert("serviceAccountName".into(), sa.into());
            Value::Mapping(m)
        })
        .collect()
}

/// A Deployment as an install strategy entry: its name, labels and spec, `WATCH_NAMESPACE` set
/// from the operator group's target namespaces.
fn deployment(d: &Value) -> Value {
    let mut m = Mapping::new();
    m.insert("name".into(), rbac::name(d).unwrap_or("").into());
    if let Some(labels) =
        at(d, &["metadata", "labels"]).filter(|l| l.as_mapping().is_some_and(|m| !m.is_empty()))
    {
        m.insert("label".into(), labels.clone());
    }
    let mut spec = at(d, &["spec"]).cloned().unwrap_or_default();
    watch_namespace(&mut spec);
    m.insert("spec".into(), spec);
    Value::Mapping(m)
}

fn watch_namespace(spec: &mut Value) {
    let Some(containers) = spec
        .get_mut("template")
        .and_then(|t| t.get_mut("spec"))
        .and_then(|s| s.get_mut("containers"))
        .and_then(Value::as_sequence_mut)
    else {
        return;
    };
    for c in containers {
        let Some(env) = c.get_mut("env").and_then(Value::as_sequence_mut) else {
            continue;
        };
        for e in env.iter_mut() {
            if str_at(e, &["name"]) == Some("WATCH_NAMESPACE") {
                *e = serde_yaml_ng::from_str(
                    "name: WATCH_NAMESPACE\nvalueFrom:\n  fieldRef:\n    fieldPath: metadata.annotations['olm.targetNamespaces']\n",
                )
                .unwrap_or_default();
            }
        }
    }
}

/// `customresourcedefinitions.owned`: one entry per served version of each CRD, in the CRDs'
/// order; the base's entry for the same name, version and kind kept whole (descriptions,
/// descriptors), a bare one otherwise. `required` is the user's and stays.
fn owned_crds(c: &Collected, csv: &mut Value) {
    let crds = entry(entry(csv, "spec"), "customresourcedefinitions");
    let old: Vec<Value> = seq(crds, &["owned"]).to_vec();
    let mut owned = Vec::new();
    for crd in &c.crds {
        let name = rbac::name(crd).unwrap_or("");
        let kind = str_at(crd, &["spec", "names", "kind"]).unwrap_or("");
        let versions: Vec<&str> = if seq(crd, &["spec", "versions"]).is_empty() {
            str_at(crd, &["spec", "version"]).into_iter().collect()
        } else {
            seq(crd, &["spec", "versions"])
                .iter()
                .filter(|v| at(v, &["served"]).and_then(Value::as_bool) != Some(false))
                .filter_map(|v| str_at(v, &["name"]))
                .collect()
        };
        for version in versions {
            let same = |o: &&Value| {
                str_at(o, &["name"]) == Some(name)
                    && str_at(o, &["version"]) == Some(version)
                    && str_at(o, &["kind"]) == Some(kind)
            };
            owned.push(old.iter().find(same).cloned().unwrap_or_else(|| {
                let mut m = Mapping::new();
                m.insert("kind".into(), kind.into());
                m.insert("name".into(), name.into());
                m.insert("version".into(), version.into());
                Value::Mapping(m)
            }));
        }
    }
    set(crds, "owned", Value::Sequence(owned));
}
