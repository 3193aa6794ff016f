//! Each Deployment of a CSV's install strategy, read as the Kubernetes API server reads the
//! apps/v1 Deployment OLM creates from it (`ValidateDeploymentSpec` and `ValidatePodTemplateSpec`
//! in Kubernetes' `pkg/apis/apps/validation` and `pkg/apis/core/validation`): a selector that is
//! present, not empty and matches the template's labels; at least one container; every
//! container and init container with a DNS-1123 name of its own and an image. Then the account
//! it runs as: OLM creates only the service accounts the CSV's `permissions` and
//! `clusterPermissions` name, so a Deployment naming another one gets no pods (the API server's
//! ServiceAccount admission refuses them), and one naming none runs as the namespace's
//! `default` account, without the permissions its CSV grants to others.
//!
//! None of courier, the registry's loaders or operator-framework/api decodes these fields, so a
//! CSV whose Deployment came from a kustomize patch (no selector, a container without an image)
//! passed them all and failed only on a cluster. Shapes the type checks report (a spec that is
//! not a mapping, containers that are not a list) are skipped here.

use std::collections::BTreeSet;

use serde_yaml_ng::{Mapping, Value};

use super::rules;
use super::sink::{At, Sink};
use super::text::{image_reference_problem, is_dns1123_subdomain};
use crate::{Manifest, value_at};

/// Checks every Deployment of `csv`'s install strategy, adding the findings to `sink`.
pub(crate) fn check(csv: &Manifest, sink: &mut Sink) {
    let Some(ds) = value_at(&csv.doc, "spec.install.spec.deployments").and_then(Value::as_sequence)
    else {
        return;
    };
    let at = At::of(csv);
    let granted = granted(csv);
    for (i, d) in ds.iter().enumerate() {
        let Some(spec) = d.get("spec").and_then(Value::as_mapping) else {
            continue; // install-entries reports it
        };
        let base = match d.get("name").and_then(Value::as_str) {
            Some(n) if !n.is_empty() => format!("spec.install.spec.deployments[{n}]"),
            _ => format!("spec.install.spec.deployments[{i}]"),
        };
        let template = spec.get("template").and_then(Value::as_mapping);
        let labels = template
            .and_then(|t| value_at_map(t, &["metadata", "labels"]))
            .and_then(Value::as_mapping);
        selector(spec.get("selector"), labels, &base, &at, sink);
        let pod = template
            .and_then(|t| t.get("spec"))
            .and_then(Value::as_mapping);
        containers(pod, &base, &at, sink);
        account(pod, &granted, &base, &at, sink);
    }
}

/// The service accounts `permissions` and `clusterPermissions` name: the ones OLM creates.
fn granted(csv: &Manifest) -> BTreeSet<&str> {
    ["permissions", "clusterPermissions"]
        .iter()
        .filter_map(|k| value_at(&csv.doc, &format!("spec.install.spec.{k}")))
        .filter_map(Value::as_sequence)
        .flatten()
        .filter_map(|p| p.get("serviceAccountName").and_then(Value::as_str))
        .filter(|s| !s.is_empty())
        .collect()
}

fn value_at_map<'a>(m: &'a Mapping, path: &[&str]) -> Option<&'a Value> {
    let (first, rest) = path.split_first()?;
    rest.iter().try_fold(m.get(*first)?, |v, k| v.get(*k))
}

/// A label value as the API server reads it (labels are strings; a YAML scalar of another
/// type is shown as written).
fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        _ => String::new(),
    }
}

fn show(labels: Option<&Mapping>) -> String {
    let shown: Vec<String> = labels
        .into_iter()
        .flatten()
        .map(|(k, v)| format!("{}: {}", text(k), text(v)))
        .collect();
    if shown.is_empty() {
        "none".into()
    } else {
        format!("{{{}}}", shown.join(", "))
    }
}

