//! Permissions from RBAC files: a service account's rules built from (Cluster)Roles.
//!
//! A CSV cannot reference existing roles, so KubeVirt put into its CSV the operator's own
//! ClusterRole rules followed by the rules of every component (Cluster)Role the operator
//! creates (Kubernetes RBAC forbids granting a permission one does not hold: "Privilege
//! escalation prevention" in the RBAC docs). This module does
//! that from the YAML files themselves: the named role's rules first, then the rules of the
//! other roles listed (or all of them), in file order.
//!
//! Deduplication never changes what is allowed: inside a rule, repeated list items are dropped
//! (order kept); a rule is dropped only when an earlier rule allows exactly the same thing (the
//! same sets of API groups, resources, resource names, verbs and non-resource URLs). Rules are
//! never merged or widened.

use std::collections::{BTreeMap, BTreeSet};

use serde_yaml_ng::{Mapping, Value};

use super::CsvError;

/// One YAML document and the file it came from.
#[derive(Debug, Clone)]
pub struct Doc {
    /// The file it was read from (an RBAC or Deployment file), as the pipeline names it.
    pub file: String,
    /// The parsed document: any object of the file (a Role, a ClusterRole, a Deployment, …).
    pub value: Value,
}

impl Doc {
    /// Every non-empty YAML document of `text`, the file named `file` in messages and in each
    /// document; the parser's message, prefixed with `file`, when it is not YAML.
    pub fn parse_all(file: &str, text: &str) -> Result<Vec<Doc>, String> {
        use serde::Deserialize;
        let mut out = Vec::new();
        for doc in serde_yaml_ng::Deserializer::from_str(text) {
            let value = Value::deserialize(doc).map_err(|e| format!("{file}: {e}"))?;
            if !value.is_null() {
                out.push(Doc {
                    file: file.to_string(),
                    value,
                });
            }
        }
        Ok(out)
    }
}

/// Where rules come from, as the pipeline file says.
#[derive(Debug, Clone)]
pub(crate) struct RuleSource<'a> {
    /// The operator's own role.
    pub(crate) role: &'a str,
    /// `ClusterRole` for clusterPermissions, `Role` for permissions: preferred when a Role and a
    /// ClusterRole share the role's name.
    pub(crate) kind: &'a str,
    /// Other roles to append; `["*"]` means every other role in the files.
    pub(crate) include: &'a [String],
}

/// The rules of `source` from `docs`, deduplicated.
pub(crate) fn rules(source: &RuleSource<'_>, docs: &[Doc]) -> Result<Vec<Value>, CsvError> {
    let roles: Vec<(usize, &Doc)> = docs
        .iter()
        .enumerate()
        .filter(|(_, d)| matches!(kind(d), Some("Role" | "ClusterRole")))
        .collect();
    let files = || {
        let mut f: Vec<&str> = docs.iter().map(|d| d.file.as_str()).collect();
        f.dedup();
        f.join(", ")
    };
    let own = roles
        .iter()
        .filter(|(_, d)| name(d) == Some(source.role))
        .min_by_key(|(_, d)| kind(d) != Some(source.kind))
        .map(|(i, _)| *i)
        .ok_or_else(|| CsvError::NoRole {
            role: source.role.into(),
            files: files(),
        })?;
    let all = source.include.iter().any(|n| n == "*");
    for wanted in source.include.iter().filter(|n| *n != "*") {
        if !roles.iter().any(|(_, d)| name(d) == Some(wanted.as_str())) {
            return Err(CsvError::NoIncludedRole {
                role: wanted.clone(),
                files: files(),
            });
        }
    }
    let mut concatenated = role_rules(&docs[own])?;
    for (i, d) in &roles {
        let included = all || source.include.iter().any(|n| Some(n.as_str()) == name(d));
        if *i != own && included {
            concatenated.extend(role_rules(d)?);
        }
    }
    Ok(dedup(concatenated))
}

fn kind(d: &Doc) -> Option<&str> {
    d.value.get("kind").and_then(Value::as_str)
}

fn name(d: &Doc) -> Option<&str> {
    d.value
        .get("metadata")
        .and_then(|m| m.get("name"))
        .and_then(Value::as_str)
}

fn role_rules(d: &Doc) -> Result<Vec<Value>, CsvError> {
    match d.value.get("rules") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Sequence(s)) => Ok(s.clone()),
        Some(_) => Err(CsvError::Rules {
            file: d.file.clone(),
            kind: kind(d).unwrap_or("role").into(),
            name: name(d).unwrap_or("?").into(),
        }),
    }
}

