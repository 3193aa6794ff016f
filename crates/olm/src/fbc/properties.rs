//! What a bundle's catalog entry reads from its CSV and CRDs besides the entry builder
//! ([`super::entry`]): the CRDs a CSV owns (so a migrated bundle carries the ones it was
//! released with), the group/version/kinds a CRD serves, and the CSV's `olm.skipRange`.

use serde_yaml_ng::Value;

use crate::{Manifest, value_at};

/// `(group, kind, version)`.
pub(crate) type Gvk = (String, String, String);

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
pub fn owned_crds<M: std::borrow::Borrow<Manifest> + Clone>(csv: &Manifest, crds: &[M]) -> Vec<M> {
    let owned: Vec<(&str, Option<&str>)> = crd_refs(csv, "owned")
        .into_iter()
        .filter_map(|o| {
            Some((
                o.get("name").and_then(Value::as_str)?,
                o.get("version").and_then(Value::as_str),
            ))
        })
        .collect();
    let mut out: Vec<M> = Vec::new();
    for item in crds {
        let crd: &Manifest = item.borrow();
        let Some(name) = crd.name() else { continue };
        let matches = owned.iter().any(|(n, v)| {
            *n == name
                && match (crd.spec_version(), v) {
                    (Some(cv), Some(v)) => cv == *v,
                    _ => true,
                }
        });
        if matches && !out.iter().any(|o| o.borrow().name() == Some(name)) {
            out.push(item.clone());
        }
    }
    out
}

/// Group, kind and every version a CRD declares (`spec.versions[].name`, or the 2019
/// `spec.version`).
pub(crate) fn crd_gvks(crd: &Manifest) -> Vec<Gvk> {
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

/// `metadata.annotations["olm.skipRange"]` of a CSV (the key holds a dot, so no dotted path).
pub(crate) fn skip_range(csv: &Manifest) -> Option<&str> {
    csv.annotation("olm.skipRange").filter(|s| !s.is_empty())
}