fn selector(sel: Option<&Value>, labels: Option<&Mapping>, base: &str, at: &At, sink: &mut Sink) {
    let field = format!("{base}.spec.selector");
    let suggest = |labels: Option<&Mapping>| {
        match labels.filter(|l| !l.is_empty()) {
        Some(l) => format!("set spec.selector.matchLabels to the template's labels {}", show(Some(l))),
        None => "give the template labels (spec.template.metadata.labels) and select them in spec.selector.matchLabels".to_string(),
    }
    };
    let sel = match sel {
        None | Some(Value::Null) => {
            let msg = "is missing (spec.selector: Required value): the API server refuses an apps/v1 Deployment without a selector, so OLM cannot install the operator";
            return sink.add_fix(
                &rules::DEPLOYMENT_SELECTOR,
                at,
                &field,
                msg,
                suggest(labels),
            );
        }
        Some(Value::Mapping(m)) => m,
        Some(_) => return, // a type error
    };
    let match_labels = sel.get("matchLabels").and_then(Value::as_mapping);
    let exprs = sel.get("matchExpressions").and_then(Value::as_sequence);
    if match_labels.is_none_or(Mapping::is_empty) && exprs.is_none_or(Vec::is_empty) {
        let msg = "is empty (empty selector is invalid for deployment): it would select every pod of the namespace, so the API server refuses it";
        return sink.add_fix(
            &rules::DEPLOYMENT_SELECTOR,
            at,
            &field,
            msg,
            suggest(labels),
        );
    }
    let label = |k: &str| labels.and_then(|l| l.get(k)).map(text);
    let mut unmatched = Vec::new();
    for (k, v) in match_labels.into_iter().flatten() {
        let (k, v) = (text(k), text(v));
        if label(&k).as_deref() != Some(v.as_str()) {
            unmatched.push(format!("{k}: {v}"));
        }
    }
    for (j, e) in exprs.into_iter().flatten().enumerate() {
        let key = e.get("key").and_then(Value::as_str).unwrap_or("");
        let op = e.get("operator").and_then(Value::as_str).unwrap_or("");
        let values: Vec<String> = e
            .get("values")
            .and_then(Value::as_sequence)
            .map(|vs| vs.iter().map(text).collect())
            .unwrap_or_default();
        let has = label(key);
        let ok = match op {
            "In" => has.is_some_and(|v| values.contains(&v)),
            "NotIn" => has.is_none_or(|v| !values.contains(&v)),
            "Exists" => has.is_some(),
            "DoesNotExist" => has.is_none(),
            _ => {
                let f = format!("{field}.matchExpressions[{j}].operator");
                let msg = format!(
                    "'{op}' is not a valid selector operator (In, NotIn, Exists, DoesNotExist)"
                );
                sink.add(&rules::DEPLOYMENT_SELECTOR, at, &f, msg);
                continue;
            }
        };
        if !ok {
            unmatched.push(format!("{key} {op} [{}]", values.join(", ")));
        }
    }
    if !unmatched.is_empty() {
        let msg = format!(
            "does not match the template's labels ({}; `selector` does not match template `labels`): the API server refuses the Deployment; the template's labels are {}",
            unmatched.join(", "),
            show(labels)
        );
        sink.add_fix(
            &rules::DEPLOYMENT_SELECTOR,
            at,
            &field,
            msg,
            suggest(labels),
        );
    }
}

