//! Structural CSV assembly: the parts of a ClusterServiceVersion that come from other files
//! (permissions from RBAC roles, deployments from Deployment manifests, the icon from an image)
//! and from the release (name, version, creation time, operator image), built as YAML values and
//! set into the parsed CSV at their place.
//!
//! KubeVirt pasted these parts into the template as pre-indented text; here they stay structured
//! from the files they come from to the CSV, so indentation can never break them. The same
//! [`Parts`] also feed template variables ([`Parts::vars`]) for templates that still have
//! placeholders like `{{.OperatorRules}}`; [`apply`] then sets them again structurally, so the
//! CSV holds the built parts whichever way the template was written.
//!
//! [`assemble`] is the one entry point. File access is the caller's ([`PartFiles`]), and so is
//! template rendering, so this module stays pure.

mod assemble;
mod error;
pub mod icon;
mod images;
pub mod rbac;
pub mod spec;

use std::collections::BTreeMap;

use serde_yaml_ng::{Mapping, Value};

pub use assemble::{Assembled, PartFiles, RenderedCsv, Request, assemble};
pub use error::CsvError;
pub use icon::Icon;
pub use rbac::Doc;

use spec::{CsvSpec, PermissionSpec};

/// A service account and its rules.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Permission {
    pub(crate) service_account: String,
    pub(crate) rules: Vec<Value>,
}

/// A deployment of the install strategy.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Deployment {
    pub(crate) name: String,
    pub(crate) spec: Value,
}

/// Everything assembled for the CSV.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Parts {
    pub(crate) name: Option<String>,
    pub(crate) version: String,
    pub(crate) created_at: String,
    /// Whether `created_at` overwrites a `createdAt` the CSV already has.
    pub(crate) created_at_policy: spec::CreatedAtPolicy,
    /// `spec.skips` (set when not empty).
    pub(crate) skips: Vec<String>,
    /// The `olm.skipRange` annotation (set when given).
    pub(crate) skip_range: Option<String>,
    /// Container images by container name, set in every deployment of the CSV.
    pub(crate) images: BTreeMap<String, String>,
    pub(crate) icon: Option<Icon>,
    pub(crate) cluster_permissions: Vec<Permission>,
    pub(crate) permissions: Vec<Permission>,
    pub(crate) deployments: Vec<Deployment>,
}

/// Reads a YAML file into its documents; `Ok(None)` when the file does not exist.
pub(crate) type LoadDocs<'a> = dyn FnMut(&str) -> Result<Option<Vec<Doc>>, CsvError> + 'a;
/// Reads a file's bytes.
pub(crate) type LoadBytes<'a> = dyn FnMut(&str) -> Result<Vec<u8>, CsvError> + 'a;

impl Parts {
    /// Builds the parts `spec` asks for.
    pub(crate) fn build(
        spec: &CsvSpec,
        version: &str,
        created_at: &str,
        docs: &mut LoadDocs<'_>,
        bytes: &mut LoadBytes<'_>,
    ) -> Result<Parts, CsvError> {
        let mut parts = Parts {
            name: spec.name.as_ref().map(|n| n.replace("{version}", version)),
            version: version.to_string(),
            created_at: created_at.to_string(),
            created_at_policy: spec.created_at,
            images: spec.images.clone(),
            ..Parts::default()
        };
        if let Some(file) = &spec.icon {
            parts.icon = Some(Icon::from_bytes(file, &bytes(file)?)?);
        }
        for (list, out, kind) in [
            (
                &spec.cluster_permissions,
                &mut parts.cluster_permissions,
                "ClusterRole",
            ),
            (&spec.permissions, &mut parts.permissions, "Role"),
        ] {
            for p in list {
                out.push(permission(p, kind, docs)?);
            }
        }
        for d in &spec.deployments {
            let Some(found) = docs(&d.file)? else {
                if d.optional {
                    continue;
                }
                return Err(CsvError::NoDeploymentFile {
                    file: d.file.clone(),
                });
            };
            parts
                .deployments
                .push(deployment(&d.file, d.name.as_deref(), &found)?);
        }
        Ok(parts)
    }

