//! Writing a catalog: one layout, byte for byte the same for the same model.
//!
//! Layout: `<root>/<package>/catalog.yaml`, one file per package (the usual layout of
//! olm-docs' file-based catalogs and of the community catalogs), YAML because a release adds a
//! few lines that reviewers read in a pull request. Documents with no package (other schemas)
//! go to `<root>/catalog.yaml`. Inside a file: `olm.package`, then the `olm.channel` documents
//! by name, then the `olm.bundle` documents by version (oldest first, so a release appends),
//! then documents of other schemas in the order they were read; each document starts with
//! `---`. Keys come in a fixed order (`schema`, `package`, `name`, then the schema's fields as
//! the olm-docs examples show them, then any other keys sorted); channel entries go by bundle
//! version, oldest first. Each document is written on its own, so a document the model did not
//! change keeps its bytes, and a rerun on an unchanged model writes identical files.

use std::collections::{BTreeMap, HashMap};

use serde_yaml_ng::{Mapping, Value};

use super::error::CatalogError;
use super::model::*;
use olm_release_base::yaml;

/// The file a package's documents are written to, relative to the catalog root.
pub fn package_file(package: &str) -> Result<String, CatalogError> {
    let safe = !package.is_empty()
        && package != "."
        && package != ".."
        && !package.starts_with('.')
        && !package.contains(['/', '\\', '\0']);
    if !safe {
        return Err(CatalogError::UnsafePackageName {
            name: package.into(),
        });
    }
    Ok(format!("{package}/catalog.yaml"))
}

/// The file documents without a package are written to.
pub(crate) const SHARED_FILE: &str = "catalog.yaml";

/// Every file of the catalog in the chosen layout: relative path → content.
pub fn render(catalog: &Catalog) -> Result<BTreeMap<String, String>, CatalogError> {
    let mut files = BTreeMap::new();
    for package in catalog.package_names() {
        let path = package_file(package)?;
        files.insert(path, render_package(catalog, package));
    }
    let loose: Vec<&OtherDoc> = catalog
        .others
        .iter()
        .filter(|o| o.package.is_empty())
        .collect();
    if !loose.is_empty() {
        let mut out = String::new();
        for o in loose {
            push_doc(&mut out, &o.doc);
        }
        files.insert(SHARED_FILE.into(), out);
    }
    Ok(files)
}

