//! The objects a bundle carries besides its CSV and CRDs, as operator-framework/api checks
//! them: no ServiceAccount the CSV's deployments already get from OLM, PodDisruptionBudgets
//! that still allow disruption, no global-default PriorityClass, no Role that may modify
//! OpenShift's default SecurityContextConstraints; and, as warnings, API versions Kubernetes
//! deprecated or removed, and (per CSV) containers without resource requests; and two files
//! that hold one object (olm-release's own rules). The objects are
//! those released with the bundle: a folder's, or those a pipeline or `publish` carries
//! ([`super::Unit::of`]).

use std::collections::BTreeMap;

use serde_yaml_ng::Value;

use super::model::Unit;
use super::sink::{At, Sink};
use super::{install, rules};
use crate::bundle_image::names::{ObjectKey, object_key};
use crate::{Manifest, value_at};

/// OpenShift's default SecurityContextConstraints.
const DEFAULT_SCCS: &[&str] = &[
    "privileged",
    "restricted",
    "anyuid",
    "hostaccess",
    "hostmount-anyuid",
    "hostnetwork",
    "node-exporter",
    "nonroot",
];

/// API versions Kubernetes removed, with the release that removed them (kind `*`: every kind
/// of that API version).
const REMOVED: &[(&str, &str, &str)] = &[
    ("apiextensions.k8s.io/v1beta1", "*", "1.22"),
    ("apiregistration.k8s.io/v1beta1", "*", "1.22"),
    ("admissionregistration.k8s.io/v1beta1", "*", "1.22"),
    ("authentication.k8s.io/v1beta1", "*", "1.22"),
    ("authorization.k8s.io/v1beta1", "*", "1.22"),
    ("certificates.k8s.io/v1beta1", "*", "1.22"),
    ("coordination.k8s.io/v1beta1", "*", "1.22"),
    ("extensions/v1beta1", "Ingress", "1.22"),
    ("networking.k8s.io/v1beta1", "*", "1.22"),
    ("rbac.authorization.k8s.io/v1beta1", "*", "1.22"),
    ("scheduling.k8s.io/v1beta1", "*", "1.22"),
    ("storage.k8s.io/v1beta1", "CSIStorageCapacity", "1.27"),
    ("storage.k8s.io/v1beta1", "*", "1.22"),
    ("batch/v1beta1", "*", "1.25"),
    ("discovery.k8s.io/v1beta1", "*", "1.25"),
    ("events.k8s.io/v1beta1", "*", "1.25"),
    ("autoscaling/v2beta1", "*", "1.25"),
    ("policy/v1beta1", "*", "1.25"),
    ("node.k8s.io/v1beta1", "*", "1.25"),
    ("flowcontrol.apiserver.k8s.io/v1beta1", "*", "1.26"),
    ("autoscaling/v2beta2", "*", "1.26"),
    ("flowcontrol.apiserver.k8s.io/v1beta2", "*", "1.29"),
];

/// The checks of the unit's objects (and its CRDs' API versions). The whole check runs on a
/// bundle read one CSV at a time too: the CSVs' skeletons keep the service accounts.
pub fn check(unit: &Unit, sink: &mut Sink) {
    deprecated_apis(unit, sink);
    copies(unit.objects, sink);
    let accounts: Vec<&str> = unit
        .csvs
        .iter()
        .flat_map(install::service_accounts)
        .collect();
    for m in unit.objects {
        unchecked(m, sink);
        match m.kind() {
            Some("ServiceAccount") => {
                if let Some(name) = m.name().filter(|n| accounts.contains(n)) {
                    let msg = format!(
                        "invalid service account found in bundle: {name} is also the CSV's service account (sa name cannot match service account defined for deployment spec in CSV)"
                    );
                    sink.add(&rules::SERVICE_ACCOUNT, &At::of(m), "metadata.name", msg);
                }
            }
            Some("PodDisruptionBudget") => pdb(m, sink),
            Some("PriorityClass") if m.doc.get("globalDefault") == Some(&Value::Bool(true)) => {
                let msg = "is true; globalDefault field cannot be set to true (it would change every pod's priority)";
                sink.add(
                    &rules::OBJECT_PRIORITY_CLASS,
                    &At::of(m),
                    "globalDefault",
                    msg,
                );
            }
            Some("Role" | "ClusterRole") => rbac(m, sink),
            _ => {}
        }
    }
}

/// Two files holding one object (`apiVersion`, `kind`, `metadata.name`): equal copies are a
/// warning (the bundle image carries the object once), copies that differ an error.
fn copies(objects: &[Manifest], sink: &mut Sink) {
    let mut first: BTreeMap<ObjectKey, &Manifest> = BTreeMap::new();
    for m in objects {
        let Some(earlier) = first.get(&object_key(m)).copied() else {
            first.insert(object_key(m), m);
            continue;
        };
        let what = m.kind_and_name();
        if m.same_data(earlier) {
            let msg = format!(
                "holds {what} as {} does, equal as data: the bundle image carries it once",
                earlier.file
            );
            sink.add(&rules::OBJECT_COPIES, &At::of(m), "metadata.name", msg);
        } else {
            let msg = format!(
                "holds {what} as {} does, with other data: the cluster would get whichever OLM applies last",
                earlier.file
            );
            sink.add(
                &rules::OBJECT_COPIES_DIFFER,
                &At::of(m),
                "metadata.name",
                msg,
            );
        }
    }
}