    /// The parts as one YAML mapping, the tree that `render.csv.vars` paths read.
    pub(crate) fn to_yaml(&self) -> Value {
        let mut m = Mapping::new();
        if let Some(name) = &self.name {
            m.insert("name".into(), name.clone().into());
        }
        m.insert("version".into(), self.version.clone().into());
        m.insert("createdAt".into(), self.created_at.clone().into());
        if let Some(icon) = &self.icon {
            m.insert("icon".into(), icon.to_yaml());
        }
        m.insert(
            "clusterPermissions".into(),
            permissions_yaml(&self.cluster_permissions),
        );
        m.insert("permissions".into(), permissions_yaml(&self.permissions));
        let deployments = self.deployments.iter().map(deployment_yaml).collect();
        m.insert("deployments".into(), Value::Sequence(deployments));
        Value::Mapping(m)
    }

    /// The template variables `vars` maps to parts. A path that names no part (e.g. a
    /// deployment whose optional file is absent) defines no variable, so a template that uses
    /// it fails with an undefined-variable error naming its line.
    pub(crate) fn vars(&self, vars: &BTreeMap<String, String>) -> BTreeMap<String, Value> {
        let tree = self.to_yaml();
        vars.iter()
            .filter_map(|(name, path)| lookup(&tree, path).map(|v| (name.clone(), v.clone())))
            .collect()
    }
}

fn permission(
    p: &PermissionSpec,
    kind: &str,
    docs: &mut LoadDocs<'_>,
) -> Result<Permission, CsvError> {
    let mut all = Vec::new();
    for file in &p.rbac {
        all.extend(docs(file)?.ok_or_else(|| CsvError::NoRbacFile { file: file.clone() })?);
    }
    let source = rbac::RuleSource {
        role: &p.role,
        kind,
        include: &p.include,
    };
    let rules = rbac::rules(&source, &all).map_err(|e| CsvError::Permissions {
        account: p.service_account.clone(),
        source: Box::new(e),
    })?;
    Ok(Permission {
        service_account: p.service_account.clone(),
        rules,
    })
}

fn deployment(file: &str, name: Option<&str>, docs: &[Doc]) -> Result<Deployment, CsvError> {
    let found: Vec<&Doc> = docs
        .iter()
        .filter(|d| d.value.get("kind").and_then(Value::as_str) == Some("Deployment"))
        .filter(|d| name.is_none() || doc_name(d) == name)
        .collect();
    let [doc] = found.as_slice() else {
        return Err(match name {
            Some(n) => CsvError::DeploymentNamed {
                file: file.into(),
                name: n.into(),
                found: found.len(),
            },
            None => CsvError::Deployments {
                file: file.into(),
                found: found.len(),
            },
        });
    };
    let spec = doc
        .value
        .get("spec")
        .cloned()
        .ok_or_else(|| CsvError::DeploymentField {
            file: file.into(),
            field: "spec",
        })?;
    Ok(Deployment {
        name: doc_name(doc)
            .ok_or_else(|| CsvError::DeploymentField {
                file: file.into(),
                field: "metadata.name",
            })?
            .to_string(),
        spec,
    })
}

fn doc_name(d: &Doc) -> Option<&str> {
    d.value.get("metadata")?.get("name")?.as_str()
}

fn permissions_yaml(list: &[Permission]) -> Value {
    Value::Sequence(
        list.iter()
            .map(|p| {
                let mut m = Mapping::new();
                m.insert("rules".into(), Value::Sequence(p.rules.clone()));
                m.insert(
                    "serviceAccountName".into(),
                    p.service_account.clone().into(),
                );
                Value::Mapping(m)
            })
            .collect(),
    )
}

fn deployment_yaml(d: &Deployment) -> Value {
    let mut m = Mapping::new();
    m.insert("name".into(), d.name.clone().into());
    m.insert("spec".into(), d.spec.clone());
    Value::Mapping(m)
}

/// Reads `a.b[sel].c` from `tree`: `[sel]` picks a list item by index or by its `name` or
/// `serviceAccountName`.
pub(crate) fn lookup<'a>(tree: &'a Value, path: &str) -> Option<&'a Value> {
    let mut cur = tree;
    let mut rest = path;
    while !rest.is_empty() {
        rest = rest.strip_prefix('.').unwrap_or(rest);
        if let Some(after) = rest.strip_prefix('[') {
            let (sel, tail) = after.split_once(']')?;
            let items = cur.as_sequence()?;
            cur = match sel.parse::<usize>() {
                Ok(i) => items.get(i)?,
                Err(_) => items.iter().find(|item| {
                    ["name", "serviceAccountName"]
                        .iter()
                        .any(|k| item.get(*k).and_then(Value::as_str) == Some(sel))
                })?,
            };
            rest = tail;
        } else {
            let end = rest.find(['.', '[']).unwrap_or(rest.len());
            cur = cur.get(&rest[..end])?;
            rest = &rest[end..];
        }
    }
    Some(cur)
}

