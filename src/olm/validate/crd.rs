//! CRDs and what CSVs own: the CRD fields courier requires, each owned CRD present with the
//! CSV's name, kind and version (checklist rule 7), no unowned CRD and no GVK twice (rule 8),
//! owned-CRD descriptions (rule 18), the singular `spec.version` of 2019 CRDs (rule 23),
//! `alm-examples` against the owned kinds (rule 12), and the same GVK across the packages of
//! one catalog (rule 22).

use std::collections::{HashMap, HashSet};

use serde_yaml_ng::Value;

use super::csv::type_name;
use super::{At, Options, Sink, rules};
use crate::olm::{Bundle, Finding, Manifest, value_at};

/// The facts of one CRD the checks compare.
struct Crd<'a> {
    m: &'a Manifest,
    group: &'a str,
    kind: &'a str,
    plural: &'a str,
    /// The singular `spec.version` (2019 CRDs).
    version: Option<&'a str>,
    /// Names in `spec.versions`.
    versions: Vec<&'a str>,
}

impl<'a> Crd<'a> {
    fn new(m: &'a Manifest) -> Self {
        let s = |p: &str| m.str_at(p).unwrap_or("");
        let versions = value_at(&m.doc, "spec.versions")
            .and_then(Value::as_sequence)
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
        }
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

/// The `spec.customresourcedefinitions.owned` entries of a CSV.
fn owned(csv: &Manifest) -> &[Value] {
    value_at(&csv.doc, "spec.customresourcedefinitions.owned")
        .and_then(Value::as_sequence)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

pub fn check(bundle: &Bundle, sink: &mut Sink) {
    let crds: Vec<Crd> = bundle.crds.iter().map(Crd::new).collect();
    for c in &crds {
        fields(c, sink);
    }
    let by_name: HashMap<&str, &Crd> = crds
        .iter()
        .filter_map(|c| c.m.name().map(|n| (n, c)))
        .collect();
    let mut owned_names: HashSet<&str> = HashSet::new();
    for csv in &bundle.csvs {
        let at = At::of(csv);
        for (i, o) in owned(csv).iter().enumerate() {
            let field = |f: &str| format!("spec.customresourcedefinitions.owned[{i}].{f}");
            let get = |k: &str| o.get(k).and_then(Value::as_str).unwrap_or("");
            let (name, kind, version) = (get("name"), get("kind"), get("version"));
            for (k, v) in [("name", name), ("kind", kind), ("version", version)] {
                if v.is_empty() {
                    sink.add(&rules::CRD_OWNED, &at, &field(k), "is missing");
                }
            }
            for k in ["displayName", "description"] {
                if o.get(k).and_then(Value::as_str).is_none_or(str::is_empty) {
                    sink.add(
                        &rules::CRD_DESCRIPTIONS,
                        &at,
                        &field(k),
                        "is missing; the 2019 CSV schema requires it",
                    );
                }
            }
            descriptors(o, &field(""), &at, sink);
            if name.is_empty() {
                continue;
            }
            owned_names.insert(name);
            let Some(crd) = by_name.get(name) else {
                let msg = format!("names {name}, which is not a CRD in the bundle");
                sink.add_fix(
                    &rules::CRD_OWNED,
                    &at,
                    &field("name"),
                    msg,
                    "add the CRD's manifest to the bundle (each CRD once)",
                );
                continue;
            };
            if !kind.is_empty() && kind != crd.kind {
                sink.add(
                    &rules::CRD_OWNED,
                    &at,
                    &field("kind"),
                    format!("is {kind} but CRD {name} defines {}", crd.kind),
                );
            }
            if !crd.plural.is_empty()
                && !crd.group.is_empty()
                && name != format!("{}.{}", crd.plural, crd.group)
            {
                let msg = format!(
                    "is {name} but the CRD's plural.group is {}.{}",
                    crd.plural, crd.group
                );
                sink.add(&rules::CRD_OWNED, &at, &field("name"), msg);
            }
            if !version.is_empty() && !crd.versions.is_empty() && !crd.versions.contains(&version) {
                let msg = format!(
                    "is {version} but CRD {name} lists versions {}",
                    crd.versions.join(", ")
                );
                sink.add(&rules::CRD_OWNED, &at, &field("version"), msg);
            }
            if let Some(v) = crd.version.filter(|v| !version.is_empty() && v != &version) {
                let msg = format!(
                    "is {version} but CRD {name} has spec.version {v}; courier fails it and 2019 OLM installs without the CRD"
                );
                sink.add(&rules::CRD_VERSION, &at, &field("version"), msg);
            }
        }
    }
    for c in &crds {
        let at = At::of(c.m);
        let name = c.m.name().unwrap_or("");
        if c.version.is_none() {
            let msg = "is missing; courier up to 2.1.7 and 2019 OLM read the singular version";
            sink.add(&rules::CRD_VERSION, &at, "spec.version", msg);
        }
        if !owned_names.contains(name) {
            sink.add(
                &rules::CRD_UNOWNED,
                &at,
                "metadata.name",
                "is owned by no CSV of the bundle",
            );
        }
    }
    duplicates(&crds, sink);
}

/// The fields courier 2.1.11 requires of every CRD.
fn fields(c: &Crd, sink: &mut Sink) {
    let at = At::of(c.m);
    let doc = &c.m.doc;
    for (path, present) in [
        ("metadata.name", c.m.name().is_some()),
        ("apiVersion", doc.get("apiVersion").is_some()),
        ("spec.group", !c.group.is_empty()),
        ("spec.names.kind", !c.kind.is_empty()),
        ("spec.names.plural", !c.plural.is_empty()),
        (
            "spec.version or spec.versions",
            c.version.is_some() || value_at(doc, "spec.versions").is_some(),
        ),
    ] {
        if !present {
            sink.add(&rules::CRD_FIELDS, &at, path, "is missing");
        }
    }
    if let Some(vs) = value_at(doc, "spec.versions") {
        let Some(vs) = vs.as_sequence().filter(|v| !v.is_empty()) else {
            return sink.add(
                &rules::CRD_FIELDS,
                &at,
                "spec.versions",
                "must be a non-empty list",
            );
        };
        for (i, v) in vs.iter().enumerate() {
            if v.get("name").is_none() || v.get("served").is_none() || v.get("storage").is_none() {
                sink.add(
                    &rules::CRD_FIELDS,
                    &at,
                    &format!("spec.versions[{i}]"),
                    "needs name, served and storage",
                );
            }
        }
        let storage = vs
            .iter()
            .filter(|v| v.get("storage") == Some(&Value::Bool(true)))
            .count();
        if storage != 1 {
            sink.add(
                &rules::CRD_FIELDS,
                &at,
                "spec.versions",
                format!("flags {storage} versions as storage; exactly one must be"),
            );
        }
    }
}

fn descriptors(owned: &Value, base: &str, at: &At, sink: &mut Sink) {
    for kind in ["specDescriptors", "statusDescriptors", "actionDescriptors"] {
        let Some(ds) = owned.get(kind).and_then(Value::as_sequence) else {
            continue;
        };
        for (i, d) in ds.iter().enumerate() {
            for k in ["path", "displayName", "description"] {
                if d.get(k).and_then(Value::as_str).is_none_or(str::is_empty) {
                    let field = format!("{base}{kind}[{i}].{k}");
                    sink.add(
                        &rules::CRD_DESCRIPTIONS,
                        at,
                        &field,
                        "is missing; the 2019 CSV schema requires it",
                    );
                }
            }
        }
    }
}

/// The same group/version/kind defined by two CRD manifests.
fn duplicates(crds: &[Crd], sink: &mut Sink) {
    let mut first: HashMap<(&str, &str, &str), &Crd> = HashMap::new();
    for c in crds {
        for gvk in c.gvks() {
            match first.get(&gvk) {
                Some(prev) if !std::ptr::eq(*prev, c) => {
                    let msg = format!(
                        "defines {}/{} {} again (first in {}); the registry fails: can't add the same CRD twice",
                        gvk.0, gvk.1, gvk.2, prev.m.file
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

/// `alm-examples`: a JSON array of CRs whose kinds the CSV owns; every owned kind with one.
pub fn examples(csv: &Manifest, value: Option<&Value>, at: &At, sink: &mut Sink) {
    let field = "metadata.annotations.alm-examples";
    let owned: Vec<(&str, &str, &str)> = owned(csv)
        .iter()
        .filter_map(|o| {
            let get = |k: &str| o.get(k).and_then(Value::as_str);
            let group = get("name")?.split_once('.')?.1;
            Some((group, get("version")?, get("kind")?))
        })
        .collect();
    let Some(value) = value else {
        if !owned.is_empty() {
            sink.add(
                &rules::ALM_EXAMPLES_COVERAGE,
                at,
                field,
                "is missing; users get no example CR",
            );
        }
        return;
    };
    let Some(text) = value.as_str() else {
        return sink.add(
            &rules::ALM_EXAMPLES,
            at,
            field,
            format!("is {}, not a string holding JSON", type_name(value)),
        );
    };
    let parsed: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            return sink.add(
                &rules::ALM_EXAMPLES,
                at,
                field,
                format!("is not valid JSON: {e}"),
            );
        }
    };
    let Some(items) = parsed.as_array() else {
        return sink.add(
            &rules::ALM_EXAMPLES,
            at,
            field,
            "is valid JSON but not an array of CRs",
        );
    };
    let mut covered = vec![false; owned.len()];
    for (i, ex) in items.iter().enumerate() {
        let api = ex.get("apiVersion").and_then(|v| v.as_str()).unwrap_or("");
        let kind = ex.get("kind").and_then(|v| v.as_str()).unwrap_or("");
        let (group, version) = api.split_once('/').unwrap_or(("", api));
        match owned.iter().position(|o| *o == (group, version, kind)) {
            Some(j) => covered[j] = true,
            None => {
                let msg = format!("example {i} is a {kind} of {api}, which the CSV does not own");
                sink.add(&rules::ALM_EXAMPLES, at, field, msg);
            }
        }
    }
    for (o, _) in owned.iter().zip(&covered).filter(|(_, c)| !**c) {
        sink.add(
            &rules::ALM_EXAMPLES_COVERAGE,
            at,
            field,
            format!("has no example of owned kind {} ({}/{})", o.2, o.0, o.1),
        );
    }
}

/// Rule 22: the same CRD group/version/kind in two packages of one catalog (an OperatorSource
/// or CatalogSourceConfig loads them together and the registry fails).
pub fn check_catalog(bundles: &[Bundle], opts: &Options) -> Vec<Finding> {
    let mut sink = Sink::new(opts);
    let mut first: HashMap<(String, String, String), &str> = HashMap::new();
    for b in bundles {
        let mut mine = Vec::new();
        for m in &b.crds {
            for (g, v, k) in Crd::new(m).gvks() {
                let key = (g.to_string(), v.to_string(), k.to_string());
                match first.get(&key) {
                    Some(pkg) if *pkg != b.package.package_name => {
                        let msg = format!(
                            "defines {g}/{v} {k}, also defined by package {pkg} in the same catalog"
                        );
                        sink.add(&rules::CATALOG_CRD_DUPLICATE, &At::of(m), "spec", msg);
                    }
                    _ => mine.push(key),
                }
            }
        }
        for key in mine {
            first.entry(key).or_insert(&b.package.package_name);
        }
    }
    sink.out
}
