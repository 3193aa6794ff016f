//! Two registry+v1 bundle folders compared as data: what a release produces against the
//! bundle a project commits (`bundle/` from `make bundle`), or any two bundles.
//!
//! Every document of `manifests/` is an object, paired with the other side's by kind and
//! `metadata.name` (never by file name; two objects of one kind and name, such as a v1 and a
//! v1beta1 ClusterRole, are told apart by `apiVersion`); the one CSV of each side is paired
//! with the other whatever its name. `metadata/annotations.yaml` is compared as the
//! annotations it holds, each as the string OLM reads (an unquoted `true` is `"true"`), and the other files of `metadata/` and `tests/` as their YAML data.
//! Differences are the semantic diff's ([`super::tree`]): field paths and values, key order and
//! quoting never counted. With [`Ignore::release_fields`] the fields every release changes are
//! left out of the CSVs before comparing: [`RELEASE_FIELDS`].

use std::collections::BTreeMap;
use std::fmt;

use serde_yaml_ng::Value;

use super::{ChangeKind, ObjectDiff, Status, count, tree};
use crate::Manifest;
use crate::bundle_image::BundleFolder;

/// What the comparison leaves out.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ignore {
    /// Leave out the CSV's fields a release is expected to change ([`RELEASE_FIELDS`]).
    pub release_fields: bool,
}

/// The CSV fields `--ignore-release-fields` leaves out: its name and version, `replaces`, the
/// `createdAt` and `containerImage` annotations, and every image reference (the containers'
/// and init containers' `image` of each install deployment, `spec.relatedImages[].image`).
pub const RELEASE_FIELDS: [&str; 8] = [
    "metadata.name",
    "spec.version",
    "spec.replaces",
    "metadata.annotations.createdAt",
    "metadata.annotations.containerImage",
    "spec.install.spec.deployments[].spec.template.spec.containers[].image",
    "spec.install.spec.deployments[].spec.template.spec.initContainers[].image",
    "spec.relatedImages[].image",
];

/// How two bundle folders differ, object by object.
#[derive(Debug, Clone, serde::Serialize)]
pub struct FoldersDiff {
    /// Whether the bundles are equal as data (after what was ignored).
    pub equal: bool,
    pub(crate) objects: Vec<ObjectDiff>,
}

/// One side's objects by their pairing key (kind, name), with the name shown.
type Objects = BTreeMap<(String, String), (String, Value)>;

/// Compares bundle `a` with bundle `b`; a file that is not YAML is an error naming it.
pub fn compare_folders(
    a: &BundleFolder,
    b: &BundleFolder,
    ignore: Ignore,
) -> Result<FoldersDiff, String> {
    let (mut a, mut b) = (objects(a)?, objects(b)?);
    if ignore.release_fields {
        for side in [&mut a, &mut b] {
            for ((kind, _), (_, doc)) in side.iter_mut() {
                if kind == "ClusterServiceVersion" {
                    strip_release_fields(doc);
                }
            }
        }
    }
    let mut keys: Vec<&(String, String)> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    let mut out = Vec::new();
    for key in keys {
        let (old, new) = (a.get(key), b.get(key));
        let name = |s: Option<&(String, Value)>| s.map(|(n, _)| n.clone());
        let (status, changes) = match (old, new) {
            (Some((_, x)), Some((_, y))) => {
                let changes = tree::diff(x, y);
                if changes.is_empty() {
                    continue;
                }
                (Status::Changed, changes)
            }
            (None, _) => (Status::Added, Vec::new()),
            (_, None) => (Status::Removed, Vec::new()),
        };
        let (was, shown) = (name(old), name(new).or(name(old)).unwrap_or_default());
        out.push(ObjectDiff {
            kind: key.0.clone(),
            was: was.filter(|w| *w != shown && status == Status::Changed),
            name: shown,
            status,
            changes,
        });
    }
    Ok(FoldersDiff {
        equal: out.is_empty(),
        objects: out,
    })
}

/// Every object of a folder by its pairing key.
fn objects(folder: &BundleFolder) -> Result<Objects, String> {
    let mut found: Vec<(String, String, String, Value)> = Vec::new();
    let mut files = Objects::new();
    for (path, bytes) in folder.files() {
        let text = std::str::from_utf8(bytes).map_err(|_| format!("{path}: not UTF-8"))?;
        let docs = parse(path, text)?;
        if !path.starts_with("manifests/") {
            let doc = match path.as_str() {
                "metadata/annotations.yaml" => {
                    annotation_strings(docs.into_iter().next().unwrap_or(Value::Null))
                }
                _ => Value::Sequence(docs),
            };
            files.insert(("file".into(), path.clone()), (path.clone(), doc));
            continue;
        }
        for doc in docs {
            let s = |k: &str| doc.get(k).and_then(Value::as_str).unwrap_or("").to_string();
            let name = doc
                .get("metadata")
                .and_then(|m| m.get("name"))
                .and_then(Value::as_str)
                .unwrap_or("unnamed")
                .to_string();
            let (kind, api) = (s("kind"), s("apiVersion"));
            // A second file holding the same object with the same data is one object, as the
            // bundle image carries it.
            let copy = Manifest::new(path.as_str(), doc.clone());
            let seen_before = found.iter().any(|(k, n, a, d)| {
                (k, n, a) == (&kind, &name, &api) && copy.same_data(&Manifest::new("", d.clone()))
            });
            if !seen_before {
                found.push((kind, name, api, doc));
            }
        }
    }
    let mut seen: BTreeMap<(String, String), usize> = BTreeMap::new();
    for (kind, name, _, _) in &found {
        *seen.entry((kind.clone(), name.clone())).or_insert(0) += 1;
    }
    for (kind, name, api, doc) in found {
        let key_name = if kind == "ClusterServiceVersion" {
            String::new()
        } else if seen[&(kind.clone(), name.clone())] > 1 {
            format!("{name} ({api})")
        } else {
            name.clone()
        };
        let shown = if key_name.is_empty() {
            name
        } else {
            key_name.clone()
        };
        files.insert((kind, key_name), (shown, doc));
    }
    Ok(files)
}

