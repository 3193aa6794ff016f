//! What the catalog shows of a CSV: the icon, maturity, maintainers, links and provider, and
//! `minKubeVersion`. (Their types are checked in `types`.)

use serde_yaml_ng::Value;

use super::rules;
use super::rules::Tool;
use super::sink::{At, Sink};
use super::text::{is_email, is_url, strict_semver};

const MATURITY: &[&str] = &[
    "planning",
    "pre-alpha",
    "alpha",
    "beta",
    "stable",
    "mature",
    "inactive",
    "deprecated",
];
const MEDIATYPES: &[&str] = &["image/gif", "image/jpeg", "image/png", "image/svg+xml"];

/// A scalar as text (`1.21` for a YAML number), for checks that read what a string field
/// would hold.
pub(crate) fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Checks what the catalog shows of a CSV's `spec` (icon, maturity, maintainers, links, provider,
/// `minKubeVersion`), adding the findings, at `at`, to `sink`.
pub fn check(spec: &Value, at: &At, sink: &mut Sink) {
    if let Some(list) = spec.get("icon").and_then(Value::as_sequence) {
        icon(list, at, sink);
    }
    if let Some(s) = spec.get("maturity").and_then(Value::as_str)
        && !MATURITY.contains(&s)
    {
        let msg = format!("'{s}' is not one of {}", MATURITY.join(", "));
        sink.add(&rules::CSV_MATURITY, at, "spec.maturity", msg);
    }
    list_of_pairs(
        spec,
        "maintainers",
        "email",
        is_email,
        &rules::CSV_MAINTAINERS,
        at,
        sink,
    );
    list_of_pairs(spec, "links", "url", is_url, &rules::CSV_LINKS, at, sink);
    if let Some(p) = spec.get("provider").and_then(Value::as_mapping) {
        if p.get("name")
            .and_then(Value::as_str)
            .is_none_or(str::is_empty)
        {
            sink.add(&rules::CSV_PROVIDER, at, "spec.provider.name", "is missing");
        }
        let others: Vec<&str> = p
            .keys()
            .filter_map(Value::as_str)
            .filter(|k| *k != "name")
            .collect();
        if !others.is_empty() {
            let msg = format!(
                "has keys besides name ({}); OperatorHub's courier check allows name only",
                others.join(", ")
            );
            sink.add(&rules::CSV_PROVIDER_KEYS, at, "spec.provider", msg);
        }
    }
    if let Some(s) = spec.get("minKubeVersion").and_then(scalar_text)
        && !s.trim().is_empty()
        && strict_semver(&s).is_none()
    {
        let msg = format!("has an invalid value: {s} (not X.Y.Z)");
        sink.add(&rules::MIN_KUBE_VERSION, at, "spec.minKubeVersion", msg);
    }
}

fn icon(list: &[Value], at: &At, sink: &mut Sink) {
    if list.len() != 1 {
        let msg = format!(
            "has {} elements; it should only have one element (the catalog shows exactly one)",
            list.len()
        );
        sink.add(&rules::ICON_HUB, at, "spec.icon", msg);
    }
    for (i, icon) in list.iter().enumerate() {
        let field = format!("spec.icon[{i}]");
        let data = icon.get("base64data").and_then(Value::as_str);
        let mediatype = icon.get("mediatype").and_then(Value::as_str);
        if data.is_none_or(str::is_empty) || mediatype.is_none_or(str::is_empty) {
            sink.add(
                &rules::ICON,
                at,
                &field,
                "needs both base64data and mediatype",
            );
        }
        if let Some(mt) = mediatype.filter(|mt| !mt.is_empty() && !MEDIATYPES.contains(mt)) {
            let msg = format!(
                "mediatype {mt} is not a valid mediatype (one of {})",
                MEDIATYPES.join(", ")
            );
            sink.add(&rules::ICON_HUB, at, &format!("{field}.mediatype"), msg);
        }
        let keys = icon.as_mapping().map_or(0, |m| m.len());
        if data.is_some() && mediatype.is_some() && keys != 2 {
            let msg = "has keys besides base64data and mediatype";
            sink.add_except(&rules::ICON_HUB, &[Tool::ApiHub], at, &field, msg);
        }
    }
}

/// A list of `{name, <key>}` entries whose `<key>` must pass `valid`. (A list of something
/// else is a type error, reported by the type checks.)
fn list_of_pairs(
    spec: &Value,
    list: &str,
    key: &str,
    valid: fn(&str) -> bool,
    rule: &rules::Rule,
    at: &At,
    sink: &mut Sink,
) {
    let Some(items) = spec.get(list).and_then(Value::as_sequence) else {
        return;
    };
    for (i, item) in items.iter().enumerate() {
        let field = format!("spec.{list}[{i}]");
        let name = item.get("name").and_then(Value::as_str).unwrap_or("");
        match item.get(key).and_then(Value::as_str) {
            v if name.is_empty() || v.is_none_or(str::is_empty) => sink.add(
                rule,
                at,
                &field,
                format!(
                    "needs both a name and {} {key} (elements should contain both name and {key})",
                    if key == "email" { "an" } else { "a" }
                ),
            ),
            Some(s) if !valid(s) => sink.add(
                rule,
                at,
                &format!("{field}.{key}"),
                format!(
                    "{s} is not a valid {}",
                    if key == "url" {
                        "absolute http(s) URL"
                    } else {
                        "email address"
                    }
                ),
            ),
            _ => {}
        }
    }
}