/// An object courier's checks skip (it reads the package, CSVs and CRDs only). The registry
/// loader keeps every object of a CSV's folder in the bundle, so nothing is lost.
fn unchecked(m: &Manifest, sink: &mut Sink) {
    if !sink.on(&rules::FILE_UNKNOWN) {
        return;
    }
    let known = format!(
        "is a {}, which courier does not check (it reads the package, CSVs and CRDs only)",
        m.kind().unwrap_or("Kubernetes object")
    );
    let fix = "nothing to do if the catalog's OLM installs this kind with the bundle; otherwise drop the file";
    sink.add_fix(&rules::FILE_UNKNOWN, &At::of(m), "kind", known, fix);
}

fn pdb(m: &Manifest, sink: &mut Sink) {
    let at = At::of(m);
    let zero = |v: &Value| v.as_i64() == Some(0) || v.as_str() == Some("0%");
    if let Some(v) = value_at(&m.doc, "spec.maxUnavailable").filter(|v| zero(v)) {
        let msg = format!(
            "is {}; maxUnavailable field cannot be set to 0 or 0%",
            show(v)
        );
        sink.add(&rules::OBJECT_PDB, &at, "spec.maxUnavailable", msg);
    }
    if let Some(v) = value_at(&m.doc, "spec.minAvailable").filter(|v| v.as_str() == Some("100%")) {
        let msg = format!("is {}; minAvailable field cannot be set to 100%", show(v));
        sink.add(&rules::OBJECT_PDB, &at, "spec.minAvailable", msg);
    }
}

fn show(v: &Value) -> String {
    super::present::scalar_text(v).unwrap_or_else(|| "set".into())
}

fn rbac(m: &Manifest, sink: &mut Sink) {
    let at = At::of(m);
    let Some(rules_list) = m.doc.get("rules").and_then(Value::as_sequence) else {
        return;
    };
    let strings = |r: &Value, k: &str| -> Vec<String> {
        r.get(k)
            .and_then(Value::as_sequence)
            .map(|l| {
                l.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    };
    for (i, r) in rules_list.iter().enumerate() {
        let (groups, resources, verbs, names) = (
            strings(r, "apiGroups"),
            strings(r, "resources"),
            strings(r, "verbs"),
            strings(r, "resourceNames"),
        );
        let any = |list: &[String], of: &[&str]| list.iter().any(|x| of.contains(&x.as_str()));
        let field = format!("rules[{i}]");
        if any(&groups, &["policy"])
            && any(&resources, &["poddisruptionbudgets"])
            && any(&verbs, &["*", "create", "update", "patch"])
        {
            let msg = "RBAC includes permission to create/update poddisruptionbudgets, which could impact cluster stability";
            sink.add(&rules::OBJECT_RBAC_PDB, &at, &field, msg);
        }
        if any(&groups, &["security.openshift.io"])
            && any(&resources, &["securitycontextconstraints"])
            && any(&verbs, &["*", "delete", "update", "patch"])
            && any(&names, DEFAULT_SCCS)
        {
            let msg = "RBAC includes permission to modify default securitycontextconstraints, which could impact cluster stability";
            sink.add(&rules::OBJECT_RBAC, &at, &field, msg);
        }
    }
}

/// Deprecated API versions among the unit's CRDs and objects.
fn deprecated_apis(unit: &Unit, sink: &mut Sink) {
    if sink.on(&rules::DEPRECATED_API) {
        for m in unit.crds.iter().chain(unit.objects) {
            deprecated(m, sink);
        }
    }
}

fn deprecated(m: &Manifest, sink: &mut Sink) {
    let (Some(api), Some(kind)) = (m.str_at("apiVersion"), m.kind()) else {
        return;
    };
    if let Some((_, _, release)) = REMOVED
        .iter()
        .find(|(a, k, _)| *a == api && (*k == "*" || *k == kind))
    {
        let msg = format!(
            "{kind} {api} is deprecated and removed in Kubernetes v{release}; migrate the manifest before clusters reach it"
        );
        sink.add(&rules::DEPRECATED_API, &At::of(m), "apiVersion", msg);
    }
}

/// Containers of the CSV's deployments without resource requests (a check of one CSV alone,
/// run with the others of [`super::check_csv`]).
pub(super) fn requests(csv: &Manifest, sink: &mut Sink) {
    if !sink.on(&rules::RESOURCE_REQUESTS) {
        return;
    }
    let at = At::of(csv);
    let Some(ds) = value_at(&csv.doc, "spec.install.spec.deployments").and_then(Value::as_sequence)
    else {
        return;
    };
    for (i, d) in ds.iter().enumerate() {
        let Some(cs) = value_at(d, "spec.template.spec.containers").and_then(Value::as_sequence)
        else {
            continue;
        };
        for (j, c) in cs.iter().enumerate() {
            let has = value_at(c, "resources.requests")
                .and_then(Value::as_mapping)
                .is_some_and(|r| !r.is_empty());
            if !has {
                let name = c.get("name").and_then(Value::as_str).unwrap_or("?");
                let field = format!(
                    "spec.install.spec.deployments[{i}].spec.template.spec.containers[{j}].resources.requests"
                );
                let msg = format!("is missing: no resource requests for container {name}");
                sink.add(&rules::RESOURCE_REQUESTS, &at, &field, msg);
            }
        }
    }
}
