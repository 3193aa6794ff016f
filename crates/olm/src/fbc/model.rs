//! The file-based-catalog model: the three schemas OLM reads (`olm.package`, `olm.channel`,
//! `olm.bundle`) as typed documents, and every other schema kept as it was read.
//!
//! The model mirrors operator-registry's `alpha/declcfg` (`DeclarativeConfig`): flat lists of
//! documents, each remembering the file and document it came from, so that validation can
//! report duplicates and dangling references exactly as `opm validate` does, and name where
//! they are. Fields the pipeline does not reason about are kept in `extra` (and property values
//! as YAML values), so reading and writing a catalog loses nothing.

use serde_yaml_ng::{Mapping, Value};

pub(crate) const SCHEMA_PACKAGE: &str = "olm.package";
pub(crate) const SCHEMA_CHANNEL: &str = "olm.channel";
pub(crate) const SCHEMA_BUNDLE: &str = "olm.bundle";
/// The schema of a package's deprecations (at most one document per package).
pub(crate) const SCHEMA_DEPRECATIONS: &str = "olm.deprecations";
/// The bundle property naming the package and the version (exactly one per bundle).
pub(crate) const PROPERTY_PACKAGE: &str = "olm.package";
/// A bundle property per group/version/kind the bundle provides (its owned CRD versions).
pub(crate) const PROPERTY_GVK: &str = "olm.gvk";
/// A bundle property per group/version/kind the bundle needs from other operators.
pub(crate) const PROPERTY_GVK_REQUIRED: &str = "olm.gvk.required";
/// A bundle property per package (and version range) the bundle needs.
pub(crate) const PROPERTY_PACKAGE_REQUIRED: &str = "olm.package.required";
/// A bundle property holding one of its manifests (base64 of its JSON).
pub(crate) const PROPERTY_BUNDLE_OBJECT: &str = "olm.bundle.object";
/// A bundle property holding what catalog UIs show of its CSV.
pub(crate) const PROPERTY_CSV_METADATA: &str = "olm.csv.metadata";

/// Where a document came from: a file relative to the catalog root (with `/`) and its
/// 1-based position in that file. Empty for documents made in memory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Origin {
    /// The file's path relative to the catalog root, with `/`; for a document `add` made, the file
    /// it will be written to; empty for other documents made in memory.
    pub file: String,
    /// The document's 1-based position in its file (`---`-separated YAML, or concatenated JSON
    /// values); 0 for a document made in memory.
    pub document: usize,
}

impl Origin {
    pub(crate) fn new(file: impl Into<String>, document: usize) -> Self {
        Origin {
            file: file.into(),
            document,
        }
    }
}

/// `olm.package` icon.
#[derive(Debug, Clone, PartialEq)]
pub struct Icon {
    pub(crate) base64data: String,
    pub(crate) mediatype: String,
}

/// An `olm.package` document.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PackageDoc {
    /// `name`: the package's name; empty when the document has none.
    pub name: String,
    /// `defaultChannel`: the channel subscriptions take when they name none.
    pub default_channel: Option<String>,
    /// `description`: the package's description, shown by catalog UIs.
    pub description: Option<String>,
    /// `icon`: the package's icon (`base64data` and `mediatype`).
    pub icon: Option<Icon>,
    /// Other keys, kept.
    pub extra: Mapping,
    /// Where the document was read.
    pub origin: Origin,
}

/// One entry of an `olm.channel`: a bundle and its upgrade edges in that channel.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Entry {
    /// `name`: the bundle's name (its CSV's `metadata.name`); empty when the entry has none.
    pub name: String,
    /// `replaces`: the bundle this one upgrades from in the channel; `None` when absent or empty.
    pub replaces: Option<String>,
    /// `skips`: the bundles this one also upgrades from, skipping them.
    pub skips: Vec<String>,
    /// `skipRange`: the versions (a semver range such as `>=1.0.0 <1.2.0`) this one upgrades from;
    /// `None` when absent or empty.
    pub skip_range: Option<String>,
    /// The entry's other keys, kept in their order.
    pub extra: Mapping,
}

impl Entry {
    /// An entry for the bundle `name` replacing `replaces`, with no skips or skip range.
    pub fn new(name: impl Into<String>, replaces: Option<&str>) -> Self {
        Entry {
            name: name.into(),
            replaces: replaces.map(str::to_string),
            ..Entry::default()
        }
    }
}

