//! A bundle's catalog properties, derived from its CSV and CRDs the way `opm render` derives
//! them from a registry+v1 bundle (operator-registry `alpha/property`, olm-docs
//! "file-based-catalogs", "Properties"): one `olm.package` (package name and the CSV's
//! `spec.version`), one `olm.gvk` per version of every CRD the bundle owns, and one
//! `olm.gvk.required` per CRD the CSV requires. Written in a fixed order (package first, then
//! by group, kind, version) so the same bundle always gives the same document.

use serde_yaml_ng::Value;

use super::model::Property;
use crate::{Manifest, value_at};

/// `(group, kind, version)`.
type Gvk = (String, String, String);

/// The names in `spec.customresourcedefinitions.<list>[].name` of a CSV.
fn crd_refs<'a>(csv: &'a Manifest, list: &str) -> Vec<&'a Value> {
    value_at(&csv.doc, &format!("spec.customresourcedefinitions.{list}"))
        .and_then(Value::as_sequence)
        .map(|s| s.iter().collect())
        .unwrap_or_default()
}

/// The CRDs among `crds` that `csv` owns (`spec.customresourcedefinitions.owned[].name`),
/// each once. A 2019-era single-version CRD (apiextensions v1beta1 `spec.version`) matches
/// only an owned entry of its version, so a cumulative bundle carrying two versions of one CRD
/// gives each CSV the one it was released with.
pub fn owned_crds(csv: &Manifest, crds: &[Manifest]) -> Vec<Manifest> {
    let owned: Vec<(&str, Option<&str>)> = crd_refs(csv, "owned")
        .into_iter()
        .filter_map(|o| {
            Some((
                o.get("name").and_then(Value::as_str)?,
                o.get("version").and_then(Value::as_str),
            ))
        })
        .collect();
    let mut out: Vec<Manifest> = Vec::new();
    for crd in crds {
        let Some(name) = crd.name() else { continue };
        let matches = owned.iter().any(|(n, v)| {
            *n == name
                && match (crd.spec_version(), v) {
                    (Some(cv), Some(v)) => cv == *v,
                    _ => true,
                }
        });
        if matches && !out.iter().any(|o| o.name() == Some(name)) {
            out.push(crd.clone());
        }
    }
    out
}

/// Group, kind and every version a CRD declares (`spec.versions[].name`, or the 2019
/// `spec.version`).
fn crd_gvks(crd: &Manifest) -> Vec<Gvk> {
    let group = crd.str_at("spec.group").unwrap_or_default().to_string();
    let kind = crd
        .str_at("spec.names.kind")
        .unwrap_or_default()
        .to_string();
    let mut versions: Vec<String> = value_at(&crd.doc, "spec.versions")
        .and_then(Value::as_sequence)
        .map(|s| {
            s.iter()
                .filter_map(|v| v.get("name").and_then(Value::as_str))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    if let Some(v) = crd.spec_version()
        && !versions.iter().any(|x| x == v)
    {
        versions.push(v.to_string());
    }
    versions
        .into_iter()
        .map(|v| (group.clone(), kind.clone(), v))
        .collect()
}

/// A CSV's reference `{name: <plural>.<group>, version, kind}` as a GVK.
fn ref_gvk(r: &Value) -> Option<Gvk> {
    let name = r.get("name").and_then(Value::as_str)?;
    let group = name.split_once('.').map(|(_, g)| g).unwrap_or_default();
    Some((
        group.to_string(),
        r.get("kind").and_then(Value::as_str)?.to_string(),
        r.get("version").and_then(Value::as_str)?.to_string(),
    ))
}

/// The properties of the bundle holding `csv` and `crds` (the CRDs in the bundle image).
pub fn bundle_properties(package: &str, csv: &Manifest, crds: &[Manifest]) -> Vec<Property> {
    let version = csv.spec_version().unwrap_or_default();
    let mut provided: Vec<Gvk> = owned_crds(csv, crds).iter().flat_map(crd_gvks).collect();
    // An owned CRD that is not in the bundle still names its group/version/kind in the CSV.
    for r in crd_refs(csv, "owned") {
        let name = r.get("name").and_then(Value::as_str);
        if !crds.iter().any(|c| c.name().is_some() && c.name() == name)
            && let Some(g) = ref_gvk(r)
        {
            provided.push(g);
        }
    }
    let mut required: Vec<Gvk> = crd_refs(csv, "required")
        .into_iter()
        .filter_map(ref_gvk)
        .collect();
    for list in [&mut provided, &mut required] {
        list.sort();
        list.dedup();
    }
    let mut props = vec![Property::package(package, version)];
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
    props
}

/// `metadata.annotations["olm.skipRange"]` of a CSV (the key holds a dot, so no dotted path).
pub(crate) fn skip_range(csv: &Manifest) -> Option<&str> {
    csv.doc
        .get("metadata")
        .and_then(|m| m.get("annotations"))
        .and_then(|a| a.get("olm.skipRange"))
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}
