//! The operator's parts, found in the repository's plain manifests: its CRDs (each once, the
//! copies named), its Deployments (complete ones only), the permissions of a templates layout,
//! its example custom resources and its icon.
//!
//! In a templates layout (KubeVirt's), the operator's Deployment is the one named like an
//! operator, or the only one; its service account leads through the (Cluster)RoleBindings to its
//! role, and the RBAC files beside that role feed the CSV's permissions (the role's rules first,
//! then every other role's, which KubeVirt's operator must hold to grant them). Other layouts
//! choose among operators in [`super::operators`] and read permissions per service account in
//! [`super::rbac`].

use serde_yaml_ng::Value;

use super::scan::{Scan, YamlFile, str_at};

/// A CRD, and the file it is taken from.
#[derive(Debug, Clone)]
pub(crate) struct Crd {
    pub file: String,
    pub name: String,
    pub group: String,
    pub version: String,
    pub kind: String,
    /// `spec.names.plural`, the resource RBAC rules name.
    pub plural: String,
    /// Other files holding the same CRD, not taken.
    pub copies: Vec<String>,
}

/// A complete Deployment (a selector, and an image in every container).
#[derive(Debug, Clone)]
pub(crate) struct Deployment {
    pub file: String,
    pub name: String,
    pub service_account: Option<String>,
    /// `metadata.namespace` when written literally.
    pub namespace: Option<String>,
    pub image: Option<String>,
    /// (container name, image) of every container.
    pub containers: Vec<(String, String)>,
}

/// The operator's permissions, as the templates layout reads them (KubeVirt's operator holds
/// every role it creates, so every role beside its own is included).
#[derive(Debug, Clone)]
pub(crate) struct Permissions {
    pub service_account: String,
    pub role: String,
    /// A ClusterRole (`clusterPermissions`) or a Role (`permissions`).
    pub cluster: bool,
    /// The RBAC files beside the role.
    pub files: Vec<String>,
}

/// Every CRD of `files`, each once: of several copies (one CRD name in several files), the one
/// `rank` puts first (then the shallowest, then the shortest path) is taken and the others are
/// listed as its copies. Only files holding nothing but CRDs count: the bundle includes whole files.
pub(crate) fn crds<'a>(
    files: impl Iterator<Item = &'a YamlFile>,
    rank: impl Fn(&str) -> usize,
) -> Vec<Crd> {
    let mut all: Vec<Crd> = Vec::new();
    for f in files.filter(|f| !f.is_template() && f.only_kinds(&["CustomResourceDefinition"])) {
        for d in &f.docs {
            let version = str_at(d, &["spec", "version"])
                .map(str::to_string)
                .or_else(|| {
                    d.get("spec")?
                        .get("versions")?
                        .as_sequence()?
                        .iter()
                        .find_map(|v| {
                            (v.get("storage")? == &Value::Bool(true))
                                .then(|| str_at(v, &["name"]).map(str::to_string))?
                        })
                });
            if let (Some(name), Some(group), Some(kind), Some(plural), Some(version)) = (
                str_at(d, &["metadata", "name"]),
                str_at(d, &["spec", "group"]),
                str_at(d, &["spec", "names", "kind"]),
                str_at(d, &["spec", "names", "plural"]),
                version,
            ) {
                all.push(Crd {
                    file: f.rel.clone(),
                    name: name.into(),
                    group: group.into(),
                    version,
                    kind: kind.into(),
                    plural: plural.into(),
                    copies: Vec::new(),
                });
            }
        }
    }
    all.sort_by_key(|c| {
        (
            rank(&c.file),
            c.file.matches('/').count(),
            c.file.len(),
            c.file.clone(),
        )
    });
    let mut out: Vec<Crd> = Vec::new();
    for c in all {
        match out.iter_mut().find(|o| o.name == c.name) {
            Some(taken) => {
                if taken.file != c.file && !taken.copies.contains(&c.file) {
                    taken.copies.push(c.file);
                }
            }
            None => out.push(c),
        }
    }
    out.sort_by(|a, b| (&a.file, &a.name).cmp(&(&b.file, &b.name)));
    out
}

/// The files of `crds`, each once, in order.
pub(crate) fn crd_files(crds: &[Crd]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in crds {
        if !out.contains(&c.file) {
            out.push(c.file.clone());
        }
    }
    out
}

/// Custom resources of the CRDs' kinds written in plain files (operator-sdk's `*_cr.yaml`).
pub(crate) fn examples(scan: &Scan, crds: &[Crd]) -> Vec<serde_json::Value> {
    let mut out = Vec::new();
    for crd in crds {
        let api = format!("{}/{}", crd.group, crd.version);
        let example = scan
            .yaml
            .iter()
            .filter(|f| !f.is_template())
            .flat_map(|f| f.of_kind(&crd.kind))
            .find(|d| str_at(d, &["apiVersion"]) == Some(api.as_str()));
        if let Some(json) = example.and_then(|d| serde_json::to_value(d).ok()) {
            out.push(json);
        }
    }
    out
}

