//! One CRD by itself: the fields courier 2.1.11 and the API server require, its versions
//! (unique names, exactly one stored; an apiextensions.k8s.io/v1 CRD has no `spec.version`)
//! and its conversion webhook; and the descriptions the 2019 CSV schema required of the
//! CSV's owned entries.

use std::collections::HashSet;

use serde_yaml_ng::Value;

use super::Crd;
use crate::validate::rules;
use crate::validate::rules::Tool;
use crate::validate::sink::{At, Sink};
use crate::value_at;

/// The fields every CRD needs (courier 2.1.11's list and the API server's), its versions and
/// its conversion webhook.
pub(super) fn fields(c: &Crd, sink: &mut Sink) {
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
            &[Tool::Courier, Tool::OperatorRegistry],
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
pub(super) fn descriptions(owned: &Value, base: &str, at: &At, sink: &mut Sink) {
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