/// What a rule allows, independent of order and repetition.
pub(crate) fn canonical(rule: &Value) -> BTreeMap<String, BTreeSet<String>> {
    let mut out = BTreeMap::new();
    if let Some(m) = rule.as_mapping() {
        for (k, v) in m {
            let key = k.as_str().unwrap_or_default().to_string();
            let items = match v {
                Value::Sequence(s) => s.iter().map(scalar_text).collect(),
                other => BTreeSet::from([scalar_text(other)]),
            };
            out.insert(key, items);
        }
    }
    out
}

fn scalar_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => serde_yaml_ng::to_string(other)
            .unwrap_or_default()
            .trim_end()
            .to_string(),
    }
}

/// Drops repeated items inside each rule, then rules equal to an earlier one.
pub(crate) fn dedup(rules: Vec<Value>) -> Vec<Value> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for rule in rules {
        let rule = dedup_items(rule);
        if seen.insert(canonical(&rule)) {
            out.push(rule);
        }
    }
    out
}

fn dedup_items(rule: Value) -> Value {
    let Value::Mapping(m) = rule else {
        return rule;
    };
    let mut out = Mapping::new();
    for (k, v) in m {
        let v = match v {
            Value::Sequence(items) => {
                let mut kept: Vec<Value> = Vec::new();
                for item in items {
                    if !kept.contains(&item) {
                        kept.push(item);
                    }
                }
                Value::Sequence(kept)
            }
            other => other,
        };
        out.insert(k, v);
    }
    Value::Mapping(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn docs(yaml: &str) -> Vec<Doc> {
        serde_yaml_ng::Deserializer::from_str(yaml)
            .map(|d| Doc {
                file: "rbac.yaml".into(),
                value: serde::Deserialize::deserialize(d).unwrap(),
            })
            .collect()
    }

    const RBAC: &str = "
kind: ClusterRole
metadata: {name: other}
rules:
- {apiGroups: [''], resources: [pods], verbs: [get]}
- {apiGroups: [apps], resources: [deployments], verbs: [list, get]}
---
kind: ClusterRole
metadata: {name: op}
rules:
- {apiGroups: [apps], resources: [deployments], verbs: [get, list, get]}
---
kind: Role
metadata: {name: ns-role}
rules:
- {apiGroups: [''], resources: [secrets], verbs: [get]}
---
kind: ClusterRoleBinding
metadata: {name: op}
";

    #[test]
    fn own_rules_first_then_others_without_duplicates() {
        let d = docs(RBAC);
        let all = ["*".to_string()];
        let src = RuleSource {
            role: "op",
            kind: "ClusterRole",
            include: &all,
        };
        let r = rules(&src, &d).unwrap();
        let text = serde_yaml_ng::to_string(&r).unwrap();
        assert_eq!(r.len(), 3, "{text}");
        assert_eq!(
            r[0]["verbs"],
            serde_yaml_ng::from_str::<Value>("[get, list]").unwrap()
        );
        assert_eq!(r[1]["resources"][0], Value::from("pods"));
        assert_eq!(r[2]["resources"][0], Value::from("secrets"));
    }

    #[test]
    fn include_by_name_and_missing_roles() {
        let d = docs(RBAC);
        let some = ["ns-role".to_string()];
        let src = RuleSource {
            role: "op",
            kind: "ClusterRole",
            include: &some,
        };
        assert_eq!(rules(&src, &d).unwrap().len(), 2);
        let missing = ["nope".to_string()];
        let e = rules(
            &RuleSource {
                include: &missing,
                ..src.clone()
            },
            &d,
        )
        .unwrap_err();
        let e = e.to_string();
        assert!(e.contains("'nope'") && e.contains("rbac.yaml"), "{e}");
        let e = rules(&RuleSource { role: "x", ..src }, &d).unwrap_err();
        assert!(e.to_string().contains("role 'x'"), "{e}");
    }

    #[test]
    fn every_non_empty_document_is_parsed_and_bad_yaml_names_the_file() {
        let docs = Doc::parse_all("a.yaml", "kind: A\n---\n---\nkind: B\n").unwrap();
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[1].file, "a.yaml");
        assert_eq!(docs[1].value.get("kind").and_then(Value::as_str), Some("B"));
        let err = Doc::parse_all("b.yaml", "kind: [\n").unwrap_err();
        assert!(err.starts_with("b.yaml: "), "{err}");
    }
}