/// An `olm.channel` document.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ChannelDoc {
    /// `package`: the package the channel belongs to; empty when the document has none.
    pub package: String,
    /// `name`: the channel's name; empty when the document has none.
    pub name: String,
    /// `entries`: the channel's bundles with their upgrade edges, in the order written.
    pub entries: Vec<Entry>,
    /// The document's other keys, kept in their order.
    pub extra: Mapping,
    /// Where the document was read.
    pub origin: Origin,
}

impl ChannelDoc {
    /// The entry of the bundle `name`, if the channel has one.
    pub fn entry(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.name == name)
    }
}

/// One bundle property: a type and a free-form value.
#[derive(Debug, Clone, PartialEq)]
pub struct Property {
    /// `type`: the property's type (`olm.package`, `olm.gvk`, …); empty when the property has none.
    pub type_: String,
    /// `value`: the property's value as read (null when absent).
    pub value: Value,
}

/// The value of an `olm.package` property.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PackageProperty {
    pub(crate) package_name: String,
    pub(crate) version: String,
}

fn mapping(pairs: &[(&str, &str)]) -> Value {
    let mut m = Mapping::new();
    for (k, v) in pairs {
        m.insert(Value::from(*k), Value::from(*v));
    }
    Value::Mapping(m)
}

impl Property {
    /// `olm.package` with `packageName` and `version`.
    pub fn package(package_name: &str, version: &str) -> Self {
        Property::package_release(package_name, version, None)
    }

    /// `olm.package` with `packageName`, `version` and, when given, `release` (keys sorted, as
    /// `opm render -o yaml` writes them).
    pub fn package_release(package_name: &str, version: &str, release: Option<&str>) -> Self {
        let value = match release.filter(|r| !r.is_empty()) {
            Some(r) => mapping(&[
                ("packageName", package_name),
                ("release", r),
                ("version", version),
            ]),
            None => mapping(&[("packageName", package_name), ("version", version)]),
        };
        Property {
            type_: PROPERTY_PACKAGE.into(),
            value,
        }
    }

    /// `olm.package.required` with `packageName` and `versionRange`.
    pub fn package_required(package_name: &str, version_range: &str) -> Self {
        Property {
            type_: PROPERTY_PACKAGE_REQUIRED.into(),
            value: mapping(&[
                ("packageName", package_name),
                ("versionRange", version_range),
            ]),
        }
    }

    /// `olm.bundle.object` holding `data` (the base64 of a manifest's JSON).
    pub fn bundle_object(data: &str) -> Self {
        Property {
            type_: PROPERTY_BUNDLE_OBJECT.into(),
            value: mapping(&[("data", data)]),
        }
    }

    /// `olm.gvk` (or `olm.gvk.required` with `required`) with `group`, `kind`, `version`.
    pub fn gvk(group: &str, kind: &str, version: &str, required: bool) -> Self {
        Property {
            type_: if required {
                PROPERTY_GVK_REQUIRED
            } else {
                PROPERTY_GVK
            }
            .into(),
            value: mapping(&[("group", group), ("kind", kind), ("version", version)]),
        }
    }

    /// The value of an `olm.package` property, if this is one with string fields.
    pub(crate) fn as_package(&self) -> Option<PackageProperty> {
        if self.type_ != PROPERTY_PACKAGE {
            return None;
        }
        let get = |k: &str| {
            self.value
                .get(k)
                .and_then(Value::as_str)
                .map(str::to_string)
        };
        Some(PackageProperty {
            package_name: get("packageName")?,
            version: get("version")?,
        })
    }
}

/// One of a bundle's `relatedImages`: an image a cluster needs to run it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RelatedImage {
    /// `name`: the CSV's name for the image; `Some("")` for an unnamed one as `opm render` writes
    /// it (`name: ""`), `None` when the document left the key out.
    pub name: Option<String>,
    /// `image`: the image reference.
    pub image: String,
}

/// An `olm.bundle` document.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BundleDoc {
    /// `package`: the package the bundle belongs to; empty when the document has none.
    pub package: String,
    /// `name`: the bundle's name (its CSV's `metadata.name`); empty when the document has none.
    pub name: String,
    /// `image`: the bundle image reference (pinned by digest in a valid catalog); empty when the
    /// document has none.
    pub image: String,
    /// `properties`: the bundle's properties (`olm.package`, `olm.gvk`, …), in the order written.
    pub properties: Vec<Property>,
    /// `relatedImages`: the images a cluster needs to run the bundle, in the order written.
    pub related_images: Vec<RelatedImage>,
    /// The document's other keys, kept in their order.
    pub extra: Mapping,
    /// Where the document was read.
    pub origin: Origin,
}

