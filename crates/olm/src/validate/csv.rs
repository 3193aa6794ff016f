//! Rules on one CSV by itself: identity (`metadata.name`, `spec.version`, the fields a CSV
//! needs), its annotations (`alm-examples`, capabilities, categories, `certified`, the exact
//! spelling of OLM's annotations, `olm.skipRange`) and its own view of the graph (`skips`).
//! Presentation fields are in [`super::present`]; install modes, the install strategy and
//! permissions in [`super::install`]; field types in `types`.

use serde_yaml_ng::Value;

use super::model::Profile;
use super::rules;
use super::sink::{At, Sink};
use super::text::{Range, is_dns1123_subdomain, strict_semver, tolerant_semver};
use crate::{Manifest, value_at};

const CAPABILITIES: &[&str] = &[
    "Basic Install",
    "Seamless Upgrades",
    "Full Lifecycle",
    "Deep Insights",
    "Auto Pilot",
];
/// The catalog's categories as courier 2.1.11 lists them; operator-framework/api adds the last
/// two.
const CATEGORIES: &[&str] = &[
    "AI/Machine Learning",
    "Application Runtime",
    "Big Data",
    "Cloud Provider",
    "Developer Tools",
    "Database",
    "Integration & Delivery",
    "Logging & Tracing",
    "Monitoring",
    "Networking",
    "OpenShift Optional",
    "Security",
    "Storage",
    "Streaming & Messaging",
    "Modernization & Migration",
    "Observability",
];
/// OLM's annotations whose case matters (operator-framework/api's case-sensitive set).
const CASE_SENSITIVE: &[&str] = &[
    "olm.operatorGroup",
    "olm.operatorNamespace",
    "olm.targetNamespaces",
    "olm.providedAPIs",
    "olm.skipRange",
];

/// A YAML value's type, for messages.
pub(crate) fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Sequence(_) => "a list",
        Value::Mapping(_) => "a mapping",
        Value::Tagged(_) => "a tagged value",
    }
}

/// Checks one CSV by itself (its name, version and required fields, its annotations, what the
/// catalog shows of it, its `skips`), adding the findings to `sink`.
pub fn check(csv: &Manifest, sink: &mut Sink) {
    let at = At::of(csv);
    let doc = &csv.doc;
    match doc.get("metadata").and_then(|m| m.get("name")) {
        Some(Value::String(name)) => {
            if !is_dns1123_subdomain(name) || name.len() > 63 {
                let msg = format!(
                    "'{name}' is invalid: must be a lowercase DNS-1123 name of no more than 63 characters"
                );
                sink.add(&rules::CSV_NAME, &at, "metadata.name", msg);
            }
        }
        Some(_) => {} // a type error, reported by the type checks
        None => sink.add(&rules::CSV_REQUIRED, &at, "metadata.name", "is missing"),
    }
    for key in ["apiVersion", "kind"] {
        if doc.get(key).is_none() {
            sink.add(&rules::CSV_REQUIRED, &at, key, "is missing");
        }
    }
    annotations(csv, &at, sink);
    let Some(spec) = doc.get("spec").filter(|s| s.is_mapping()) else {
        sink.add(&rules::CSV_REQUIRED, &at, "spec", "is missing");
        return;
    };
    version(csv, spec, &at, sink);
    if spec
        .get("displayName")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        sink.add(
            &rules::CSV_DISPLAY_NAME,
            &at,
            "spec.displayName",
            "is missing or empty",
        );
    }
    if spec.get("provider").is_none() {
        let msg = "is missing (provider name not specified)";
        sink.add(&rules::CSV_PROVIDER, &at, "spec.provider", msg);
    }
    for (field, rule) in [
        ("description", &rules::CSV_UI_FIELDS),
        ("icon", &rules::CSV_RECOMMENDED),
        ("maturity", &rules::CSV_RECOMMENDED),
    ] {
        if spec.get(field).is_none() {
            sink.add(rule, &at, &format!("spec.{field}"), "is missing");
        }
    }
    super::present::check(spec, &at, sink);
    skips(csv, spec, &at, sink);
}

fn version(csv: &Manifest, spec: &Value, at: &At, sink: &mut Sink) {
    let field = "spec.version";
    let v = match spec.get("version") {
        None | Some(Value::Null) => {
            return sink.add(&rules::CSV_VERSION_MISSING, at, field, "is missing");
        }
        Some(Value::String(v)) => v,
        Some(_) => return, // a type error, reported by the type checks
    };
    let Some(parsed) = tolerant_semver(v) else {
        let msg = format!("'{v}' is not a valid semantic version");
        return sink.add(&rules::CSV_VERSION, at, field, msg);
    };
    if strict_semver(v).is_none() {
        let msg = format!(
            "'{v}' is read as {parsed} by OLM today, but it is not strict SemVer 2.0 (no v prefix, three numbers, no leading zeros)"
        );
        sink.add(&rules::CSV_VERSION_STRICT, at, field, msg);
    }
    if let Some(name) = csv.name()
        && !(name.ends_with(&format!(".v{v}")) || name.ends_with(&format!(".{v}")))
    {
        let msg = format!(
            "metadata.name {name} does not end in .v{v} (spec.version); no upstream tool compares them"
        );
        sink.add(&rules::CSV_NAME_VERSION, at, "metadata.name", msg);
    }
}

