//! Variants: one pipeline file, several jobs. `variants:` maps a name to the keys that job
//! replaces (`olm-release run pipelines/release.yaml --variant alpha`), so an alpha build is the
//! release pipeline with another package and no GitHub release rather than a second file that
//! repeats every setting and drifts from the first.
//!
//! A variant is merged over the rest of the file as written, before `${VAR}` expansion:
//! mappings key by key (so `render: {vars: {DockerTag: latest}}` replaces one variable and keeps
//! the others), every other value replaced whole (a list of stages, a string), and `null`
//! removes a key (`release: null`). A variant that does not set `name` is named
//! `NAME-VARIANT`, so its outputs never mix with the release's. Every variant is checked on
//! every run, whichever is chosen: an unknown key in `alpha` is reported by the release job too,
//! with its line.

use serde_yaml_ng::Value;

use super::PipelineError;
use super::locate;
use super::model::Pipeline;

/// The key that holds the variants.
pub(crate) const KEY: &str = "variants";

/// Checks every variant of `tree` and merges `chosen` (if any) over it; the result has no
/// `variants` key. Returns the chosen variant's own keys.
pub(crate) fn select(
    origin: &str,
    text: &str,
    tree: &mut Value,
    chosen: Option<&str>,
) -> Result<Option<Value>, PipelineError> {
    let variants = match tree.as_mapping_mut().and_then(|m| m.remove(KEY)) {
        Some(Value::Mapping(m)) => m,
        Some(Value::Null) | None => serde_yaml_ng::Mapping::new(),
        Some(_) => {
            return Err(yaml(
                origin,
                text,
                &[KEY],
                "variants: a mapping of names to keys",
            ));
        }
    };
    let mut names = Vec::new();
    for (name, over) in &variants {
        let name = name.as_str().unwrap_or_default().to_string();
        if !over.is_mapping() {
            return Err(yaml(
                origin,
                text,
                &[KEY, &name],
                &format!("variants.{name}: a mapping of the keys this variant replaces"),
            ));
        }
        if over.get(KEY).is_some() {
            return Err(yaml(
                origin,
                text,
                &[KEY, &name, KEY],
                &format!("variants.{name}: a variant cannot hold variants"),
            ));
        }
        let mut checked = merged(tree, over, &name);
        keep_unknown_nulls(&mut checked, over);
        if let Err(e) = serde_yaml_ng::from_value::<Pipeline>(checked) {
            let message = e.to_string();
            let field = message
                .split('`')
                .nth(1)
                .filter(|_| message.starts_with("unknown field"))
                .unwrap_or("");
            let below = find_key(over, field);
            let mut path = vec![KEY, name.as_str()];
            path.extend(below.iter().map(String::as_str));
            return Err(yaml(
                origin,
                text,
                &path,
                &format!("variants.{name}: {message}"),
            ));
        }
        names.push(name);
    }
    match chosen {
        None => Ok(None),
        Some(name) => match variants.get(name) {
            Some(over) => {
                *tree = merged(tree, over, name);
                Ok(Some(over.clone()))
            }
            None => Err(PipelineError::Variant {
                at: line(origin, text, &[KEY]),
                name: name.to_string(),
                known: names,
            }),
        },
    }
}

/// `base` with `over` merged in, named after the variant unless it sets a name.
fn merged(base: &Value, over: &Value, name: &str) -> Value {
    let mut out = base.clone();
    if over.get("name").is_none()
        && let Some(Value::String(n)) = out.get_mut("name")
    {
        *n = format!("{n}-{name}");
    }
    merge(&mut out, over);
    out
}

/// Merges `over` into `base`: mappings key by key, anything else replaced, `null` removes.
pub(crate) fn merge(base: &mut Value, over: &Value) {
    match (base, over) {
        (Value::Mapping(b), Value::Mapping(o)) => {
            for (k, v) in o {
                if v.is_null() {
                    b.remove(k);
                } else if let Some(bv) = b.get_mut(k) {
                    merge(bv, v);
                } else {
                    b.insert(k.clone(), v.clone());
                }
            }
        }
        (b, o) => *b = o.clone(),
    }
}

/// For the check only: a `null` of the variant under a key the file does not have removes
/// nothing, so it stays, and a misspelt key (`relase: null`) is an unknown field.
fn keep_unknown_nulls(merged: &mut Value, over: &Value) {
    let (Value::Mapping(m), Value::Mapping(o)) = (merged, over) else {
        return;
    };
    for (k, v) in o {
        match m.get_mut(k) {
            None if v.is_null() => {
                m.insert(k.clone(), Value::Null);
            }
            Some(child) => keep_unknown_nulls(child, v),
            None => {}
        }
    }
}

/// The path of the first key named `field` in `v` (depth first), to name its line.
fn find_key(v: &Value, field: &str) -> Vec<String> {
    let Some(m) = v.as_mapping() else {
        return Vec::new();
    };
    for (k, child) in m {
        let key = k.as_str().unwrap_or_default();
        if key == field {
            return vec![key.to_string()];
        }
        let below = find_key(child, field);
        if !below.is_empty() {
            let mut out = vec![key.to_string()];
            out.extend(below);
            return out;
        }
    }
    Vec::new()
}

fn line(origin: &str, text: &str, path: &[&str]) -> String {
    match locate::line_of(text, path) {
        Some(l) => format!("{origin}:{l}"),
        None => origin.to_string(),
    }
}

fn yaml(origin: &str, text: &str, path: &[&str], message: &str) -> PipelineError {
    PipelineError::Yaml {
        at: line(origin, text, path),
        message: message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> Value {
        serde_yaml_ng::from_str(text).unwrap()
    }

    #[test]
    fn mappings_merge_lists_replace_null_removes() {
        let mut base = v("a: {b: 1, c: 2}\nl: [1, 2]\nr: {x: 1}\n");
        merge(&mut base, &v("a: {c: 3}\nl: [9]\nr: null\n"));
        assert_eq!(base, v("a: {b: 1, c: 3}\nl: [9]\n"));
    }
}