/// `metadata/annotations.yaml` with every annotation as the string OLM reads it (the file's
/// `annotations` are a string map to operator-registry): an unquoted `true` and `"true"` are
/// one value.
fn annotation_strings(mut doc: Value) -> Value {
    if let Some(Value::Mapping(annotations)) = doc.get_mut("annotations") {
        for (_, value) in annotations.iter_mut() {
            let text = match &*value {
                Value::Bool(b) => b.to_string(),
                Value::Number(n) => n.to_string(),
                _ => continue,
            };
            *value = Value::String(text);
        }
    }
    doc
}

/// The YAML documents of a file (empty ones left out).
fn parse(path: &str, text: &str) -> Result<Vec<Value>, String> {
    let mut out = Vec::new();
    for de in serde_yaml_ng::Deserializer::from_str(text) {
        let v = serde::Deserialize::deserialize(de).map_err(|e| format!("{path}: {e}"))?;
        if !matches!(v, Value::Null) {
            out.push(v);
        }
    }
    Ok(out)
}

/// Removes [`RELEASE_FIELDS`] from a CSV document.
fn strip_release_fields(csv: &mut Value) {
    let remove = |v: Option<&mut Value>, key: &str| {
        if let Some(m) = v.and_then(Value::as_mapping_mut) {
            m.remove(key);
        }
    };
    remove(csv.get_mut("metadata"), "name");
    remove(
        csv.get_mut("metadata")
            .and_then(|m| m.get_mut("annotations")),
        "createdAt",
    );
    remove(
        csv.get_mut("metadata")
            .and_then(|m| m.get_mut("annotations")),
        "containerImage",
    );
    remove(csv.get_mut("spec"), "version");
    remove(csv.get_mut("spec"), "replaces");
    if let Some(spec) = csv.get_mut("spec") {
        if let Some(related) = spec
            .get_mut("relatedImages")
            .and_then(Value::as_sequence_mut)
        {
            for r in related {
                remove(Some(r), "image");
            }
        }
        let deployments = spec
            .get_mut("install")
            .and_then(|i| i.get_mut("spec"))
            .and_then(|s| s.get_mut("deployments"))
            .and_then(Value::as_sequence_mut);
        for d in deployments.into_iter().flatten() {
            let pod = d
                .get_mut("spec")
                .and_then(|s| s.get_mut("template"))
                .and_then(|t| t.get_mut("spec"));
            let Some(pod) = pod else { continue };
            for key in ["containers", "initContainers"] {
                let list = pod.get_mut(key).and_then(Value::as_sequence_mut);
                for c in list.into_iter().flatten() {
                    remove(Some(c), "image");
                }
            }
        }
    }
}

impl fmt::Display for FoldersDiff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.equal {
            return writeln!(f, "equal: the bundles hold the same objects as data");
        }
        for o in &self.objects {
            match (o.status, &o.was) {
                (Status::Added, _) => writeln!(f, "{} {}: only in B", o.kind, o.name)?,
                (Status::Removed, _) => writeln!(f, "{} {}: only in A", o.kind, o.name)?,
                (Status::Changed, Some(was)) => writeln!(
                    f,
                    "{} {} (A: {was}): {}",
                    o.kind,
                    o.name,
                    count(o.changes.len(), "field")
                )?,
                (Status::Changed, None) => writeln!(
                    f,
                    "{} {}: {}",
                    o.kind,
                    o.name,
                    count(o.changes.len(), "field")
                )?,
            }
            for c in &o.changes {
                match &c.kind {
                    ChangeKind::Added { new } => writeln!(f, "  + {}: {new}", c.path)?,
                    ChangeKind::Removed { old } => writeln!(f, "  - {}: {old}", c.path)?,
                    ChangeKind::Changed { old, new } => {
                        writeln!(f, "  ~ {}: {old} → {new}", c.path)?
                    }
                    ChangeKind::Reordered => writeln!(f, "  ~ {}: reordered", c.path)?,
                    ChangeKind::Whitespace => writeln!(f, "  ~ {}: white space only", c.path)?,
                }
            }
        }
        Ok(())
    }
}
