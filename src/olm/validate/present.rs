//! What the catalog shows of a CSV: the icon (checklist rule 11), maturity, maintainers, links
//! and provider (rule 16), and `minKubeVersion` (rule 20).

use serde_yaml_ng::Value;

use super::csv::type_name;
use super::text::{is_email, is_url, is_xyz};
use super::{At, Sink, rules};

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

pub fn check(spec: &Value, at: &At, sink: &mut Sink) {
    if let Some(icon) = spec.get("icon") {
        let bad =
            |sink: &mut Sink, field: &str, msg: String| sink.add(&rules::ICON, at, field, msg);
        match icon.as_sequence() {
            None => bad(
                sink,
                "spec.icon",
                format!("is {}, not a list", type_name(icon)),
            ),
            Some(list) if list.len() != 1 => bad(
                sink,
                "spec.icon",
                format!("has {} entries; the catalog shows exactly one", list.len()),
            ),
            Some(list) => {
                let i = &list[0];
                let keys = i.as_mapping().map(|m| m.len()).unwrap_or(0);
                match (
                    i.get("base64data").and_then(Value::as_str),
                    i.get("mediatype").and_then(Value::as_str),
                ) {
                    (Some(_), Some(mt)) if !MEDIATYPES.contains(&mt) => bad(
                        sink,
                        "spec.icon[0].mediatype",
                        format!("'{mt}' is not one of {}", MEDIATYPES.join(", ")),
                    ),
                    (Some(_), Some(_)) if keys != 2 => bad(
                        sink,
                        "spec.icon[0]",
                        "has keys besides base64data and mediatype".into(),
                    ),
                    (Some(_), Some(_)) => {}
                    _ => bad(
                        sink,
                        "spec.icon[0]",
                        "needs the string fields base64data and mediatype".into(),
                    ),
                }
            }
        }
    }
    if let Some(m) = spec.get("maturity") {
        let s = m.as_str().unwrap_or("");
        if !MATURITY.contains(&s) {
            let msg = format!(
                "'{s}' is not one of {}; the 2019 CSV schema rejects it at install",
                MATURITY.join(", ")
            );
            sink.add(&rules::CSV_MATURITY, at, "spec.maturity", msg);
        }
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
    if let Some(p) = spec.get("provider") {
        let ok = p.as_mapping().is_some_and(|m| m.len() == 1)
            && p.get("name").is_some_and(Value::is_string);
        if !ok {
            sink.add(
                &rules::CSV_PROVIDER,
                at,
                "spec.provider",
                "must hold exactly one key, name (OperatorHub rejects others such as url)",
            );
        }
    }
    if let Some(v) = spec.get("minKubeVersion") {
        let s = v.as_str().unwrap_or("");
        if !s.is_empty() && !is_xyz(s) {
            sink.add(
                &rules::MIN_KUBE_VERSION,
                at,
                "spec.minKubeVersion",
                format!("'{s}' is not X.Y.Z"),
            );
        }
    }
}

/// A list of `{name, <key>}` entries whose `<key>` must pass `valid`.
fn list_of_pairs(
    spec: &Value,
    list: &str,
    key: &str,
    valid: fn(&str) -> bool,
    rule: &rules::Rule,
    at: &At,
    sink: &mut Sink,
) {
    let Some(v) = spec.get(list) else { return };
    let Some(items) = v.as_sequence() else {
        sink.add(
            rule,
            at,
            &format!("spec.{list}"),
            format!("is {}, not a list of {{name, {key}}}", type_name(v)),
        );
        return;
    };
    for (i, item) in items.iter().enumerate() {
        let field = format!("spec.{list}[{i}]");
        let name = item.get("name").and_then(Value::as_str).unwrap_or("");
        match item.get(key).and_then(Value::as_str) {
            _ if name.is_empty() => sink.add(rule, at, &format!("{field}.name"), "is missing"),
            None => sink.add(rule, at, &format!("{field}.{key}"), "is missing"),
            Some(s) if !valid(s) => sink.add(
                rule,
                at,
                &format!("{field}.{key}"),
                format!("'{s}' is not a valid {key}"),
            ),
            Some(_) => {}
        }
    }
}
