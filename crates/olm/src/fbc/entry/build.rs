//! A bundle's `olm.bundle` entry as `opm render` writes it for the bundle image: its properties
//! from the CSV, its CRDs and other manifests, the bundle's `metadata/dependencies.yaml` and
//! `metadata/properties.yaml` and the CSV's `olm.properties` annotation, in opm's order and
//! shapes, and its `relatedImages` (operator-registry `pkg/registry/parse.go`,
//! `pkg/registry/registry_to_model.go`, `alpha/action/render.go`,
//! `alpha/action/migrations/000_bundle_object_to_csv_metadata.go`).
//!
//! - `olm.package` {packageName, version[, release]} from the package and the CSV (one wins when
//!   `properties.yaml` or `olm.properties` also carry one: the last, as opm keeps it — and it must
//!   name the same package and version, or the entry is refused);
//! - `olm.gvk` for every version of every CRD in the bundle and every owned API service, and for
//!   each `olm.gvk` of the properties;
//! - `olm.gvk.required` for each CSV-required CRD (`plural.group`) and API service, and each
//!   `olm.gvk` dependency; `olm.package.required` {packageName, versionRange} for each
//!   `olm.package` dependency; every other dependency (`olm.constraint`, `olm.label`) and
//!   property (`olm.maxOpenShiftVersion`, …) as written;
//! - sorted by type, then by the bytes of the value's JSON; then, by default, one
//!   `olm.csv.metadata` at the end (`opm render --migrate-level bundle-object-to-csv-metadata`, which
//!   community catalogs for OpenShift 4.17 and later require), or with [`ObjectStyle::BundleObjects`]
//!   one `olm.bundle.object` per manifest (opm's default without a migration), last, in that order.

use std::collections::BTreeSet;

use base64::Engine as _;
use serde_yaml_ng::{Mapping, Value};

use super::super::error::CatalogError;
use super::super::model::*;
use super::super::properties::crd_gvks;
use super::csv_metadata::{csv_metadata, sorted};
use super::gojson;
use super::related::related_images;
use crate::{Manifest, value_at};

/// How a bundle's manifests appear in its entry.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ObjectStyle {
    /// One `olm.csv.metadata` property (what catalog UIs read), no manifests: the default.
    #[default]
    CsvMetadata,
    /// One `olm.bundle.object` per manifest (base64 of its JSON), as `opm render` writes without
    /// a migration (`catalog.bundle_objects: true`).
    BundleObjects,
}

/// What a bundle's entry is made from.
#[derive(Debug, Clone, Copy)]
pub struct BundleSource<'a> {
    /// The package (the bundle's `operators.operatorframework.io.bundle.package.v1` annotation).
    pub package: &'a str,
    /// The bundle image reference the entry lists (pinned by digest when published).
    pub image: &'a str,
    /// The bundle's ClusterServiceVersion.
    pub csv: &'a Manifest,
    /// Every other manifest of the bundle (CRDs and other objects).
    pub objects: &'a [Manifest],
    /// The entries of the bundle's `metadata/dependencies.yaml`.
    pub dependencies: &'a [Property],
    /// The entries of the bundle's `metadata/properties.yaml`.
    pub properties: &'a [Property],
    /// How the manifests appear.
    pub style: ObjectStyle,
}

/// `(group, kind, version)`.
type Gvk = (String, String, String);