impl BundleDoc {
    /// Every `olm.package` property (a valid bundle has exactly one).
    pub(crate) fn package_properties(&self) -> impl Iterator<Item = &Property> {
        self.properties
            .iter()
            .filter(|p| p.type_ == PROPERTY_PACKAGE)
    }

    /// The version of the single `olm.package` property, as written.
    pub fn version_str(&self) -> Option<String> {
        let mut it = self.package_properties();
        match (it.next(), it.next()) {
            (Some(p), None) => p.as_package().map(|p| p.version),
            _ => None,
        }
    }

    /// The version of the single `olm.package` property, parsed as SemVer.
    pub(crate) fn version(&self) -> Option<semver::Version> {
        self.version_str()
            .and_then(|v| semver::Version::parse(&v).ok())
    }
}

/// A document of any other schema, kept as read.
#[derive(Debug, Clone, PartialEq)]
pub struct OtherDoc {
    /// `schema`: the document's schema, any but the three this model types.
    pub schema: String,
    /// Its `package` field, if any.
    pub(crate) package: String,
    pub(crate) doc: Value,
    /// Where the document was read.
    pub origin: Origin,
}

impl OtherDoc {
    /// Its `package` field (empty when it has none).
    pub fn package(&self) -> &str {
        &self.package
    }
}

/// A catalog: every document of a catalog folder.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Catalog {
    /// The `olm.package` documents, in reading order.
    pub packages: Vec<PackageDoc>,
    /// The `olm.channel` documents, in reading order.
    pub channels: Vec<ChannelDoc>,
    /// The `olm.bundle` documents, in reading order.
    pub bundles: Vec<BundleDoc>,
    /// The documents of every other schema, in reading order.
    pub others: Vec<OtherDoc>,
}

impl Catalog {
    /// The package `name`'s `olm.package`, `olm.channel` and `olm.bundle` documents replaced
    /// by those of `with` (after the other packages'); the other packages' documents and those
    /// of other schemas are kept as they are.
    pub fn replace_package(&mut self, name: &str, with: Catalog) {
        self.packages.retain(|p| p.name != name);
        self.channels.retain(|c| c.package != name);
        self.bundles.retain(|b| b.package != name);
        self.packages.extend(with.packages);
        self.channels.extend(with.channels);
        self.bundles.extend(with.bundles);
    }

    /// The package `name`'s documents of every schema (its deprecations too) replaced by those
    /// of `with`; the other packages' documents are kept as they are.
    pub fn replace_package_all(&mut self, name: &str, mut with: Catalog) {
        self.others.retain(|o| o.package != name);
        self.others.append(&mut with.others);
        self.replace_package(name, with);
    }

    /// The `olm.package` document named `name` (the first one, if duplicated).
    pub fn package(&self, name: &str) -> Option<&PackageDoc> {
        self.packages.iter().find(|p| p.name == name)
    }

    pub(crate) fn channels_of<'a>(
        &'a self,
        package: &'a str,
    ) -> impl Iterator<Item = &'a ChannelDoc> {
        self.channels.iter().filter(move |c| c.package == package)
    }

    /// The `olm.channel` document `name` of `package` (the first one, if duplicated).
    pub fn channel(&self, package: &str, name: &str) -> Option<&ChannelDoc> {
        self.channels
            .iter()
            .find(|c| c.package == package && c.name == name)
    }

    /// The `olm.bundle` documents of `package`, in reading order.
    pub fn bundles_of<'a>(&'a self, package: &'a str) -> impl Iterator<Item = &'a BundleDoc> {
        self.bundles.iter().filter(move |b| b.package == package)
    }

    /// The `olm.bundle` document `name` of `package` (the first one, if duplicated).
    pub fn bundle(&self, package: &str, name: &str) -> Option<&BundleDoc> {
        self.bundles
            .iter()
            .find(|b| b.package == package && b.name == name)
    }

    /// Every package name any document mentions, sorted, once.
    pub fn package_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self
            .packages
            .iter()
            .map(|p| p.name.as_str())
            .chain(self.channels.iter().map(|c| c.package.as_str()))
            .chain(self.bundles.iter().map(|b| b.package.as_str()))
            .chain(self.others.iter().map(|o| o.package.as_str()))
            .filter(|n| !n.is_empty())
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    }
}
