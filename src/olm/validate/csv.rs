//! Rules on one CSV by itself: identity (1 `spec.version`, 2 `metadata.name`, 15 required
//! fields), annotations (12 `alm-examples`, 17 capabilities and categories, 21 `certified`,
//! 6 `olm.skipRange`) and the CSV's own view of the graph (3 `replaces` itself, 5 `skips`).
//! Presentation fields are in [`super::present`]; install modes, the install strategy and
//! permissions in [`super::install`].

use serde_yaml_ng::Value;

use super::text::{Range, is_dns1123_subdomain, strict_semver};
use super::{At, Profile, Sink, rules};
use crate::olm::{Manifest, value_at};

const CAPABILITIES: &[&str] = &[
    "Basic Install",
    "Seamless Upgrades",
    "Full Lifecycle",
    "Deep Insights",
    "Auto Pilot",
];
/// courier 2019's list (fact sheet §4.2); the modern api adds the last two.
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

/// A YAML value's type, for messages.
pub fn type_name(v: &Value) -> &'static str {
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

pub fn check(csv: &Manifest, sink: &mut Sink) {
    let at = At::of(csv);
    let doc = &csv.doc;
    match doc.get("metadata").and_then(|m| m.get("name")) {
        Some(Value::String(name)) => {
            if !is_dns1123_subdomain(name) || name.len() > 63 {
                let msg =
                    format!("'{name}' is not a lowercase DNS-1123 name of at most 63 characters");
                sink.add(&rules::CSV_NAME, &at, "metadata.name", msg);
            }
        }
        Some(other) => sink.add(
            &rules::CSV_REQUIRED,
            &at,
            "metadata.name",
            format!("is {}, not a string", type_name(other)),
        ),
        None => sink.add(&rules::CSV_REQUIRED, &at, "metadata.name", "is missing"),
    }
    if doc.get("apiVersion").is_none() {
        sink.add(&rules::CSV_REQUIRED, &at, "apiVersion", "is missing");
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
            &rules::CSV_REQUIRED,
            &at,
            "spec.displayName",
            "is missing or empty",
        );
    }
    for (field, rule) in [
        ("description", &rules::CSV_UI_FIELDS),
        ("provider", &rules::CSV_UI_FIELDS),
        ("icon", &rules::CSV_RECOMMENDED),
        ("maturity", &rules::CSV_RECOMMENDED),
    ] {
        if spec.get(field).is_none() {
            sink.add(rule, &at, &format!("spec.{field}"), "is missing");
        }
    }
    super::present::check(spec, &at, sink);
    graph_fields(csv, spec, &at, sink);
}

fn version(csv: &Manifest, spec: &Value, at: &At, sink: &mut Sink) {
    let field = "spec.version";
    match spec.get("version") {
        None => sink.add(&rules::CSV_VERSION, at, field, "is missing"),
        Some(Value::String(v)) => match strict_semver(v) {
            None => sink.add(
                &rules::CSV_VERSION,
                at,
                field,
                format!(
                    "'{v}' is not strict SemVer 2.0 (e.g. 1.2.3, no v prefix, no leading zeros)"
                ),
            ),
            Some(_) => {
                if let Some(name) = csv.name()
                    && !(name.ends_with(&format!(".v{v}")) || name.ends_with(&format!(".{v}")))
                {
                    let msg = format!(
                        "metadata.name {name} does not end in .v{v} (spec.version); no upstream tool compares them"
                    );
                    sink.add(&rules::CSV_NAME_VERSION, at, "metadata.name", msg);
                }
            }
        },
        Some(other) => {
            let msg = format!(
                "is {}, not a string; 2019 OLM fails to decode the whole CSV",
                type_name(other)
            );
            sink.add(&rules::CSV_VERSION, at, field, msg);
        }
    }
}

fn annotations(csv: &Manifest, at: &At, sink: &mut Sink) {
    let Some(ann) = value_at(&csv.doc, "metadata.annotations").filter(|a| a.is_mapping()) else {
        sink.add(
            &rules::CSV_UI_FIELDS,
            at,
            "metadata.annotations",
            "is missing",
        );
        return;
    };
    for key in [
        "categories",
        "description",
        "containerImage",
        "createdAt",
        "support",
        "certified",
    ] {
        if ann.get(key).is_none() {
            sink.add(
                &rules::CSV_RECOMMENDED,
                at,
                &format!("metadata.annotations.{key}"),
                "is missing",
            );
        }
    }
    if let Some(v) = ann.get("certified").filter(|v| !v.is_string()) {
        let msg = format!("is {}, not a string", type_name(v));
        sink.add(&rules::CERTIFIED, at, "metadata.annotations.certified", msg);
    }
    if let Some(v) = ann.get("capabilities") {
        let s = v.as_str().unwrap_or("");
        if !CAPABILITIES.contains(&s) {
            let msg = format!("'{s}' is not one of {}", CAPABILITIES.join(", "));
            sink.add(
                &rules::CSV_CAPABILITIES,
                at,
                "metadata.annotations.capabilities",
                msg,
            );
        }
    }
    if let Some(v) = ann.get("categories") {
        let known = match sink.opts.profile {
            Profile::Appregistry2019 => &CATEGORIES[..14],
            Profile::Modern => CATEGORIES,
        };
        for c in v.as_str().unwrap_or("").split(',').map(str::trim) {
            if !known.contains(&c) {
                let msg = format!("category '{c}' is not in the catalog's list");
                sink.add(
                    &rules::CSV_CATEGORIES,
                    at,
                    "metadata.annotations.categories",
                    msg,
                );
            }
        }
    }
    if let Some(v) = ann.get("olm.skipRange") {
        let field = "metadata.annotations.olm.skipRange";
        match Range::parse(v.as_str().unwrap_or("")) {
            Err(e) => sink.add(&rules::SKIP_RANGE, at, field, e),
            Ok(range) => {
                if let Some(own) = csv.spec_version().and_then(strict_semver)
                    && range.contains(&own)
                {
                    let msg = format!(
                        "contains the CSV's own version {own}; OLM would upgrade it to itself"
                    );
                    sink.add(&rules::SKIP_RANGE, at, field, msg);
                }
            }
        }
    }
    let examples = ann.get("alm-examples").or_else(|| ann.get("olm.examples"));
    super::crd::examples(csv, examples, at, sink);
}

fn graph_fields(csv: &Manifest, spec: &Value, at: &At, sink: &mut Sink) {
    let replaces = match spec.get("replaces") {
        None | Some(Value::Null) => None,
        Some(Value::String(r)) if r.is_empty() => None,
        Some(Value::String(r)) => Some(r.as_str()),
        Some(other) => {
            let msg = format!("is {}, not the name of a CSV", type_name(other));
            sink.add(&rules::REPLACES_TARGET, at, "spec.replaces", msg);
            None
        }
    };
    if replaces.is_some() && replaces == csv.name() {
        sink.add(
            &rules::REPLACES_SELF,
            at,
            "spec.replaces",
            "names the CSV itself",
        );
    }
    let Some(skips) = spec.get("skips") else {
        return;
    };
    let Some(items) = skips.as_sequence() else {
        sink.add(
            &rules::SKIPS,
            at,
            "spec.skips",
            format!("is {}, not a list of CSV names", type_name(skips)),
        );
        return;
    };
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
            Some(_) => {}
            None => sink.add(
                &rules::SKIPS,
                at,
                &field,
                format!("is {}, not a CSV name", type_name(s)),
            ),
        }
    }
}