/// The `olm.bundle` document of the bundle `src` describes.
pub fn bundle_entry(src: &BundleSource) -> Result<BundleDoc, CatalogError> {
    let csv = src.csv;
    let name = csv.name().unwrap_or_default().to_string();
    let version = csv.spec_version().unwrap_or_default().to_string();
    let release = value_at(&csv.doc, "spec.release").and_then(|r| match r {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    });
    let own = Property::package_release(src.package, &version, release.as_deref());
    // parse.go: properties.yaml, then the annotations' olm.package, then olm.properties, then the
    // provided APIs; exact duplicates dropped.
    let mut listed: Vec<(Property, &'static str)> = Vec::new();
    listed.extend(
        src.properties
            .iter()
            .map(|p| (p.clone(), "metadata/properties.yaml")),
    );
    listed.push((own.clone(), ""));
    listed.extend(
        annotation_properties(csv)
            .into_iter()
            .map(|p| (p, "the CSV's olm.properties annotation")),
    );
    let mut seen = BTreeSet::new();
    listed.retain(|(p, _)| seen.insert((p.type_.clone(), gojson::to_string(&p.value))));

    let mut provided: BTreeSet<Gvk> = BTreeSet::new();
    let mut required: BTreeSet<Gvk> = BTreeSet::new();
    let mut package = own.clone();
    let mut others: Vec<Property> = Vec::new();
    for (p, from) in listed {
        match p.type_.as_str() {
            PROPERTY_GVK => {
                provided.insert(gvk_of(&p, from)?);
            }
            PROPERTY_PACKAGE => {
                if !from.is_empty() {
                    same_package(&name, src.package, &version, &p, from)?;
                }
                package = p;
            }
            _ => others.push(sorted_value(p)),
        }
    }
    let mut package_required = Vec::new();
    for p in src.dependencies {
        let from = "metadata/dependencies.yaml";
        match p.type_.as_str() {
            PROPERTY_GVK => {
                required.insert(gvk_of(p, from)?);
            }
            PROPERTY_PACKAGE => {
                let field = |k: &str| p.value.get(k).and_then(Value::as_str).unwrap_or_default();
                package_required.push(Property::package_required(
                    field("packageName"),
                    field("version"),
                ));
            }
            _ => others.push(sorted_value(p.clone())),
        }
    }
    provided.extend(provided_apis(csv, src.objects));
    required.extend(required_apis(csv));

    let mut props = vec![package];
    props.extend(
        provided
            .iter()
            .map(|(g, k, v)| Property::gvk(g, k, v, false)),
    );
    props.extend(
        required
            .iter()
            .map(|(g, k, v)| Property::gvk(g, k, v, true)),
    );
    props.extend(package_required);
    props.extend(others);
    let mut objects: Vec<Property> = std::iter::once(csv)
        .chain(src.objects)
        .map(|m| {
            Property::bundle_object(
                &base64::engine::general_purpose::STANDARD.encode(gojson::to_string(&m.doc)),
            )
        })
        .collect();
    props.append(&mut objects);
    let mut keyed: Vec<(String, Property)> = props
        .into_iter()
        .map(|p| (gojson::to_string(&p.value), p))
        .collect();
    keyed.sort_by(|(va, a), (vb, b)| a.type_.cmp(&b.type_).then_with(|| va.cmp(vb)));
    let (mut last, mut properties): (Vec<Property>, Vec<Property>) = keyed
        .into_iter()
        .map(|(_, p)| p)
        .partition(|p| p.type_ == PROPERTY_BUNDLE_OBJECT || p.type_ == PROPERTY_CSV_METADATA);
    let migrate = src.style == ObjectStyle::CsvMetadata
        && !last.iter().any(|p| p.type_ == PROPERTY_CSV_METADATA);
    if migrate {
        last.retain(|p| p.type_ != PROPERTY_BUNDLE_OBJECT);
        last.push(Property {
            type_: PROPERTY_CSV_METADATA.into(),
            value: csv_metadata(csv),
        });
    }
    properties.append(&mut last);
    Ok(BundleDoc {
        package: src.package.to_string(),
        name,
        image: src.image.to_string(),
        properties,
        related_images: related_images(csv, src.image),
        ..BundleDoc::default()
    })
}

/// `p` with its value's keys sorted, as `opm render -o yaml` writes a value it copied.
fn sorted_value(p: Property) -> Property {
    Property {
        value: sorted(p.value),
        ..p
    }
}

/// The properties of the CSV's `olm.properties` annotation (a JSON list of `{type, value}`);
/// none when it does not parse, as opm only logs that.
pub(crate) fn annotation_properties(csv: &Manifest) -> Vec<Property> {
    let text = csv.annotation("olm.properties");
    let Some(Ok(serde_json::Value::Array(items))) = text.map(serde_json::from_str) else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|i| {
            Some(Property {
                type_: i.get("type")?.as_str()?.to_string(),
                value: serde_yaml_ng::to_value(i.get("value")?).ok()?,
            })
        })
        .collect()
}

