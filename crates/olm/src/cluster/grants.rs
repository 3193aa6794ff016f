//! What a rendering grants: every ServiceAccount's permissions, read from the Roles,
//! ClusterRoles and their bindings as the API server's RBAC authorizer reads them
//! (<https://kubernetes.io/docs/reference/access-authn-authz/rbac/>), one [`Grant`] per verb,
//! resource (or non-resource URL) and resource name. OLM v1 names the Roles it generates after
//! the CSV and a hash of their rules, so an upgrade renames every one of them: what a reviewer
//! approves is what each account may do, not which Role says it.

use std::collections::BTreeSet;

use serde::Serialize;
use serde_yaml_ng::Value;

use super::names::strings;
use crate::value_at;

/// One permission of one ServiceAccount.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Grant {
    /// `NAMESPACE/NAME` of the ServiceAccount.
    pub account: String,
    /// `cluster-wide`, or `in NAMESPACE`.
    pub scope: String,
    /// The verb (`*` for all).
    pub verb: String,
    /// `RESOURCE[.GROUP][/NAME]` (`*` wildcards kept), or a non-resource URL.
    pub what: String,
}

impl std::fmt::Display for Grant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "ServiceAccount {} {}: {} {}",
            self.account, self.scope, self.verb, self.what
        )
    }
}

impl Grant {
    /// Whether this grant allows everything `other` does (same account and scope, each part
    /// equal or a `*`).
    pub(crate) fn covers(&self, other: &Grant) -> bool {
        let part = |a: &str, b: &str| a == "*" || a == b;
        let what = |a: &str, b: &str| {
            // RESOURCE[.GROUP][/NAME]: a wildcard resource or group covers any.
            let (ar, an) = a.split_once('/').map_or((a, None), |(r, n)| (r, Some(n)));
            let (br, bn) = b.split_once('/').map_or((b, None), |(r, n)| (r, Some(n)));
            let (ares, agrp) = ar.split_once('.').unwrap_or((ar, ""));
            let (bres, bgrp) = br.split_once('.').unwrap_or((br, ""));
            let names = an.is_none() || an == bn;
            a == b || (part(ares, bres) && (agrp == "*" || agrp == bgrp) && names)
        };
        self.account == other.account
            && (self.scope == other.scope || self.scope == "cluster-wide")
            && part(&self.verb, &other.verb)
            && what(&self.what, &other.what)
    }
}

fn s<'a>(v: &'a Value, path: &str) -> &'a str {
    value_at(v, path)
        .and_then(Value::as_str)
        .unwrap_or_default()
}

/// Every grant of every ServiceAccount the rendering binds.
pub(crate) fn grants(objects: &[Value]) -> BTreeSet<Grant> {
    let mut out = BTreeSet::new();
    for binding in objects {
        let kind = s(binding, "kind");
        if kind != "RoleBinding" && kind != "ClusterRoleBinding" {
            continue;
        }
        let namespace = s(binding, "metadata.namespace");
        let (ref_kind, ref_name) = (s(binding, "roleRef.kind"), s(binding, "roleRef.name"));
        let Some(role) = objects.iter().find(|o| {
            s(o, "kind") == ref_kind
                && s(o, "metadata.name") == ref_name
                && (ref_kind == "ClusterRole" || s(o, "metadata.namespace") == namespace)
        }) else {
            continue;
        };
        let scope = match kind {
            "ClusterRoleBinding" => "cluster-wide".to_string(),
            _ => format!("in {namespace}"),
        };
        let subjects = binding
            .get("subjects")
            .and_then(Value::as_sequence)
            .map(Vec::as_slice)
            .unwrap_or_default();
        for subject in subjects.iter().filter(|x| s(x, "kind") == "ServiceAccount") {
            let ns = match s(subject, "namespace") {
                "" => namespace,
                ns => ns,
            };
            let account = format!("{ns}/{}", s(subject, "name"));
            for rule in role
                .get("rules")
                .and_then(Value::as_sequence)
                .into_iter()
                .flatten()
            {
                for (verb, what) in atoms(rule) {
                    out.insert(Grant {
                        account: account.clone(),
                        scope: scope.clone(),
                        verb,
                        what,
                    });
                }
            }
        }
    }
    out
}

/// A rule's (verb, what) pairs.
fn atoms(rule: &Value) -> Vec<(String, String)> {
    let list = |k: &str| strings(rule.get(k)).unwrap_or_default();
    let verbs = list("verbs");
    let mut whats = Vec::new();
    for group in list("apiGroups") {
        for resource in list("resources") {
            let base = match group.as_str() {
                "" => resource.clone(),
                g => format!("{resource}.{g}"),
            };
            let names = list("resourceNames");
            if names.is_empty() {
                whats.push(base);
            } else {
                whats.extend(names.iter().map(|n| format!("{base}/{n}")));
            }
        }
    }
    whats.extend(list("nonResourceURLs"));
    verbs
        .iter()
        .flat_map(|v| whats.iter().map(move |w| (v.clone(), w.clone())))
        .collect()
}

/// The grants of `new` no grant of `old` covers (widened), and those of `old` no grant of
/// `new` covers (narrowed).
pub(crate) fn compare(old: &BTreeSet<Grant>, new: &BTreeSet<Grant>) -> (Vec<Grant>, Vec<Grant>) {
    let uncovered = |a: &BTreeSet<Grant>, b: &BTreeSet<Grant>| -> Vec<Grant> {
        a.iter()
            .filter(|g| !b.iter().any(|h| h.covers(g)))
            .cloned()
            .collect()
    };
    (uncovered(new, old), uncovered(old, new))
}