/// Sets the parts into a parsed CSV, each replacing what the template wrote at that place.
/// An empty or null `spec.replaces` (a template's `replaces: {{.ReplacesCsvVersion}}` before
/// fetch-previous) is removed: fetch-previous sets it structurally.
pub(crate) fn apply(csv: &mut Value, parts: &Parts) -> Result<(), CsvError> {
    if let Some(name) = &parts.name {
        mapping(csv, &["metadata"])?.insert("name".into(), name.clone().into());
    }
    // The CSV's annotations are the project's: `createdAt` only when the pipeline asks for the
    // release time (`render.csv.created_at: set`), never added to a CSV that has none (as
    // `opm render` keeps a bundle's CSV).
    if parts.created_at_policy == spec::CreatedAtPolicy::Set {
        mapping(csv, &["metadata", "annotations"])?
            .insert("createdAt".into(), parts.created_at.clone().into());
    }
    if let Some(range) = &parts.skip_range {
        mapping(csv, &["metadata", "annotations"])?
            .insert("olm.skipRange".into(), range.clone().into());
    }
    let spec = mapping(csv, &["spec"])?;
    if !parts.skips.is_empty() {
        let list = parts.skips.iter().cloned().map(Value::from).collect();
        spec.insert("skips".into(), Value::Sequence(list));
    }
    spec.insert("version".into(), parts.version.clone().into());
    if matches!(spec.get("replaces"), Some(Value::Null))
        || spec.get("replaces").and_then(Value::as_str) == Some("")
    {
        spec.remove("replaces");
    }
    if let Some(icon) = &parts.icon {
        spec.insert("icon".into(), Value::Sequence(vec![icon.to_yaml()]));
    }
    let install = mapping(csv, &["spec", "install", "spec"])?;
    for (key, list) in [
        ("clusterPermissions", &parts.cluster_permissions),
        ("permissions", &parts.permissions),
    ] {
        if !list.is_empty() {
            install.insert(key.into(), permissions_yaml(list));
        }
    }
    if !parts.deployments.is_empty() {
        let slot = install
            .entry("deployments".into())
            .or_insert_with(|| Value::Sequence(Vec::new()));
        // `deployments: null` is what operator-sdk writes into a CSV base: no deployments yet.
        if slot.is_null() {
            *slot = Value::Sequence(Vec::new());
        }
        let list = slot.as_sequence_mut().ok_or(CsvError::DeploymentsNotList)?;
        for d in &parts.deployments {
            match list
                .iter_mut()
                .find(|x| x.get("name").and_then(Value::as_str) == Some(&d.name))
            {
                Some(existing) => {
                    if let Some(m) = existing.as_mapping_mut() {
                        m.insert("spec".into(), d.spec.clone());
                    }
                }
                None => list.push(deployment_yaml(d)),
            }
        }
    }
    images::set(csv, &parts.images);
    if let Some(image) = images::operator_image(csv, &parts.images) {
        mapping(csv, &["metadata", "annotations"])?.insert("containerImage".into(), image.into());
    }
    Ok(())
}

/// The mapping at `path`, created (as empty mappings) where missing.
fn mapping<'a>(v: &'a mut Value, path: &[&str]) -> Result<&'a mut Mapping, CsvError> {
    let mut cur = v;
    for (i, key) in path.iter().enumerate() {
        let m = cur.as_mapping_mut().ok_or_else(|| CsvError::NotMapping {
            path: shown(&path[..i]),
        })?;
        cur = m
            .entry((*key).into())
            .or_insert_with(|| Value::Mapping(Mapping::new()));
        if cur.is_null() {
            *cur = Value::Mapping(Mapping::new());
        }
    }
    cur.as_mapping_mut()
        .ok_or_else(|| CsvError::NotMapping { path: shown(path) })
}

fn shown(path: &[&str]) -> String {
    if path.is_empty() {
        "the CSV".into()
    } else {
        path.join(".")
    }
}

#[cfg(test)]
mod tests;
