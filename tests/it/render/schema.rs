//! A small OpenAPI v3 schema checker for the CRD schemas in ../shared/olm-crds: the keywords
//! those schemas use (type, nullable, enum, pattern, properties, required, items,
//! additionalProperties, allOf/anyOf/oneOf/not, min/max sizes, Kubernetes' int-or-string).
//! Unknown object fields are allowed, as the API server prunes rather than rejects them, and so
//! are nulls in fields that are not `nullable` (the API server prunes those too, since
//! Kubernetes 1.20; KubeVirt's v0.20+ CSVs have `env[].value:` left empty by `{{if}}`); `format`
//! is not checked.

use std::path::Path;

use serde_yaml_ng::Value;

/// The schema of `kind` at `api_version` from a CRD file (v1beta1 `spec.validation` or
/// v1 `spec.versions[].schema`).
pub fn from_crd(file: &Path, api_version: &str) -> Value {
    let crd: Value = serde_yaml_ng::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    let version = api_version.rsplit('/').next().unwrap();
    let versions = crd["spec"]["versions"]
        .as_sequence()
        .cloned()
        .unwrap_or_default();
    for v in &versions {
        if v["name"].as_str() == Some(version)
            && let Some(s) = v.get("schema")
        {
            return s["openAPIV3Schema"].clone();
        }
    }
    assert!(
        versions.iter().any(|v| v["name"].as_str() == Some(version))
            || crd["spec"]["version"].as_str() == Some(version),
        "{} does not serve {api_version}",
        file.display()
    );
    crd["spec"]["validation"]["openAPIV3Schema"].clone()
}

/// Every violation of `schema` by `v`, as `path: problem`.
pub fn check(schema: &Value, v: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    walk(schema, v, "$", &mut errors);
    errors
}

fn type_ok(t: &str, v: &Value) -> bool {
    match t {
        "object" => v.is_mapping(),
        "array" => v.is_sequence(),
        "string" => v.is_string(),
        "boolean" => v.is_bool(),
        "integer" => v.is_i64() || v.is_u64(),
        "number" => v.is_number(),
        _ => true,
    }
}

fn walk(s: &Value, v: &Value, at: &str, errors: &mut Vec<String>) {
    let flag = |k: &str| s.get(k).and_then(Value::as_bool) == Some(true);
    if v.is_null() && at != "$" {
        return;
    }
    if flag("x-kubernetes-int-or-string") {
        if !(v.is_string() || v.is_i64() || v.is_u64()) {
            errors.push(format!("{at}: not an integer or string"));
        }
        return;
    }
    if let Some(t) = s.get("type").and_then(Value::as_str)
        && !type_ok(t, v)
    {
        errors.push(format!("{at}: expected {t}, got {v:?}"));
        return;
    }
    if let Some(e) = s.get("enum").and_then(Value::as_sequence)
        && !e.contains(v)
    {
        errors.push(format!("{at}: {v:?} not in enum {e:?}"));
    }
    if let (Some(p), Some(text)) = (s.get("pattern").and_then(Value::as_str), v.as_str())
        && !regex::Regex::new(p).unwrap().is_match(text)
    {
        errors.push(format!("{at}: '{text}' does not match {p}"));
    }
    let size = |k: &str| s.get(k).and_then(Value::as_u64).map(|n| n as usize);
    let len = match v {
        Value::String(t) => Some(t.chars().count()),
        Value::Sequence(l) => Some(l.len()),
        _ => None,
    };
    if let Some(len) = len {
        for (k, min) in [
            ("minLength", true),
            ("minItems", true),
            ("maxLength", false),
            ("maxItems", false),
        ] {
            if let Some(n) = size(k)
                && ((min && len < n) || (!min && len > n))
            {
                errors.push(format!("{at}: {k} {n} violated (length {len})"));
            }
        }
    }
    if let Some(m) = v.as_mapping() {
        let props = s.get("properties").and_then(Value::as_mapping);
        for req in s
            .get("required")
            .and_then(Value::as_sequence)
            .into_iter()
            .flatten()
        {
            if m.get(req).is_none_or(Value::is_null) {
                errors.push(format!(
                    "{at}: missing required {}",
                    req.as_str().unwrap_or("?")
                ));
            }
        }
        for (k, child) in m {
            let key = k.as_str().unwrap_or("?");
            let path = format!("{at}.{key}");
            match (props.and_then(|p| p.get(k)), s.get("additionalProperties")) {
                (Some(ps), _) => walk(ps, child, &path, errors),
                (None, Some(Value::Bool(false))) => errors.push(format!("{path}: not allowed")),
                (None, Some(ap)) if ap.is_mapping() => walk(ap, child, &path, errors),
                _ => {}
            }
        }
    }
    if let (Some(items), Some(l)) = (s.get("items"), v.as_sequence()) {
        for (i, item) in l.iter().enumerate() {
            walk(items, item, &format!("{at}[{i}]"), errors);
        }
    }
    let passes = |sub: &Value| check_at(sub, v, at).is_empty();
    if let Some(all) = s.get("allOf").and_then(Value::as_sequence) {
        for sub in all {
            walk(sub, v, at, errors);
        }
    }
    if let Some(any) = s.get("anyOf").and_then(Value::as_sequence)
        && !any.iter().any(passes)
    {
        errors.push(format!("{at}: matches none of anyOf"));
    }
    if let Some(one) = s.get("oneOf").and_then(Value::as_sequence) {
        let n = one.iter().filter(|sub| passes(sub)).count();
        if n != 1 {
            let why: Vec<String> = one.iter().flat_map(|sub| check_at(sub, v, at)).collect();
            errors.push(format!("{at}: matches {n} of oneOf (want 1): {why:?}"));
        }
    }
    if let Some(not) = s.get("not")
        && passes(not)
    {
        errors.push(format!("{at}: matches 'not'"));
    }
}

fn check_at(s: &Value, v: &Value, at: &str) -> Vec<String> {
    let mut errors = Vec::new();
    walk(s, v, at, &mut errors);
    errors
}

#[test]
fn the_checker_catches_what_it_claims() {
    let schema: Value = serde_yaml_ng::from_str(
        "type: object\nrequired: [a]\nproperties:\n  a: {type: string, pattern: '^x+$'}\n  b: {type: array, items: {type: integer}, minItems: 1}\n  c: {oneOf: [{required: [d]}, {required: [e]}]}\n  f: {enum: [p, q]}\n",
    )
    .unwrap();
    let ok: Value = serde_yaml_ng::from_str("a: xx\nb: [1]\nc: {d: 1}\nf: p\nextra: 1").unwrap();
    assert_eq!(check(&schema, &ok), Vec::<String>::new());
    let bad: Value = serde_yaml_ng::from_str("b: ['1']\nc: {d: 1, e: 2}\nf: z").unwrap();
    let errors = check(&schema, &bad);
    assert_eq!(errors.len(), 4, "{errors:#?}");
    let bad: Value = serde_yaml_ng::from_str("a: y\nb: []").unwrap();
    assert_eq!(check(&schema, &bad).len(), 2);
    let pruned: Value = serde_yaml_ng::from_str("a: xx\nb: [1]\nf: null").unwrap();
    assert_eq!(check(&schema, &pruned), Vec::<String>::new());
    let missing: Value = serde_yaml_ng::from_str("a: null").unwrap();
    assert_eq!(check(&schema, &missing).len(), 1);
}