/// An `olm.gvk` value's group, kind and version (absent fields empty, as Go decodes them).
fn gvk_of(p: &Property, from: &str) -> Result<Gvk, CatalogError> {
    let Value::Mapping(m) = &p.value else {
        return Err(CatalogError::BundleProperty {
            from: from.into(),
            message: format!(
                "an {} value must be a mapping {{group, kind, version}}",
                p.type_
            ),
        });
    };
    let field = |k: &str| -> Result<String, CatalogError> {
        match m.get(k) {
            None | Some(Value::Null) => Ok(String::new()),
            Some(Value::String(s)) => Ok(s.clone()),
            Some(_) => Err(CatalogError::BundleProperty {
                from: from.into(),
                message: format!("the {k} of an {} value must be a string", p.type_),
            }),
        }
    };
    Ok((field("group")?, field("kind")?, field("version")?))
}

/// An `olm.package` property beside the bundle's own must name its package and version.
fn same_package(
    bundle: &str,
    package: &str,
    version: &str,
    p: &Property,
    from: &str,
) -> Result<(), CatalogError> {
    let field = |k: &str| {
        p.value
            .get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let (named, named_version) = (field("packageName"), field("version"));
    if named == package && named_version == version {
        return Ok(());
    }
    Err(CatalogError::PackageMismatch {
        bundle: bundle.into(),
        package: package.into(),
        version: version.into(),
        from: from.into(),
        named: format!("{named} {named_version}"),
    })
}

/// The APIs the bundle provides: every version of each CRD in it, each owned API service, and
/// each CRD the CSV owns that the bundle does not carry (named by the CSV).
pub(crate) fn provided_apis(csv: &Manifest, objects: &[Manifest]) -> BTreeSet<Gvk> {
    let crds: Vec<&Manifest> = objects
        .iter()
        .filter(|o| o.kind() == Some("CustomResourceDefinition"))
        .collect();
    let mut out: BTreeSet<Gvk> = crds.iter().flat_map(|c| crd_gvks(c)).collect();
    for r in refs(csv, "spec.apiservicedefinitions.owned") {
        out.insert(api_gvk(r));
    }
    for r in refs(csv, "spec.customresourcedefinitions.owned") {
        let name = r.get("name").and_then(Value::as_str);
        if !crds.iter().any(|c| c.name().is_some() && c.name() == name)
            && let Some(g) = crd_ref_gvk(r)
        {
            out.insert(g);
        }
    }
    out
}

/// The APIs the bundle requires: each CSV-required CRD (its `name` is `plural.group`) and API
/// service.
pub(crate) fn required_apis(csv: &Manifest) -> BTreeSet<Gvk> {
    let mut out: BTreeSet<Gvk> = refs(csv, "spec.customresourcedefinitions.required")
        .into_iter()
        .filter_map(crd_ref_gvk)
        .collect();
    out.extend(
        refs(csv, "spec.apiservicedefinitions.required")
            .into_iter()
            .map(api_gvk),
    );
    out
}

fn refs<'a>(csv: &'a Manifest, path: &str) -> Vec<&'a Value> {
    value_at(&csv.doc, path)
        .and_then(Value::as_sequence)
        .map(|s| s.iter().collect())
        .unwrap_or_default()
}

fn text(v: &Value, k: &str) -> String {
    v.get(k)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

fn api_gvk(r: &Value) -> Gvk {
    (text(r, "group"), text(r, "kind"), text(r, "version"))
}

/// `{name: <plural>.<group>, version, kind}` as a GVK; `None` when the name has no group.
fn crd_ref_gvk(r: &Value) -> Option<Gvk> {
    let name = r.get("name").and_then(Value::as_str)?;
    let (_, group) = name.split_once('.')?;
    Some((group.to_string(), text(r, "kind"), text(r, "version")))
}

/// A dependencies or properties file's list (`dependencies:` or `properties:`) as properties.
pub fn file_properties(doc: &Value, key: &str, from: &str) -> Result<Vec<Property>, CatalogError> {
    let bad = |message: String| CatalogError::BundleProperty {
        from: from.into(),
        message,
    };
    let items = match doc.get(key) {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Sequence(items)) => items,
        Some(_) => return Err(bad(format!("{key} must be a list of {{type, value}}"))),
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let m: &Mapping = item
                .as_mapping()
                .ok_or_else(|| bad(format!("{key}[{i}] must be a mapping {{type, value}}")))?;
            let type_ = m
                .get("type")
                .and_then(Value::as_str)
                .filter(|t| !t.is_empty())
                .ok_or_else(|| bad(format!("{key}[{i}].type must be a non-empty string")))?;
            Ok(Property {
                type_: type_.to_string(),
                value: m.get("value").cloned().unwrap_or(Value::Null),
            })
        })
        .collect()
}
