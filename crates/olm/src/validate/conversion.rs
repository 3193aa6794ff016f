//! Whether a CRD's versions convert once installed. A CRD whose conversion strategy is
//! `Webhook` needs the CSV to declare the webhook (OLM then points the CRD at its own Service;
//! OLM v0's `pkg/controller/operators/olm/apiservices.go`, operator-controller's
//! `rukpak/render`). A CRD serving several versions with strategy `None` is converted by the API
//! server rewriting `apiVersion` alone
//! (<https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definition-versioning/#specify-multiple-versions>),
//! so when the versions' schemas differ, fields one version has and the other lacks are pruned
//! on every read through the other version: refused. Schemas are compared as the API server
//! prunes and validates, without the keywords that only document (`description`, `example`,
//! `externalDocs`, `title`), so versions differing only in their docs pass.

use serde_yaml_ng::{Mapping, Value};

use super::model::Unit;
use super::rules;
use super::sink::{At, Sink};
use crate::value_at;

/// The OpenAPI keywords that document a schema without changing what it accepts or keeps.
const DOCUMENTATION_ONLY: [&str; 4] = ["description", "example", "externalDocs", "title"];

fn list(v: Option<&Value>) -> &[Value] {
    v.and_then(Value::as_sequence)
        .map(Vec::as_slice)
        .unwrap_or_default()
}

fn s<'a>(v: &'a Value, path: &str) -> Option<&'a str> {
    value_at(v, path).and_then(Value::as_str)
}

/// The conversion checks of the unit's CRDs.
pub(crate) fn check(unit: &Unit, sink: &mut Sink) {
    let converted: Vec<&str> = unit
        .csvs
        .iter()
        .flat_map(|c| list(value_at(&c.doc, "spec.webhookdefinitions")))
        .filter(|w| s(w, "type") == Some("ConversionWebhook"))
        .flat_map(|w| list(w.get("conversionCRDs")))
        .filter_map(Value::as_str)
        .collect();
    for crd in unit.crds {
        let name = crd.name().unwrap_or_default();
        if converted.contains(&name) {
            continue;
        }
        let strategy = s(&crd.doc, "spec.conversion.strategy").unwrap_or("None");
        let at = At::of(crd);
        if strategy == "Webhook" {
            let service = s(
                &crd.doc,
                "spec.conversion.webhook.clientConfig.service.name",
            )
            .map(|n| format!(" (Service {n})"))
            .unwrap_or_default();
            let msg = format!(
                "CRD {name} converts through a webhook{service}, but no ConversionWebhook of the CSV's spec.webhookdefinitions names it, so OLM neither creates that Service nor injects its CA: unless the operator does both at run time, every read of another version fails"
            );
            sink.add(
                &rules::CRD_CONVERSION_WEBHOOK,
                &at,
                "spec.conversion.strategy",
                msg,
            );
            continue;
        }
        if let Some(msg) = schema_mismatch(name, &crd.doc) {
            sink.add(&rules::CRD_CONVERSION_SCHEMAS, &at, "spec.versions", msg);
        }
    }
}

/// Why the CRD's served versions cannot share objects under strategy `None`: the versions,
/// and the first schema path where two of them differ. `None` when they convert safely.
pub(crate) fn schema_mismatch(name: &str, crd: &Value) -> Option<String> {
    let served: Vec<(&str, Option<Value>)> = list(value_at(crd, "spec.versions"))
        .iter()
        .filter(|v| v.get("served").and_then(Value::as_bool) != Some(false))
        .map(|v| {
            let schema = value_at(v, "schema.openAPIV3Schema").map(structural);
            (s(v, "name").unwrap_or_default(), schema)
        })
        .collect();
    let (first, schema) = served.first()?;
    let (other, other_schema) = served.iter().find(|(_, sc)| sc != schema)?;
    let names: Vec<&str> = served.iter().map(|(n, _)| *n).collect();
    let at = match (schema, other_schema) {
        (Some(a), Some(b)) => first_difference(a, b, "openAPIV3Schema"),
        _ => "openAPIV3Schema".to_string(),
    };
    Some(format!(
        "CRD {name} serves versions {} with different schemas ({first} and {other} differ at {at}) and converts them with strategy None: the API server only rewrites apiVersion, so fields one version's schema lacks are pruned from stored objects read through it",
        names.join(", ")
    ))
}

/// The schema without its documentation-only keywords.
fn structural(v: &Value) -> Value {
    match v {
        Value::Mapping(m) => Value::Mapping(
            m.iter()
                .filter(|(k, _)| !k.as_str().is_some_and(|k| DOCUMENTATION_ONLY.contains(&k)))
                .map(|(k, v)| {
                    // `properties` maps field names to schemas: a field may be called
                    // `description`, so only the schemas' own keywords are dropped.
                    if k.as_str() == Some("properties")
                        && let Value::Mapping(props) = v
                    {
                        let kept: Mapping = props
                            .iter()
                            .map(|(p, s)| (p.clone(), structural(s)))
                            .collect();
                        return (k.clone(), Value::Mapping(kept));
                    }
                    (k.clone(), structural(v))
                })
                .collect(),
        ),
        Value::Sequence(items) => Value::Sequence(items.iter().map(structural).collect()),
        other => other.clone(),
    }
}

/// The first path (dotted, from `at`) where two schemas differ.
fn first_difference(a: &Value, b: &Value, at: &str) -> String {
    match (a, b) {
        (Value::Mapping(x), Value::Mapping(y)) => {
            let mut keys: Vec<&Value> = x.keys().chain(y.keys()).collect();
            keys.sort_by_key(|k| k.as_str().unwrap_or_default().to_string());
            keys.dedup();
            for k in keys {
                let key = k.as_str().unwrap_or("?");
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) if p == q => {}
                    (Some(p), Some(q)) => return first_difference(p, q, &format!("{at}.{key}")),
                    _ => return format!("{at}.{key}"),
                }
            }
            at.to_string()
        }
        _ => at.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crd(v1: &str, v2: &str) -> Value {
        serde_yaml_ng::from_str(&format!(
            "spec:\n  versions:\n  - name: v1\n    served: true\n    schema:\n      openAPIV3Schema:\n{v1}\n  - name: v2\n    served: true\n    schema:\n      openAPIV3Schema:\n{v2}\n"
        ))
        .unwrap()
    }

    const A: &str = "        type: object\n        description: one\n        properties:\n          description:\n            type: string\n            description: a field named description";
    const B: &str = "        type: object\n        description: two\n        properties:\n          description:\n            type: string\n            description: the same field, other docs";
    const C: &str =
        "        type: object\n        properties:\n          size:\n            type: integer";

    #[test]
    fn versions_differing_only_in_their_docs_convert() {
        assert_eq!(schema_mismatch("x", &crd(A, B)), None);
    }

    #[test]
    fn a_field_one_version_lacks_is_named_with_every_served_version() {
        let msg = schema_mismatch("widgets.example.com", &crd(A, C)).expect("refused");
        assert!(
            msg.contains("CRD widgets.example.com serves versions v1, v2 with different schemas (v1 and v2 differ at openAPIV3Schema.properties.description)"),
            "{msg}"
        );
    }

    #[test]
    fn a_version_not_served_is_not_compared() {
        let mut doc = crd(A, C);
        doc["spec"]["versions"][1]["served"] = Value::Bool(false);
        assert_eq!(schema_mismatch("x", &doc), None);
    }
}
