//! What a release changes, compared as data: the semantic diff a reviewer reads before anything
//! is published.
//!
//! Two sides are compared: the channel's published head (its CSV, the CRDs and the package file
//! of the release it came from) and what this run would publish. Objects are paired by kind and
//! name, except the two CSVs, which are paired with each other whatever their names (a new
//! release is a new name). The result has three parts: a one-screen [`Summary`] (version,
//! `replaces`, images, permissions, CRD versions and categories, owned CRDs, channel heads);
//! the field changes grouped by object, at paths such as
//! `spec.install.spec.deployments[virt-operator].spec.template.spec.containers[virt-operator].image`
//! ([`tree`]); and a unified text diff of both sides written canonically (keys sorted), for
//! `-v` ([`text`]). Key order and quoting never show as changes anywhere. The same field diff
//! compares two whole bundle folders for `olm-release diff` ([`bundles`]).

pub mod bundles;
mod summary;
mod text;
mod tree;

use std::fmt;

use serde_yaml_ng::Value;

use super::{Manifest, PackageManifest};
pub use bundles::{FoldersDiff, Ignore, compare_folders};
pub use summary::{Summary, csv_images, split_reference};
pub use tree::{Change, ChangeKind};

/// One side of the comparison.
#[derive(Debug, Clone, Copy)]
pub struct Side<'a> {
    /// The CSV: the channel's published head, or the new one.
    pub csv: Option<&'a Manifest>,
    /// The CRDs: those of the published release, or those this run would publish.
    pub crds: &'a [Manifest],
    /// The package file; `None` leaves it out of the comparison.
    pub package: Option<&'a PackageManifest>,
}

/// How one object differs.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub(crate) struct ObjectDiff {
    pub(crate) kind: String,
    /// The object's name on the new side (the old one where it was removed).
    pub(crate) name: String,
    /// The old name where it differs (the CSV).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) was: Option<String>,
    pub(crate) status: Status,
    pub(crate) changes: Vec<Change>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Status {
    Added,
    Removed,
    Changed,
}

/// The whole comparison.
#[derive(Debug, Clone, serde::Serialize)]
pub struct BundleDiff {
    /// The one-screen summary a reviewer reads first.
    pub summary: Summary,
    /// Objects that differ, CSV first, then CRDs by name, then the package file.
    pub(crate) objects: Vec<ObjectDiff>,
    /// Unified diff of the canonical YAML of both sides (empty when equal).
    #[serde(skip)]
    pub text: String,
}

impl BundleDiff {
    /// Nothing differs.
    pub(crate) fn is_empty(&self) -> bool {
        self.objects.is_empty()
    }
}

/// Compares the published side with the new one. `old_label` and `new_label` name the sides
/// in the text diff's header (e.g. "kubevirt.v0.19.0 (published)").
pub fn diff(old: &Side<'_>, new: &Side<'_>, old_label: &str, new_label: &str) -> BundleDiff {
    let mut objects = Vec::new();
    let mut old_docs = Vec::new();
    let mut new_docs = Vec::new();
    let csv_name = |m: Option<&Manifest>| m.and_then(Manifest::name).unwrap_or("?").to_string();
    object(
        &mut objects,
        "ClusterServiceVersion",
        (csv_name(old.csv), old.csv.map(|m| &m.doc)),
        (csv_name(new.csv), new.csv.map(|m| &m.doc)),
    );
    old_docs.extend(old.csv.map(|m| m.doc.clone()));
    new_docs.extend(new.csv.map(|m| m.doc.clone()));
    let mut names: Vec<&str> = old
        .crds
        .iter()
        .chain(new.crds)
        .filter_map(Manifest::name)
        .collect();
    names.sort_unstable();
    names.dedup();
    for name in names {
        let find = |crds: &'_ [Manifest]| -> Option<Value> {
            crds.iter()
                .find(|c| c.name() == Some(name))
                .map(|c| c.doc.clone())
        };
        let (a, b) = (find(old.crds), find(new.crds));
        object(
            &mut objects,
            "CustomResourceDefinition",
            (name.to_string(), a.as_ref()),
            (name.to_string(), b.as_ref()),
        );
        old_docs.extend(a);
        new_docs.extend(b);
    }
    let pkg = |p: Option<&PackageManifest>| p.and_then(|p| serde_yaml_ng::to_value(p).ok());
    let (pa, pb) = (pkg(old.package), pkg(new.package));
    let pkg_name = new
        .package
        .or(old.package)
        .map(|p| p.package_name.clone())
        .unwrap_or_default();
    object(
        &mut objects,
        "package",
        (pkg_name.clone(), pa.as_ref()),
        (pkg_name, pb.as_ref()),
    );
    old_docs.extend(pa);
    new_docs.extend(pb);
    BundleDiff {
        summary: summary::summarise(old, new),
        objects,
        text: text::unified(&old_docs, &new_docs, old_label, new_label),
    }
}

