//! The manifests the domain reasons about: one Kubernetes object kept as written
//! ([`Manifest`]), the package file ([`PackageManifest`] with its [`Channel`]s), and a
//! [`Bundle`] (the package plus every CSV and CRD published together), with the file names
//! OLM's tools give them.

use serde::{Deserialize, Serialize};
use serde_yaml_ng::Value;

/// One Kubernetes manifest (a CSV, a CRD or another object), with the file it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Manifest {
    /// File name it was read from or will be written to (no folders).
    pub file: String,
    /// The manifest as parsed, in its key order.
    pub doc: Value,
}

impl Manifest {
    /// A manifest read from (or to be written to) `file`.
    pub fn new(file: impl Into<String>, doc: Value) -> Self {
        Manifest {
            file: file.into(),
            doc,
        }
    }

    /// A string at a dotted path (`"metadata.name"`), if present and a string.
    pub(crate) fn str_at(&self, path: &str) -> Option<&str> {
        value_at(&self.doc, path).and_then(Value::as_str)
    }

    /// `kind`.
    pub fn kind(&self) -> Option<&str> {
        self.str_at("kind")
    }

    /// `metadata.name`.
    pub fn name(&self) -> Option<&str> {
        self.str_at("metadata.name")
    }

    /// The string value of the annotation `key` (`metadata.annotations`), if any.
    pub fn annotation(&self, key: &str) -> Option<&str> {
        self.doc
            .get("metadata")
            .and_then(|m| m.get("annotations"))
            .and_then(|a| a.get(key))
            .and_then(Value::as_str)
    }

    /// `Kind name` (`ClusterRole widget-viewer`; `unnamed` without a name), for messages.
    pub fn kind_and_name(&self) -> String {
        format!(
            "{} {}",
            self.kind().unwrap_or_default(),
            self.name().unwrap_or("unnamed")
        )
    }

    /// Whether `other` is the same object with the same data: equal as YAML data (key order
    /// and quoting aside), with the `creationTimestamp: null` generators write left out.
    pub fn same_data(&self, other: &Manifest) -> bool {
        fn without_null_stamp(doc: &Value) -> Value {
            let mut doc = doc.clone();
            if let Some(Value::Mapping(meta)) = doc.get_mut("metadata")
                && meta.get("creationTimestamp") == Some(&Value::Null)
            {
                meta.remove("creationTimestamp");
            }
            doc
        }
        without_null_stamp(&self.doc) == without_null_stamp(&other.doc)
    }

    /// `spec.version` of a CSV (or the singular version of a 2019 CRD).
    pub fn spec_version(&self) -> Option<&str> {
        self.str_at("spec.version")
    }

    /// `spec.replaces` of a CSV; an empty string counts as none.
    pub fn replaces(&self) -> Option<&str> {
        self.str_at("spec.replaces").filter(|s| !s.is_empty())
    }

    /// Sets `spec.replaces` (or removes it when `None`), keeping the key order of `spec`.
    pub fn set_replaces(&mut self, replaces: Option<&str>) {
        let Some(spec) = self.doc.get_mut("spec").and_then(Value::as_mapping_mut) else {
            return;
        };
        match replaces {
            Some(name) => {
                spec.insert(Value::from("replaces"), Value::from(name));
            }
            None => {
                spec.remove("replaces");
            }
        }
    }

    /// The CSV's `spec.version` parsed as SemVer.
    pub fn semver(&self) -> Option<semver::Version> {
        self.spec_version()
            .and_then(|v| semver::Version::parse(v).ok())
    }
}

/// What a manifest document is, told by its content as OLM's loaders tell it (never by its file
/// name): the package file (`packageName`), a CSV, a CRD, another Kubernetes object
/// (`apiVersion` and `kind`: RBAC, ConfigMaps, Services, …) or none of these. Every reader of a
/// bundle's files (`publish`, `verify`, a history tree) sorts documents with it, so each path
/// validates the same objects beside a bundle's CSVs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DocKind {
    Package,
    Csv,
    Crd,
    Object,
    Other,
}

