//! What an upgrade changes in the cluster: the install renderings ([`super::render`]) of the
//! channel head and of the release compared, for a reviewer to approve. Objects are matched by
//! kind, namespace and name, except RBAC: OLM v1 names the Roles it generates after the CSV and
//! a hash of their rules, so permissions are compared as what each ServiceAccount may do
//! ([`Grant`]), widened or narrowed. Images are compared per Deployment and container, and
//! CRDs per version: removing a version the API server serves strands the objects stored in it
//! (the API server refuses to drop a version still in `status.storedVersions`,
//! <https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definition-versioning/#upgrade-existing-objects-to-a-new-stored-version>),
//! so [`UpgradeDiff::removed_served`] is what a pipeline refuses unless it allows it.

use std::fmt;

use serde::Serialize;
use serde_yaml_ng::Value;

use super::bundle::RegistryV1;
use super::grants::{self, Grant};
use super::model::{CertProvider, InstallError, Options};
use crate::value_at;

/// The RBAC kinds, compared as grants rather than as objects.
const RBAC_KINDS: [&str; 4] = ["ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding"];

/// What changes between two install renderings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct UpgradeDiff {
    /// Objects only the new rendering has: `KIND NAME` (`KIND NAMESPACE/NAME` when namespaced).
    pub added: Vec<String>,
    /// Objects only the old rendering has.
    pub removed: Vec<String>,
    /// Permissions an account gains.
    pub widened: Vec<Grant>,
    /// Permissions an account loses.
    pub narrowed: Vec<Grant>,
    /// Container images that change.
    pub images: Vec<ImageChange>,
    /// CRD versions added, removed or no longer served.
    pub crd_versions: Vec<CrdVersionChange>,
}

/// One container's image before and after.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ImageChange {
    /// The Deployment.
    pub deployment: String,
    /// The container (init containers too).
    pub container: String,
    /// The image before (`None`: a new container).
    pub old: Option<String>,
    /// The image after (`None`: the container is gone).
    pub new: Option<String>,
}

/// One CRD version's change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CrdVersionChange {
    /// The CRD's name.
    pub crd: String,
    /// The version.
    pub version: String,
    /// `added`, `removed` (it was served), `removed-unserved`, or `unserved` (still listed,
    /// no longer served).
    pub change: &'static str,
}

impl UpgradeDiff {
    /// Nothing changes.
    pub fn is_empty(&self) -> bool {
        *self == UpgradeDiff::default()
    }

    /// The versions the old rendering served and the new one no longer lists (a removed CRD
    /// removes them all).
    pub fn removed_served(&self) -> Vec<&CrdVersionChange> {
        self.crd_versions
            .iter()
            .filter(|c| c.change == "removed")
            .collect()
    }
}

fn s<'a>(v: &'a Value, path: &str) -> &'a str {
    value_at(v, path)
        .and_then(Value::as_str)
        .unwrap_or_default()
}

fn key(o: &Value) -> String {
    match s(o, "metadata.namespace") {
        "" => format!("{} {}", s(o, "kind"), s(o, "metadata.name")),
        ns => format!("{} {ns}/{}", s(o, "kind"), s(o, "metadata.name")),
    }
}

/// Compares two install renderings.
pub fn upgrade_diff(old: &[Value], new: &[Value]) -> UpgradeDiff {
    let keys = |objects: &[Value]| -> Vec<String> {
        let mut k: Vec<String> = objects
            .iter()
            .filter(|o| !RBAC_KINDS.contains(&s(o, "kind")))
            .map(key)
            .collect();
        k.sort();
        k.dedup();
        k
    };
    let (old_keys, new_keys) = (keys(old), keys(new));
    let (widened, narrowed) = grants::compare(&grants::grants(old), &grants::grants(new));
    UpgradeDiff {
        added: new_keys
            .iter()
            .filter(|k| !old_keys.contains(k))
            .cloned()
            .collect(),
        removed: old_keys
            .iter()
            .filter(|k| !new_keys.contains(k))
            .cloned()
            .collect(),
        widened,
        narrowed,
        images: images(old, new),
        crd_versions: crd_versions(old, new),
    }
}

/// (deployment, container, image) of every container of every Deployment.
fn containers(objects: &[Value]) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for d in objects.iter().filter(|o| s(o, "kind") == "Deployment") {
        for list in ["initContainers", "containers"] {
            let path = format!("spec.template.spec.{list}");
            for c in value_at(d, &path)
                .and_then(Value::as_sequence)
                .into_iter()
                .flatten()
            {
                out.push((
                    s(d, "metadata.name").to_string(),
                    s(c, "name").to_string(),
                    s(c, "image").to_string(),
                ));
            }
        }
    }
    out
}