fn containers(pod: Option<&Mapping>, base: &str, at: &At, sink: &mut Sink) {
    let list = |key: &str| match pod.and_then(|p| p.get(key)) {
        Some(Value::Sequence(cs)) => Some(cs.as_slice()),
        None | Some(Value::Null) => Some(&[][..]),
        Some(_) => None, // a type error
    };
    let (Some(main), Some(init)) = (list("containers"), list("initContainers")) else {
        return;
    };
    if main.is_empty() {
        let field = format!("{base}.spec.template.spec.containers");
        let msg = "is missing or empty (Required value): the API server refuses a Deployment whose pods run no container";
        sink.add(&rules::DEPLOYMENT_CONTAINERS, at, &field, msg);
    }
    let mut seen = BTreeSet::new();
    for (key, cs) in [("containers", main), ("initContainers", init)] {
        for (j, c) in cs.iter().enumerate() {
            let name = c.get("name").and_then(Value::as_str).unwrap_or("");
            let path = if name.is_empty() {
                format!("{base}.spec.template.spec.{key}[{j}]")
            } else {
                format!("{base}.spec.template.spec.{key}[{name}]")
            };
            if name.is_empty() {
                let msg = "is missing (Required value): every container needs a name";
                sink.add(
                    &rules::DEPLOYMENT_CONTAINERS,
                    at,
                    &format!("{path}.name"),
                    msg,
                );
            } else if name.len() > 63 || name.contains('.') || !is_dns1123_subdomain(name) {
                let msg = format!(
                    "'{name}' is not a DNS-1123 label (lowercase letters, digits and '-', at most 63 characters)"
                );
                sink.add(
                    &rules::DEPLOYMENT_CONTAINERS,
                    at,
                    &format!("{path}.name"),
                    msg,
                );
            } else if !seen.insert(name) {
                let msg = format!("'{name}' is used by two containers (Duplicate value)");
                sink.add(
                    &rules::DEPLOYMENT_CONTAINERS,
                    at,
                    &format!("{path}.name"),
                    msg,
                );
            }
            let image = c.get("image").and_then(Value::as_str);
            if let Some(why) = image
                .filter(|i| !i.trim().is_empty())
                .and_then(image_reference_problem)
            {
                let msg = format!(
                    "{:?} is not an image reference: {why}; the kubelet refuses to pull it (InvalidImageName), so the pod never starts",
                    image.unwrap_or_default()
                );
                sink.add(&rules::DEPLOYMENT_IMAGE, at, &format!("{path}.image"), msg);
            }
            if image.is_none_or(|i| i.trim().is_empty()) {
                let msg = "is missing (Required value): the API server refuses the Deployment, so OLM cannot install the operator";
                let fix = "set the container's image; in a pipeline, render.csv.images sets it by container name";
                sink.add_fix(
                    &rules::DEPLOYMENT_CONTAINERS,
                    at,
                    &format!("{path}.image"),
                    msg,
                    fix,
                );
            }
        }
    }
}

fn account(pod: Option<&Mapping>, granted: &BTreeSet<&str>, base: &str, at: &At, sink: &mut Sink) {
    let field = format!("{base}.spec.template.spec.serviceAccountName");
    // The API server copies the deprecated serviceAccount into serviceAccountName.
    let named = ["serviceAccountName", "serviceAccount"]
        .iter()
        .find_map(|k| pod.and_then(|p| p.get(*k)).and_then(Value::as_str))
        .filter(|s| !s.is_empty());
    let runs_as = named.unwrap_or("default");
    if granted.contains(runs_as) {
        return;
    }
    let listed = || granted.iter().copied().collect::<Vec<_>>().join(", ");
    if runs_as != "default" {
        let msg = format!(
            "names service account {runs_as}, which no permissions or clusterPermissions entry names{}: OLM creates only those accounts, so the Deployment's pods are refused (serviceaccount \"{runs_as}\" not found)",
            if granted.is_empty() {
                String::new()
            } else {
                format!(" (they name {})", listed())
            }
        );
        let fix = format!(
            "add a permissions or clusterPermissions entry for {runs_as} with the rules the operator needs, or run the Deployment as an account the CSV names"
        );
        sink.add_fix(&rules::DEPLOYMENT_SERVICE_ACCOUNT, at, &field, msg, fix);
    } else if !granted.is_empty() {
        let how = if named.is_some() {
            "is default"
        } else {
            "is missing"
        };
        let msg = format!(
            "{how}: the pods run as the namespace's default account, which the CSV grants nothing; its permissions go to {}",
            listed()
        );
        let fix = format!(
            "set serviceAccountName to the account the operator's permissions name ({})",
            listed()
        );
        sink.add_fix(&rules::DEPLOYMENT_PERMISSIONS, at, &field, msg, fix);
    }
}
