//! CRDs and what CSVs own, within one bundle: each owned CRD present (found by group, version
//! and kind, as operator-framework/api and the registry find it, and by name, as courier
//! does) with the CSV's kind and version; no CRD unowned and none twice. The checks of one CRD
//! by itself (fields, versions, conversion webhook) and of the owned entries' descriptions
//! are in `fields`.

mod fields;

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_yaml_ng::Value;

use super::model::Unit;
use super::rules;
use super::rules::Tool;
use super::sink::{At, Sink};
use crate::{Manifest, value_at};

/// The facts of one CRD the checks compare.
struct Crd<'a> {
    m: &'a Manifest,
    group: &'a str,
    kind: &'a str,
    plural: &'a str,
    /// The singular `spec.version` (apiextensions v1beta1).
    version: Option<&'a str>,
    /// Names in `spec.versions`.
    versions: Vec<&'a str>,
    has_versions: bool,
    v1: bool,
}

impl<'a> Crd<'a> {
    fn new(m: &'a Manifest) -> Self {
        let s = |p: &str| m.str_at(p).unwrap_or("");
        let list = value_at(&m.doc, "spec.versions").and_then(Value::as_sequence);
        let versions = list
            .map(|vs| {
                vs.iter()
                    .filter_map(|v| v.get("name").and_then(Value::as_str))
                    .collect()
            })
            .unwrap_or_default();
        Crd {
            m,
            group: s("spec.group"),
            kind: s("spec.names.kind"),
            plural: s("spec.names.plural"),
            version: m.str_at("spec.version"),
            versions,
            has_versions: list.is_some(),
            v1: m.str_at("apiVersion") == Some("apiextensions.k8s.io/v1"),
        }
    }

    fn defines(&self, version: &str) -> bool {
        self.version == Some(version) || self.versions.contains(&version)
    }

    /// Every (group, version, kind) it defines.
    fn gvks(&self) -> Vec<(&'a str, &'a str, &'a str)> {
        let mut vs: Vec<&str> = self
            .version
            .into_iter()
            .chain(self.versions.iter().copied())
            .collect();
        vs.sort_unstable();
        vs.dedup();
        vs.into_iter().map(|v| (self.group, v, self.kind)).collect()
    }
}

/// An owned entry: its CSV, its index and whether it matches the CRD's singular version.
type Entry<'a> = (&'a Manifest, usize, bool);

/// A group/version/kind as the Kubernetes libraries print it.
pub(crate) fn gvk_text(group: &str, version: &str, kind: &str) -> String {
    format!("{group}/{version}, Kind={kind}")
}