/// Every complete Deployment of `files`: kustomize patches and Deployments without a selector
/// that selects or with a container lacking its image are fragments, never an operator.
pub(crate) fn deployments<'a>(files: impl Iterator<Item = &'a YamlFile>) -> Vec<Deployment> {
    files
        .filter(|f| !f.patch)
        .flat_map(|f| {
            f.of_kind("Deployment").filter_map(|d| {
                let literal =
                    |s: Option<&str>| s.filter(|v| *v != "x" && !v.is_empty()).map(str::to_string);
                let spec = d.get("spec")?;
                // A selector that selects: kubebuilder's bases leave matchLabels empty for
                // kustomize's commonLabels to fill.
                let selector = spec.get("selector")?;
                let labels = selector
                    .get("matchLabels")
                    .and_then(Value::as_mapping)
                    .is_some_and(|m| !m.is_empty());
                let exprs = selector
                    .get("matchExpressions")
                    .and_then(Value::as_sequence)
                    .is_some_and(|e| !e.is_empty());
                if !(labels || exprs) {
                    return None;
                }
                let pod = spec.get("template")?.get("spec")?;
                let mut containers = Vec::new();
                for c in pod.get("containers")?.as_sequence()? {
                    let image = str_at(c, &["image"]).filter(|i| !i.is_empty())?;
                    containers.push((str_at(c, &["name"])?.to_string(), image.to_string()));
                }
                Some(Deployment {
                    file: f.rel.clone(),
                    name: str_at(d, &["metadata", "name"])?.to_string(),
                    service_account: literal(str_at(pod, &["serviceAccountName"]))
                        .or_else(|| literal(str_at(pod, &["serviceAccount"]))),
                    namespace: literal(str_at(d, &["metadata", "namespace"])),
                    image: containers.first().and_then(|(_, i)| literal(Some(i))),
                    containers,
                })
            })
        })
        .collect()
}

/// The operator's Deployment in a templates layout: the one named like an operator, else the
/// only one.
pub(crate) fn deployment<'a>(files: impl Iterator<Item = &'a YamlFile>) -> Option<Deployment> {
    let all = deployments(files);
    if let Some(op) = all.iter().find(|d| d.name.contains("operator")) {
        return Some(op.clone());
    }
    (all.len() == 1).then(|| all[0].clone())
}

/// The operator's role through its service account's binding, and the RBAC files beside it.
pub(crate) fn permissions<'a>(
    files: impl Iterator<Item = &'a YamlFile> + Clone,
    deployment: Option<&Deployment>,
) -> Option<Permissions> {
    // (service account, role kind, role name) of every binding.
    let bindings: Vec<(String, String, String)> = files
        .clone()
        .flat_map(|f| {
            ["ClusterRoleBinding", "RoleBinding"]
                .into_iter()
                .flat_map(move |k| f.of_kind(k))
        })
        .flat_map(|b| {
            let role = (
                str_at(b, &["roleRef", "kind"])
                    .unwrap_or_default()
                    .to_string(),
                str_at(b, &["roleRef", "name"])
                    .unwrap_or_default()
                    .to_string(),
            );
            b.get("subjects")
                .and_then(Value::as_sequence)
                .into_iter()
                .flatten()
                .filter(|s| str_at(s, &["kind"]) == Some("ServiceAccount"))
                .filter_map(move |s| {
                    Some((
                        str_at(s, &["name"])?.to_string(),
                        role.0.clone(),
                        role.1.clone(),
                    ))
                })
        })
        .collect();
    let sa = match deployment.and_then(|d| d.service_account.clone()) {
        Some(sa) => sa,
        None => bindings
            .iter()
            .find(|(_, _, role)| role.contains("operator"))?
            .0
            .clone(),
    };
    let (_, kind, role) = bindings
        .iter()
        .filter(|(s, _, _)| *s == sa)
        .min_by_key(|(_, kind, _)| kind != "ClusterRole")?;
    let holder = files.clone().find(|f| {
        f.of_kind(kind)
            .any(|r| str_at(r, &["metadata", "name"]) == Some(role.as_str()))
    })?;
    let rbac: Vec<String> = files
        .filter(|f| f.dir() == holder.dir() && (f.has_kind("ClusterRole") || f.has_kind("Role")))
        .map(|f| f.rel.clone())
        .collect();
    Some(Permissions {
        service_account: sa,
        role: role.clone(),
        cluster: kind == "ClusterRole",
        files: rbac,
    })
}

/// The icon: an image named like a logo or an icon, the shallowest first.
pub(crate) fn icon(images: &[String]) -> Option<String> {
    images
        .iter()
        .filter(|p| {
            let name = p.rsplit('/').next().unwrap_or(p).to_ascii_lowercase();
            name.contains("logo") || name.contains("icon")
        })
        .min_by_key(|p| (p.matches('/').count(), p.len()))
        .cloned()
}