/// The [`DocKind`] of one parsed document.
pub(crate) fn doc_kind(doc: &Value) -> DocKind {
    if !doc.is_mapping() {
        return DocKind::Other;
    }
    if doc.get("packageName").is_some() {
        return DocKind::Package;
    }
    match doc.get("kind").and_then(Value::as_str) {
        Some("ClusterServiceVersion") => DocKind::Csv,
        Some("CustomResourceDefinition") => DocKind::Crd,
        Some(_) if doc.get("apiVersion").is_some() => DocKind::Object,
        _ => DocKind::Other,
    }
}

/// Reads a value at a dotted path of mapping keys.
pub fn value_at<'a>(doc: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(doc, |v, key| v.get(key))
}

/// One channel of a package: its name and its head CSV.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Channel {
    /// The channel name, e.g. `alpha`.
    pub name: String,
    #[serde(rename = "currentCSV")]
    /// The CSV at the head of the channel.
    pub current_csv: String,
}

/// The package file (`*.package.yaml`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackageManifest {
    #[serde(rename = "packageName")]
    /// The package name (the app-registry repository).
    pub package_name: String,
    #[serde(default)]
    /// The channels and their heads.
    pub channels: Vec<Channel>,
    #[serde(
        rename = "defaultChannel",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    /// The channel subscribers get by default (needed with more than one channel).
    pub default_channel: Option<String>,
}

impl PackageManifest {
    /// The channel named `name`.
    pub fn channel(&self, name: &str) -> Option<&Channel> {
        self.channels.iter().find(|c| c.name == name)
    }

    /// Points `channel` at `head`, adding the channel if the package lacks it.
    pub fn set_head(&mut self, channel: &str, head: &str) {
        match self.channels.iter_mut().find(|c| c.name == channel) {
            Some(c) => c.current_csv = head.to_string(),
            None => self.channels.push(Channel {
                name: channel.to_string(),
                current_csv: head.to_string(),
            }),
        }
    }

    /// The file name the package is written under.
    pub fn file_name(&self) -> String {
        format!("{}.package.yaml", self.package_name)
    }
}

/// Everything published together as one app-registry release.
#[derive(Debug, Clone, PartialEq)]
pub struct Bundle {
    /// The package file.
    pub package: PackageManifest,
    /// Every CSV, the newest first when built by a pipeline.
    pub csvs: Vec<Manifest>,
    /// Every CRD, once.
    pub crds: Vec<Manifest>,
}

impl Bundle {
    /// The CSV with this `metadata.name`.
    pub fn csv(&self, name: &str) -> Option<&Manifest> {
        self.csvs.iter().find(|c| c.name() == Some(name))
    }

    /// The bundle's channels, CSVs (with `replaces`) and CRDs, one per line, under a heading
    /// naming its package file: what the package step shows.
    pub fn listing(&self) -> String {
        let mut out = format!("bundle contents ({}):", self.package.file_name());
        for ch in &self.package.channels {
            out.push_str(&format!("\n  channel {} → {}", ch.name, ch.current_csv));
        }
        for csv in &self.csvs {
            let replaces = csv
                .replaces()
                .map(|r| format!(" (replaces {r})"))
                .unwrap_or_default();
            out.push_str(&format!("\n  CSV {}{replaces}", csv.name().unwrap_or("?")));
        }
        for crd in &self.crds {
            out.push_str(&format!("\n  CRD {}", crd_file_name(crd)));
        }
        out
    }
}

/// The order CSVs are written in a flattened bundle, whatever the order they were read or
/// built in: the highest SemVer `spec.version` first (what a pipeline's cumulative bundle holds,
/// the new CSV first), then CSVs without one by name. The same bundle gives the same bytes,
/// and so the same digest, whether it was assembled by a pipeline or read back from a folder
/// that `registry pull` wrote. Returns indexes into `csvs`.
pub fn canonical_csv_order(csvs: &[Manifest]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..csvs.len()).collect();
    let keys: Vec<_> = csvs.iter().map(|c| (c.semver(), c.name())).collect();
    order.sort_by(|&a, &b| {
        let (va, na) = &keys[a];
        let (vb, nb) = &keys[b];
        match (va, vb) {
            (Some(x), Some(y)) => y.cmp(x).then_with(|| na.cmp(nb)),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => na.cmp(nb),
        }
    });
    order
}