fn object(
    out: &mut Vec<ObjectDiff>,
    kind: &str,
    (old_name, old): (String, Option<&Value>),
    (new_name, new): (String, Option<&Value>),
) {
    let (status, changes, name, was) = match (old, new) {
        (None, None) => return,
        (None, Some(_)) => (Status::Added, Vec::new(), new_name, None),
        (Some(_), None) => (Status::Removed, Vec::new(), old_name, None),
        (Some(a), Some(b)) => {
            let changes = tree::diff(a, b);
            if changes.is_empty() {
                return;
            }
            let was = (old_name != new_name).then_some(old_name);
            (Status::Changed, changes, new_name, was)
        }
    };
    out.push(ObjectDiff {
        kind: kind.into(),
        name,
        was,
        status,
        changes,
    });
}

/// Plural-aware count ("1 field", "3 fields").
fn count(n: usize, one: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {one}s")
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut row = |label: &str, lines: &[String]| -> fmt::Result {
            for (i, l) in lines.iter().enumerate() {
                let label = if i == 0 { label } else { "" };
                writeln!(f, "  {label:<14}{l}")?;
            }
            Ok(())
        };
        if let Some((a, b)) = &self.version {
            row("version", &[format!("{a} → {b}")])?;
        }
        if let Some((a, b)) = &self.replaces {
            row("replaces", &[format!("{a} → {b}")])?;
        }
        let images: Vec<String> = self
            .images
            .iter()
            .map(|(repo, a, b)| format!("{repo} {a} → {b}"))
            .collect();
        row("images", &images)?;
        let plus = |v: &[String]| v.iter().map(|l| format!("+ {l}")).collect::<Vec<_>>();
        let minus = |v: &[String]| v.iter().map(|l| format!("- {l}")).collect::<Vec<_>>();
        row("permissions", &plus(&self.permissions_added))?;
        row(
            if self.permissions_added.is_empty() {
                "permissions"
            } else {
                ""
            },
            &minus(&self.permissions_removed),
        )?;
        row("CRD versions", &plus(&self.crd_versions_added))?;
        row(
            if self.crd_versions_added.is_empty() {
                "CRD versions"
            } else {
                ""
            },
            &minus(&self.crd_versions_removed),
        )?;
        row("categories", &plus(&self.categories_added))?;
        row(
            if self.categories_added.is_empty() {
                "categories"
            } else {
                ""
            },
            &minus(&self.categories_removed),
        )?;
        row("owned CRDs", &plus(&self.owned_added))?;
        row(
            if self.owned_added.is_empty() {
                "owned CRDs"
            } else {
                ""
            },
            &minus(&self.owned_removed),
        )?;
        row("package", &self.package)
    }
}

impl fmt::Display for BundleDiff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return writeln!(
                f,
                "no changes: the new bundle equals the published one as data"
            );
        }
        write!(f, "{}", self.summary)?;
        let objects: Vec<String> = self
            .objects
            .iter()
            .map(|o| match o.status {
                Status::Added => format!("{} {} added", o.kind, o.name),
                Status::Removed => format!("{} {} removed", o.kind, o.name),
                Status::Changed => format!(
                    "{} {} ({})",
                    o.kind,
                    o.name,
                    count(o.changes.len(), "field")
                ),
            })
            .collect();
        writeln!(f, "  {:<14}{}", "objects", objects.join("; "))?;
        for o in self.objects.iter().filter(|o| !o.changes.is_empty()) {
            match &o.was {
                Some(was) => writeln!(f, "{} {} (was {was}):", o.kind, o.name)?,
                None => writeln!(f, "{} {}:", o.kind, o.name)?,
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