/// The `spec.customresourcedefinitions.owned` entries of a CSV.
pub(crate) fn owned(csv: &Manifest) -> &[Value] {
    value_at(&csv.doc, "spec.customresourcedefinitions.owned")
        .and_then(Value::as_sequence)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

/// Checks the CRDs of one bundle, each by itself and against what its CSVs own (present, unowned,
/// defined twice, versions an older CSV still owns), adding the findings to `sink`.
pub fn check(unit: &Unit, sink: &mut Sink) {
    let crds: Vec<Crd> = unit.crds.iter().map(Crd::new).collect();
    for c in &crds {
        fields::fields(c, sink);
    }
    // (CSV, CRD name) → its owned entries naming a CRD with a singular version, and whether
    // each equals it (courier compares them CSV by CSV).
    let mut singular: BTreeMap<(usize, &str), Vec<Entry>> = BTreeMap::new();
    let mut owned_kinds: HashSet<(&str, &str)> = HashSet::new();
    for (n, csv) in unit.csvs.iter().enumerate() {
        let at = At::of(csv);
        for (i, o) in owned(csv).iter().enumerate() {
            let field = |f: &str| format!("spec.customresourcedefinitions.owned[{i}].{f}");
            let get = |k: &str| o.get(k).and_then(Value::as_str).unwrap_or("");
            let (name, kind, version) = (get("name"), get("kind"), get("version"));
            for (k, v) in [("name", name), ("kind", kind), ("version", version)] {
                if v.is_empty() {
                    let msg = format!(
                        "is missing ({k} not defined for item in spec.customresourcedefinitions)"
                    );
                    sink.add(&rules::CRD_OWNED, &at, &field(k), msg);
                }
            }
            fields::descriptions(o, &field(""), &at, sink);
            if name.is_empty() || kind.is_empty() || version.is_empty() {
                continue;
            }
            let group = name.split_once('.').map_or("", |(_, g)| g);
            owned_kinds.insert((group, kind));
            let by_name = crds.iter().find(|c| c.m.name() == Some(name));
            let by_gvk = crds
                .iter()
                .find(|c| c.group == group && c.kind == kind && c.defines(version));
            let Some(c) = by_name else {
                match by_gvk {
                    None => {
                        let msg = format!(
                            "owned CRD \"{}\" not found in bundle: no CRD manifest named {name} or defining it",
                            gvk_text(group, version, kind)
                        );
                        sink.add_fix(
                            &rules::CRD_OWNED,
                            &at,
                            &field("name"),
                            msg,
                            "add the CRD's manifest to the bundle (each CRD once)",
                        );
                    }
                    Some(g) => {
                        let msg = format!(
                            "is {name}, but the CRD defining {} is named {}; courier looks CRDs up by name",
                            gvk_text(group, version, kind),
                            g.m.name().unwrap_or("(unnamed)")
                        );
                        sink.add(&rules::CRD_OWNED_NAME, &at, &field("name"), msg);
                    }
                }
                continue;
            };
            if c.kind != kind && !c.kind.is_empty() {
                let msg = format!(
                    "is {kind} but CRD {name} defines {} (CRD.spec.names.kind does not match)",
                    c.kind
                );
                sink.add(&rules::CRD_OWNED, &at, &field("kind"), msg);
            }
            if !c.plural.is_empty()
                && !c.group.is_empty()
                && name != format!("{}.{}", c.plural, c.group)
            {
                let msg = format!(
                    "is {name} but the CRD's plural.group is {}.{} (`CRD.spec.names.plural`.`CRD.spec.group` does not match)",
                    c.plural, c.group
                );
                sink.add(&rules::CRD_OWNED, &at, &field("name"), msg);
            }
            if c.has_versions && !c.versions.contains(&version) {
                let msg = format!(
                    "is {version}, which is not in CRD {name}'s spec.versions list ({})",
                    c.versions.join(", ")
                );
                sink.add(&rules::CRD_OWNED, &at, &field("version"), msg);
            } else if let Some(v) = c.version {
                singular
                    .entry((n, name))
                    .or_default()
                    .push((csv, i, v == version));
            }
        }
    }
    // courier: with a singular spec.version, one owned entry of the CSV naming the CRD must
    // match it; the others then only lack their version in the CRD (the registry warns, api
    // refuses).
    for ((_, name), entries) in singular {
        let c = crds.iter().find(|c| c.m.name() == Some(name));
        let Some(c) = c else { continue };
        let any = entries.iter().any(|(_, _, ok)| *ok);
        for (csv, i, _) in entries.into_iter().filter(|e| !e.2) {
            let owned_v = owned(csv)[i]
                .get("version")
                .and_then(Value::as_str)
                .unwrap_or("");
            let field = format!("spec.customresourcedefinitions.owned[{i}].version");
            let at = At::of(csv);
            if !any {
                let msg = format!(
                    "is {owned_v} but CRD {name} has spec.version {} (CRD.spec.version does not match CSV.spec.crd.owned.version)",
                    c.version.unwrap_or("")
                );
                let except: &[Tool] = if c.defines(owned_v) {
                    &[Tool::OperatorRegistry, Tool::Api]
                } else {
                    &[]
                };
                sink.add_except(&rules::CRD_OWNED, except, &at, &field, msg);
            } else if !c.defines(owned_v) {
                let msg = format!(
                    "is {owned_v}, which CRD {name} no longer defines (it defines {}); clusters installing this CSV lack that version",
                    c.gvks().iter().map(|g| g.1).collect::<Vec<_>>().join(", ")
                );
                sink.add(&rules::CRD_OWNED_DRIFT, &at, &field, msg);
            }
        }
    }
    for c in &crds {
        if !owned_kinds.contains(&(c.group, c.kind)) {
            let gvk = c
                .gvks()
                .first()
                .map(|g| gvk_text(g.0, g.1, g.2))
                .unwrap_or_default();
            let msg = format!(
                "CRD \"{gvk}\" is present in bundle but not defined in CSV (owned by no CSV)"
            );
            sink.add(&rules::CRD_UNOWNED, &At::of(c.m), "metadata.name", msg);
        }
    }
    duplicates(&crds, sink);
}

/// The same group/version/kind defined by two CRD manifests.
fn duplicates(crds: &[Crd], sink: &mut Sink) {
    let mut first: HashMap<(&str, &str, &str), &Crd> = HashMap::new();
    for c in crds {
        for gvk in c.gvks() {
            match first.get(&gvk) {
                Some(prev) if !std::ptr::eq(*prev, c) => {
                    let msg = format!(
                        "duplicate CRD \"{}\" in bundle (first in {}); the registry fails: can't add the same CRD twice",
                        gvk_text(gvk.0, gvk.1, gvk.2),
                        prev.m.file
                    );
                    sink.add(&rules::CRD_DUPLICATE, &At::of(c.m), "spec", msg);
                }
                Some(_) => {}
                None => {
                    first.insert(gvk, c);
                }
            }
        }
    }
}
