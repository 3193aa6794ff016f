//! CRDs and what CSVs own, within one bundle: the fields a CRD needs, its versions and
//! conversion webhook; each owned CRD present (found by group, version and kind, as
//! operator-framework/api and the registry find it, and by name, as courier does) with the
//! CSV's kind and version; no CRD unowned and none twice; owned-CRD descriptions; and
//! `alm-examples` against the APIs the CSV provides.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_yaml_ng::Value;

use super::rules::Tool;
use super::{At, Sink, Unit, rules};
use crate::olm::{Manifest, value_at};

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
fn gvk_text(group: &str, version: &str, kind: &str) -> String {
    format!("{group}/{version}, Kind={kind}")
}

/// The `spec.customresourcedefinitions.owned` entries of a CSV.
fn owned(csv: &Manifest) -> &[Value] {
    value_at(&csv.doc, "spec.customresourcedefinitions.owned")
        .and_then(Value::as_sequence)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

pub fn check(unit: &Unit, sink: &mut Sink) {
    let crds: Vec<Crd> = unit.crds.iter().map(Crd::new).collect();
    for c in &crds {
        fields(c, sink);
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
            descriptions(o, &field(""), &at, sink);
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
                    &[Tool::Registry, Tool::Api]
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

/// The fields every CRD needs (courier 2.1.11's list and the API server's), its versions and
/// its conversion webhook.
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
            c.version.is_some() || c.has_versions,
        ),
    ] {
        if !present {
            sink.add(
                &rules::CRD_FIELDS,
                &at,
                path,
                format!("is missing (crd {path} not defined)"),
            );
        }
    }
    if let (Some(name), false, false) = (c.m.name(), c.plural.is_empty(), c.group.is_empty())
        && name != format!("{}.{}", c.plural, c.group)
    {
        let msg = format!(
            "is {name}; the API server requires <plural>.<group>, {}.{}",
            c.plural, c.group
        );
        sink.add_except(
            &rules::CRD_FIELDS,
            &[Tool::Courier, Tool::Registry],
            &at,
            "metadata.name",
            msg,
        );
    }
    if c.v1 && !c.has_versions && c.version.is_some() {
        let msg = "is set, but an apiextensions.k8s.io/v1 CRD has no spec.version: list it under spec.versions (the API server then finds no version, so none marked as storage version)";
        sink.add(&rules::CRD_VERSIONS, &at, "spec.version", msg);
    }
    let Some(vs) = value_at(doc, "spec.versions") else {
        return;
    };
    let Some(vs) = vs.as_sequence().filter(|v| !v.is_empty()) else {
        return sink.add(
            &rules::CRD_FIELDS,
            &at,
            "spec.versions",
            "must be a non-empty list",
        );
    };
    let mut names = HashSet::new();
    for (i, v) in vs.iter().enumerate() {
        if v.get("name").is_none() || v.get("served").is_none() || v.get("storage").is_none() {
            let msg = "needs name, served and storage";
            sink.add(&rules::CRD_FIELDS, &at, &format!("spec.versions[{i}]"), msg);
        }
        if let Some(n) = v.get("name").and_then(Value::as_str)
            && !names.insert(n)
        {
            let msg =
                format!("{n} is listed twice; spec.versions must contain unique version names");
            sink.add(
                &rules::CRD_VERSIONS,
                &at,
                &format!("spec.versions[{i}].name"),
                msg,
            );
        }
    }
    let storage = vs
        .iter()
        .filter(|v| v.get("storage") == Some(&Value::Bool(true)))
        .count();
    if storage != 1 {
        let msg =
            format!("flags {storage} versions as storage; exactly one must be the storage version");
        sink.add(&rules::CRD_FIELDS, &at, "spec.versions", msg);
    }
    if let (Some(v), Some(first)) = (c.version, c.versions.first())
        && !c.v1
        && v != *first
    {
        let msg = format!("is {v}, but spec.versions[0] is {first}; they must be the same");
        sink.add(&rules::CRD_VERSIONS, &at, "spec.version", msg);
    }
    if c.v1 && c.m.str_at("spec.conversion.strategy") == Some("Webhook") {
        let listed = value_at(doc, "spec.conversion.webhook.conversionReviewVersions")
            .and_then(Value::as_sequence)
            .is_some_and(|l| !l.is_empty());
        if !listed {
            let msg = "spec.conversion.conversionReviewVersions: Required value (a v1 CRD's Webhook conversion must list the ConversionReview versions it understands)";
            sink.add(
                &rules::CRD_CONVERSION,
                &at,
                "spec.conversion.webhook.conversionReviewVersions",
                msg,
            );
        }
    }
}

