//! A small JSON Schema checker for the subset `schemas/*.json` use (draft 2020-12 keywords
//! `type`, `const`, `enum`, `required`, `properties`, `additionalProperties: false`, `items`,
//! `oneOf`, `$ref` into `#/$defs`, `pattern`, `minimum`). A keyword outside that subset is
//! itself an error, so the schema cannot say more than this checks. Chosen over a full
//! validator crate, whose dependency tree costs minutes of build on two cores.

use serde_json::Value;

const ANNOTATIONS: [&str; 5] = ["$schema", "$id", "title", "description", "$defs"];

/// Every way `doc` breaks `schema`, with the JSON pointer of each place.
pub fn check(schema: &Value, doc: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    at(schema, schema, doc, "", &mut errors);
    errors
}

fn at(root: &Value, s: &Value, v: &Value, path: &str, out: &mut Vec<String>) {
    let Some(s) = s.as_object() else {
        out.push(format!("{path}: the schema here is not an object"));
        return;
    };
    for (key, rule) in s {
        match key.as_str() {
            k if ANNOTATIONS.contains(&k) => {}
            "$ref" => {
                let name = rule.as_str().and_then(|r| r.strip_prefix("#/$defs/"));
                match name.and_then(|n| root["$defs"].get(n)) {
                    Some(target) => at(root, target, v, path, out),
                    None => out.push(format!("{path}: unknown $ref {rule}")),
                }
            }
            "type" => {
                let types: Vec<&str> = match rule {
                    Value::String(t) => vec![t.as_str()],
                    Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                    _ => vec![],
                };
                if !types.iter().any(|t| is_type(v, t)) {
                    out.push(format!("{path}: {v} is not of type {types:?}"));
                }
            }
            "const" if v != rule => out.push(format!("{path}: {v} is not {rule}")),
            "enum" => {
                if !rule.as_array().is_some_and(|a| a.contains(v)) {
                    out.push(format!("{path}: {v} is not one of {rule}"));
                }
            }
            "required" => {
                for name in rule
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                {
                    if v.is_object() && v.get(name).is_none() {
                        out.push(format!("{path}: required field '{name}' is missing"));
                    }
                }
            }
            "properties" => {
                if let (Some(props), Some(obj)) = (rule.as_object(), v.as_object()) {
                    for (name, sub) in props {
                        if let Some(value) = obj.get(name) {
                            at(root, sub, value, &format!("{path}/{name}"), out);
                        }
                    }
                }
            }
            "additionalProperties" => {
                if rule != &Value::Bool(false) {
                    out.push(format!(
                        "{path}: only additionalProperties: false is checked"
                    ));
                }
                if let Some(obj) = v.as_object() {
                    let known = s.get("properties").and_then(Value::as_object);
                    for name in obj.keys() {
                        if !known.is_some_and(|k| k.contains_key(name)) {
                            out.push(format!("{path}: field '{name}' is not in the schema"));
                        }
                    }
                }
            }
            "items" => {
                for (i, item) in v.as_array().into_iter().flatten().enumerate() {
                    at(root, rule, item, &format!("{path}/{i}"), out);
                }
            }
            "oneOf" => {
                let passing = rule
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|sub| {
                        let mut e = Vec::new();
                        at(root, sub, v, path, &mut e);
                        e.is_empty()
                    })
                    .count();
                if passing != 1 {
                    out.push(format!(
                        "{path}: {v} matches {passing} of oneOf, not exactly one"
                    ));
                }
            }
            "pattern" => {
                if let (Some(p), Some(text)) = (rule.as_str(), v.as_str())
                    && !regex::Regex::new(p).unwrap().is_match(text)
                {
                    out.push(format!("{path}: '{text}' does not match {p}"));
                }
            }
            "minimum" => {
                if let (Some(min), Some(n)) = (rule.as_f64(), v.as_f64())
                    && n < min
                {
                    out.push(format!("{path}: {n} is below {min}"));
                }
            }
            "const" => {}
            other => out.push(format!(
                "{path}: the checker does not know the keyword '{other}'"
            )),
        }
    }
}

fn is_type(v: &Value, t: &str) -> bool {
    match t {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.is_i64() || v.is_u64(),
        _ => false,
    }
}

#[test]
fn the_checker_catches_what_it_claims_to() {
    let schema: Value = serde_json::json!({
        "type": "object",
        "required": ["a", "b"],
        "additionalProperties": false,
        "properties": {
            "a": { "enum": [1, 2] },
            "b": { "oneOf": [{ "type": "null" }, { "$ref": "#/$defs/hex" }] }
        },
        "$defs": { "hex": { "type": "string", "pattern": "^[0-9a-f]{4}$" } }
    });
    assert!(check(&schema, &serde_json::json!({"a": 1, "b": "00ff"})).is_empty());
    assert!(check(&schema, &serde_json::json!({"a": 1, "b": null})).is_empty());
    let bad = check(&schema, &serde_json::json!({"a": 3, "b": "xyz", "c": 0}));
    assert_eq!(bad.len(), 3, "{bad:#?}");
    assert_eq!(check(&schema, &serde_json::json!({})).len(), 2);
    let unknown = serde_json::json!({"maxLength": 3});
    assert_eq!(check(&unknown, &serde_json::json!("x")).len(), 1);
}