fn annotations(csv: &Manifest, at: &At, sink: &mut Sink) {
    let Some(ann) = value_at(&csv.doc, "metadata.annotations").and_then(Value::as_mapping) else {
        sink.add(
            &rules::CSV_UI_FIELDS,
            at,
            "metadata.annotations",
            "is missing",
        );
        return;
    };
    let get = |k: &str| ann.get(k);
    for key in [
        "categories",
        "description",
        "containerImage",
        "createdAt",
        "support",
        "certified",
    ] {
        if get(key).is_none() {
            sink.add(
                &rules::CSV_RECOMMENDED,
                at,
                &format!("metadata.annotations.{key}"),
                "is missing",
            );
        }
    }
    if let Some(v) = get("certified").filter(|v| !v.is_string()) {
        let msg = format!("is {}, not a string", type_name(v));
        sink.add(&rules::CERTIFIED, at, "metadata.annotations.certified", msg);
    }
    if let Some(v) = get("capabilities") {
        let s = v.as_str().unwrap_or("");
        if !CAPABILITIES.contains(&s) {
            let msg = format!(
                "'{s}' is not a valid capabilities level (one of {})",
                CAPABILITIES.join(", ")
            );
            let field = "metadata.annotations.capabilities";
            sink.add(&rules::CSV_CAPABILITIES, at, field, msg);
        }
    }
    if let Some(v) = get("categories") {
        categories(v.as_str().unwrap_or(""), at, sink);
    }
    for key in ann.keys().filter_map(Value::as_str) {
        if let Some(right) = CASE_SENSITIVE
            .iter()
            .find(|k| k.eq_ignore_ascii_case(key) && **k != key)
        {
            let msg = format!("annotation {key} uses wrong case; should be {right}");
            let field = format!("metadata.annotations.{key}");
            sink.add_fix(
                &rules::ANNOTATION_CASE,
                at,
                &field,
                msg,
                format!("rename it to {right}"),
            );
        }
    }
    if get("olm.properties").is_some() {
        let msg = "declares properties in the CSV; define them in metadata/properties.yaml";
        sink.add(
            &rules::OLM_PROPERTIES,
            at,
            "metadata.annotations.olm.properties",
            msg,
        );
    }
    // An empty olm.skipRange is none: operator-registry reads it so (alpha/model checks a
    // bundle's skipRange only when it is not empty), as kustomize's `olm.skipRange: ""` in
    // operator-sdk projects writes it.
    if let Some(v) = get("olm.skipRange").filter(|v| v.as_str() != Some("")) {
        let field = "metadata.annotations.olm.skipRange";
        let text = v.as_str().unwrap_or("");
        if let Err(e) = Range::parse(text) {
            let msg = format!("'{text}' is not a semver range OLM can read: {e}");
            sink.add(&rules::SKIP_RANGE, at, field, msg);
        }
    }
    // operator-framework/api reads olm.examples when alm-examples is absent; courier never does.
    match (get("alm-examples"), get("olm.examples")) {
        (Some(v), _) => super::examples::check(csv, Some(v), "alm-examples", at, sink),
        (None, Some(v)) => super::examples::check(csv, Some(v), "olm.examples", at, sink),
        (None, None) => super::examples::check(csv, None, "alm-examples", at, sink),
    }
}

/// Each comma-separated category against the catalog's list, or the `--categories` file's.
fn categories(value: &str, at: &At, sink: &mut Sink) {
    let custom = sink.opts.categories.clone();
    let known: Vec<&str> = match &custom {
        Some(list) => list.iter().map(String::as_str).collect(),
        None if sink.opts.profile == Profile::Appregistry2019 => CATEGORIES[..14].to_vec(),
        None => CATEGORIES.to_vec(),
    };
    let set = if custom.is_some() {
        "the --categories file's list"
    } else {
        "the set of standard categories"
    };
    for c in value.split(',').map(str::trim) {
        if !known.contains(&c) {
            let msg = format!("value \"{c}\" is not in {set}");
            let field = "metadata.annotations.categories";
            sink.add(&rules::CSV_CATEGORIES, at, field, msg);
        }
    }
}

/// `spec.skips`: CSV names, none repeating `spec.replaces`. (Its type is a type check.)
fn skips(csv: &Manifest, spec: &Value, at: &At, sink: &mut Sink) {
    let Some(items) = spec.get("skips").and_then(Value::as_sequence) else {
        return;
    };
    let replaces = csv.replaces();
    for (i, s) in items.iter().enumerate() {
        let field = format!("spec.skips[{i}]");
        match s.as_str() {
            Some(name) if !is_dns1123_subdomain(name) => sink.add(
                &rules::SKIPS,
                at,
                &field,
                format!("'{name}' is not a CSV name"),
            ),
            Some(name) if Some(name) == replaces => sink.add(
                &rules::SKIPS,
                at,
                &field,
                format!("repeats spec.replaces ({name}); a CSV either replaces or skips another"),
            ),
            _ => {}
        }
    }
}