fn images(old: &[Value], new: &[Value]) -> Vec<ImageChange> {
    let (old, new) = (containers(old), containers(new));
    let find = |list: &[(String, String, String)], d: &str, c: &str| {
        list.iter()
            .find(|(x, y, _)| x == d && y == c)
            .map(|(_, _, i)| i.clone())
    };
    let mut out: Vec<ImageChange> = Vec::new();
    for (d, c, image) in &new {
        let before = find(&old, d, c);
        if before.as_deref() != Some(image.as_str()) {
            out.push(ImageChange {
                deployment: d.clone(),
                container: c.clone(),
                old: before,
                new: Some(image.clone()),
            });
        }
    }
    for (d, c, image) in &old {
        if find(&new, d, c).is_none() {
            out.push(ImageChange {
                deployment: d.clone(),
                container: c.clone(),
                old: Some(image.clone()),
                new: None,
            });
        }
    }
    out
}

/// (CRD, version, served) of every CRD version.
fn versions(objects: &[Value]) -> Vec<(String, String, bool)> {
    let mut out = Vec::new();
    for crd in objects
        .iter()
        .filter(|o| s(o, "kind") == "CustomResourceDefinition")
    {
        let name = s(crd, "metadata.name").to_string();
        for v in value_at(crd, "spec.versions")
            .and_then(Value::as_sequence)
            .into_iter()
            .flatten()
        {
            let served = v.get("served").and_then(Value::as_bool) != Some(false);
            out.push((name.clone(), s(v, "name").to_string(), served));
        }
        // apiextensions.k8s.io/v1beta1's single `spec.version`.
        if let Some(v) = value_at(crd, "spec.version").and_then(Value::as_str)
            && !out.iter().any(|(c, x, _)| *c == name && x == v)
        {
            out.push((name.clone(), v.to_string(), true));
        }
    }
    out
}

fn crd_versions(old: &[Value], new: &[Value]) -> Vec<CrdVersionChange> {
    let (old, new) = (versions(old), versions(new));
    let find = |list: &[(String, String, bool)], c: &str, v: &str| {
        list.iter()
            .find(|(x, y, _)| x == c && y == v)
            .map(|(_, _, served)| *served)
    };
    let change = |crd: &str, version: &str, change| CrdVersionChange {
        crd: crd.to_string(),
        version: version.to_string(),
        change,
    };
    let mut out = Vec::new();
    for (c, v, served) in &old {
        match (find(&new, c, v), served) {
            (None, true) => out.push(change(c, v, "removed")),
            (None, false) => out.push(change(c, v, "removed-unserved")),
            (Some(false), true) => out.push(change(c, v, "unserved")),
            _ => {}
        }
    }
    for (c, v, _) in &new {
        if find(&old, c, v).is_none() {
            out.push(change(c, v, "added"));
        }
    }
    out
}

/// The rendering a diff compares: the bundle installed as OLM v1 would by default (all
/// namespaces when the bundle supports it, else its own namespace, else another one), with
/// cert-manager, in the namespace `namespace`.
pub fn rendering_for_diff(
    bundle: &RegistryV1,
    namespace: &str,
) -> Result<Vec<Value>, InstallError> {
    let modes = bundle.supported_install_modes();
    let has = |m: &str| modes.iter().any(|x| x == m);
    let watch_namespace = if has("AllNamespaces") {
        None
    } else if has("OwnNamespace") {
        Some(namespace.to_string())
    } else {
        Some(format!("{namespace}-watched"))
    };
    let opts = Options {
        install_namespace: namespace.to_string(),
        watch_namespace,
        deployment_config: None,
        cert_provider: Some(CertProvider::CertManager),
    };
    super::render::render(bundle, &opts)
}

impl fmt::Display for UpgradeDiff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return writeln!(f, "  nothing changes in the cluster");
        }
        for a in &self.added {
            writeln!(f, "  + {a}")?;
        }
        for r in &self.removed {
            writeln!(f, "  - {r}")?;
        }
        for g in &self.widened {
            writeln!(f, "  RBAC widened:  {g}")?;
        }
        for g in &self.narrowed {
            writeln!(f, "  RBAC narrowed: {g}")?;
        }
        for i in &self.images {
            let show = |x: &Option<String>| x.clone().unwrap_or_else(|| "(none)".into());
            writeln!(
                f,
                "  image: Deployment {} container {}: {} -> {}",
                i.deployment,
                i.container,
                show(&i.old),
                show(&i.new)
            )?;
        }
        for c in &self.crd_versions {
            let what = match c.change {
                "added" => "added",
                "removed" => "removed (was served: its stored objects are stranded)",
                "removed-unserved" => "removed (was not served)",
                _ => "no longer served",
            };
            writeln!(f, "  CRD {} version {}: {what}", c.crd, c.version)?;
        }
        Ok(())
    }
}