/// The order CRDs are written in a flattened bundle: by `metadata.name` (then by the order
/// given, for CRDs without one). Returns indexes into `crds`.
pub(crate) fn canonical_crd_order(crds: &[Manifest]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..crds.len()).collect();
    order.sort_by_key(|&i| crds[i].name());
    order
}

/// The file name a CSV is written under in a flat bundle folder.
pub fn csv_file_name(csv_name: &str) -> String {
    format!("{csv_name}.clusterserviceversion.yaml")
}

/// The file name a CRD is written under in a flat bundle folder.
pub fn crd_file_name(crd: &Manifest) -> String {
    let name = crd.name().unwrap_or("unnamed");
    match crd.spec_version() {
        Some(v) => format!("{name}.{v}.crd.yaml"),
        None => format!("{name}.crd.yaml"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_are_told_apart_by_content() {
        let kind = |text: &str| doc_kind(&serde_yaml_ng::from_str(text).unwrap());
        assert_eq!(kind("packageName: p\nchannels: []"), DocKind::Package);
        let csv = "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion";
        assert_eq!(kind(csv), DocKind::Csv);
        assert_eq!(kind("kind: CustomResourceDefinition"), DocKind::Crd);
        assert_eq!(kind("apiVersion: v1\nkind: ConfigMap"), DocKind::Object);
        // An object needs both apiVersion and kind.
        assert_eq!(kind("kind: ConfigMap"), DocKind::Other);
        assert_eq!(kind("- a list"), DocKind::Other);
    }

    fn manifest(kind: &str, name: &str, version: Option<&str>) -> Manifest {
        let mut text = format!("kind: {kind}\nmetadata:\n  name: {name}\n");
        if let Some(v) = version {
            text.push_str(&format!("spec:\n  version: {v}\n"));
        }
        Manifest::new(
            format!("{name}.yaml"),
            serde_yaml_ng::from_str(&text).unwrap(),
        )
    }

    #[test]
    fn csvs_are_ordered_newest_first_and_crds_by_name_whatever_the_input_order() {
        let csvs = [
            manifest("ClusterServiceVersion", "p.v0.9.0", Some("0.9.0")),
            manifest("ClusterServiceVersion", "p.untagged", None),
            manifest("ClusterServiceVersion", "p.v0.10.0", Some("0.10.0")),
            manifest(
                "ClusterServiceVersion",
                "p.v0.10.0-rc.1",
                Some("0.10.0-rc.1"),
            ),
        ];
        let names: Vec<_> = canonical_csv_order(&csvs)
            .into_iter()
            .map(|i| csvs[i].name().unwrap())
            .collect();
        assert_eq!(
            names,
            ["p.v0.10.0", "p.v0.10.0-rc.1", "p.v0.9.0", "p.untagged"]
        );
        let crds = [
            manifest("CustomResourceDefinition", "widgets.example.com", None),
            manifest("CustomResourceDefinition", "gadgets.example.com", None),
        ];
        assert_eq!(canonical_crd_order(&crds), [1, 0]);
    }

    #[test]
    fn a_listing_names_each_channel_csv_and_crd() {
        let b = crate::testing::bundle(
            &[("stable", "op.v0.2.0")],
            vec![
                crate::testing::csv("0.2.0", Some("op.v0.1.0")),
                crate::testing::csv("0.1.0", None),
            ],
        );
        assert_eq!(
            b.listing(),
            "bundle contents (op.package.yaml):\n  channel stable → op.v0.2.0\n  CSV op.v0.2.0 (replaces op.v0.1.0)\n  CSV op.v0.1.0"
        );
    }

    #[test]
    fn an_object_reads_as_its_kind_and_name() {
        let role = Manifest::new(
            "r.yaml",
            serde_yaml_ng::from_str("kind: ClusterRole\nmetadata:\n  name: widget-viewer\n")
                .unwrap(),
        );
        assert_eq!(role.kind_and_name(), "ClusterRole widget-viewer");
        let nameless = Manifest::new(
            "c.yaml",
            serde_yaml_ng::from_str("kind: ConfigMap\n").unwrap(),
        );
        assert_eq!(nameless.kind_and_name(), "ConfigMap unnamed");
    }
}