/// Owned entries' and descriptors' displayName and description (the 2019 CSV schema).
fn descriptions(owned: &Value, base: &str, at: &At, sink: &mut Sink) {
    if !sink.on(&rules::CRD_DESCRIPTIONS) {
        return;
    }
    for k in ["displayName", "description"] {
        if owned
            .get(k)
            .and_then(Value::as_str)
            .is_none_or(str::is_empty)
        {
            let msg = "is missing; the 2019 CSV schema requires it";
            sink.add(&rules::CRD_DESCRIPTIONS, at, &format!("{base}{k}"), msg);
        }
    }
    for kind in ["specDescriptors", "statusDescriptors", "actionDescriptors"] {
        let Some(ds) = owned.get(kind).and_then(Value::as_sequence) else {
            continue;
        };
        for (i, d) in ds.iter().enumerate() {
            for k in ["path", "displayName", "description"] {
                if d.get(k).and_then(Value::as_str).is_none_or(str::is_empty) {
                    let field = format!("{base}{kind}[{i}].{k}");
                    let msg = "is missing; the 2019 CSV schema requires it";
                    sink.add(&rules::CRD_DESCRIPTIONS, at, &field, msg);
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

/// The APIs a CSV provides: its owned CRDs and API services, as (group, version, kind).
fn provided(csv: &Manifest) -> Vec<(String, String, String)> {
    let mut out: Vec<(String, String, String)> = owned(csv)
        .iter()
        .filter_map(|o| {
            let get = |k: &str| o.get(k).and_then(Value::as_str);
            let group = get("name")?.split_once('.')?.1;
            Some((group.into(), get("version")?.into(), get("kind")?.into()))
        })
        .collect();
    if let Some(services) =
        value_at(&csv.doc, "spec.apiservicedefinitions.owned").and_then(Value::as_sequence)
    {
        for s in services {
            let get = |k: &str| s.get(k).and_then(Value::as_str).unwrap_or("").to_string();
            out.push((get("group"), get("version"), get("kind")));
        }
    }
    out
}

/// `alm-examples`: JSON (courier); a list of CRs of APIs the CSV provides (api); an example for
/// every provided API (a warning).
pub fn examples(csv: &Manifest, value: Option<&Value>, at: &At, sink: &mut Sink) {
    let field = "metadata.annotations.alm-examples";
    let provided = provided(csv);
    let coverage = |sink: &mut Sink, covered: &[bool]| {
        for (o, _) in provided.iter().zip(covered).filter(|(_, c)| !**c) {
            let msg = format!(
                "has no example of provided API {} (provided API should have an example annotation)",
                gvk_text(&o.0, &o.1, &o.2)
            );
            sink.add(&rules::ALM_EXAMPLES_COVERAGE, at, field, msg);
        }
    };
    let Some(value) = value else {
        if !provided.is_empty() {
            let msg = "is missing; users get no example CR (example annotations not found)";
            sink.add(&rules::ALM_EXAMPLES_COVERAGE, at, field, msg);
        }
        return;
    };
    let Some(text) = value.as_str() else {
        return; // a type error
    };
    if text.trim().is_empty() {
        let msg = "is empty; courier parses it as JSON and fails, newer tools see no example";
        sink.add(&rules::ALM_EXAMPLES_EMPTY, at, field, msg);
        return coverage(sink, &vec![false; provided.len()]);
    }
    let parsed: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            let msg = format!("is not valid JSON: invalid example (JSON parse error): {e}");
            return sink.add(&rules::ALM_EXAMPLES, at, field, msg);
        }
    };
    let Some(items) = parsed.as_array() else {
        let msg = "is valid JSON but not a list of CRs (error decoding example CustomResource)";
        return sink.add(&rules::ALM_EXAMPLES_KIND, at, field, msg);
    };
    let mut covered = vec![false; provided.len()];
    for (i, ex) in items.iter().enumerate() {
        let api = ex.get("apiVersion").and_then(|v| v.as_str()).unwrap_or("");
        let kind = ex.get("kind").and_then(|v| v.as_str()).unwrap_or("");
        let (group, version) = api.split_once('/').unwrap_or(("", api));
        match provided
            .iter()
            .position(|o| (o.0.as_str(), o.1.as_str(), o.2.as_str()) == (group, version, kind))
        {
            Some(j) => covered[j] = true,
            None => {
                let msg = format!(
                    "example {i} is a {kind} of {api}, which the CSV does not provide (example must have a provided API)"
                );
                sink.add(&rules::ALM_EXAMPLES_KIND, at, field, msg);
            }
        }
    }
    coverage(sink, &covered);
}