/// The documents of one package, in the file's order.
pub(crate) fn render_package(catalog: &Catalog, package: &str) -> String {
    let mut out = String::new();
    for p in catalog.packages.iter().filter(|p| p.name == package) {
        push_doc(&mut out, &package_value(p));
    }
    let mut channels: Vec<&ChannelDoc> = catalog.channels_of(package).collect();
    channels.sort_by(|a, b| a.name.cmp(&b.name));
    let mut bundles: Vec<(Option<semver::Version>, &BundleDoc)> = catalog
        .bundles_of(package)
        .map(|b| (b.version(), b))
        .collect();
    // Unparsable versions last, by name; stable, so duplicates keep their read order.
    bundles.sort_by(|(va, a), (vb, b)| match (va, vb) {
        (Some(x), Some(y)) => x.cmp(y).then_with(|| a.name.cmp(&b.name)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.name.cmp(&b.name),
    });
    let versions: HashMap<&str, semver::Version> = bundles
        .iter()
        .filter_map(|(v, b)| v.clone().map(|v| (b.name.as_str(), v)))
        .collect();
    for c in channels {
        push_doc(&mut out, &channel_value(c, &versions));
    }
    for (_, b) in bundles {
        push_doc(&mut out, &bundle_value(b));
    }
    for o in catalog.others.iter().filter(|o| o.package == package) {
        push_doc(&mut out, &o.doc);
    }
    out
}

pub(crate) fn push_doc(out: &mut String, doc: &Value) {
    out.push_str("---\n");
    out.push_str(&yaml::to_string(doc));
}

fn put(m: &mut Mapping, key: &str, value: impl Into<Value>) {
    m.insert(Value::from(key), value.into());
}

/// Appends the extra keys, sorted by their text.
fn put_extra(m: &mut Mapping, extra: &Mapping) {
    let mut keys: Vec<(String, &Value, &Value)> = extra
        .iter()
        .map(|(k, v)| (yaml::to_string(k), k, v))
        .collect();
    keys.sort_by(|a, b| a.0.cmp(&b.0));
    for (_, k, v) in keys {
        m.insert(k.clone(), v.clone());
    }
}

pub(crate) fn package_value(p: &PackageDoc) -> Value {
    let mut m = Mapping::new();
    put(&mut m, "schema", SCHEMA_PACKAGE);
    put(&mut m, "name", p.name.as_str());
    if let Some(d) = &p.default_channel {
        put(&mut m, "defaultChannel", d.as_str());
    }
    if let Some(d) = &p.description {
        put(&mut m, "description", d.as_str());
    }
    if let Some(icon) = &p.icon {
        let mut i = Mapping::new();
        put(&mut i, "base64data", icon.base64data.as_str());
        put(&mut i, "mediatype", icon.mediatype.as_str());
        put(&mut m, "icon", Value::Mapping(i));
    }
    put_extra(&mut m, &p.extra);
    Value::Mapping(m)
}

pub(crate) fn channel_value(c: &ChannelDoc, versions: &HashMap<&str, semver::Version>) -> Value {
    let mut entries: Vec<&Entry> = c.entries.iter().collect();
    entries.sort_by(
        |a, b| match (versions.get(a.name.as_str()), versions.get(b.name.as_str())) {
            (Some(x), Some(y)) => x.cmp(y).then_with(|| a.name.cmp(&b.name)),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => a.name.cmp(&b.name),
        },
    );
    channel_with(c, entries)
}

/// A channel document with its entries in the order listed (a template's).
pub(crate) fn channel_value_as_listed(c: &ChannelDoc) -> Value {
    channel_with(c, c.entries.iter().collect())
}

fn channel_with(c: &ChannelDoc, entries: Vec<&Entry>) -> Value {
    let entries: Vec<Value> = entries
        .into_iter()
        .map(|e| {
            let mut m = Mapping::new();
            put(&mut m, "name", e.name.as_str());
            if let Some(r) = &e.replaces {
                put(&mut m, "replaces", r.as_str());
            }
            if !e.skips.is_empty() {
                let skips: Vec<Value> = e.skips.iter().map(|s| Value::from(s.as_str())).collect();
                put(&mut m, "skips", Value::Sequence(skips));
            }
            if let Some(r) = &e.skip_range {
                put(&mut m, "skipRange", r.as_str());
            }
            put_extra(&mut m, &e.extra);
            Value::Mapping(m)
        })
        .collect();
    let mut m = Mapping::new();
    put(&mut m, "schema", SCHEMA_CHANNEL);
    put(&mut m, "package", c.package.as_str());
    put(&mut m, "name", c.name.as_str());
    put(&mut m, "entries", Value::Sequence(entries));
    put_extra(&mut m, &c.extra);
    Value::Mapping(m)
}

pub(crate) fn bundle_value(b: &BundleDoc) -> Value {
    let props: Vec<Value> = b
        .properties
        .iter()
        .map(|p| {
            let mut m = Mapping::new();
            put(&mut m, "type", p.type_.as_str());
            put(&mut m, "value", p.value.clone());
            Value::Mapping(m)
        })
        .collect();
    let mut m = Mapping::new();
    put(&mut m, "schema", SCHEMA_BUNDLE);
    put(&mut m, "package", b.package.as_str());
    put(&mut m, "name", b.name.as_str());
    put(&mut m, "image", b.image.as_str());
    put(&mut m, "properties", Value::Sequence(props));
    if !b.related_images.is_empty() {
        let images = b
            .related_images
            .iter()
            .map(|r| {
                let mut i = Mapping::new();
                put(&mut i, "image", r.image.as_str());
                if let Some(n) = &r.name {
                    put(&mut i, "name", n.as_str());
                }
                Value::Mapping(i)
            })
            .collect();
        put(&mut m, "relatedImages", Value::Sequence(images));
    }
    put_extra(&mut m, &b.extra);
    Value::Mapping(m)
}
