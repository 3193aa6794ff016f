//! Reading and writing YAML values by path, for the modules of the generation.

use serde_yaml_ng::Value;

/// `spec` of a CSV (created when missing).
pub(super) fn spec(csv: &mut Value) -> &mut Value {
    entry(csv, "spec")
}

/// The mapping at `key` of `v`, created (and `v` made a mapping) when missing.
pub(super) fn entry<'a>(v: &'a mut Value, key: &str) -> &'a mut Value {
    if !v.is_mapping() {
        *v = Value::Mapping(Default::default());
    }
    let m = v.as_mapping_mut().expect("a mapping");
    if !m.get(key).is_some_and(Value::is_mapping) {
        m.insert(key.into(), Value::Mapping(Default::default()));
    }
    m.get_mut(key).expect("inserted")
}

/// Sets `key` of the mapping `v` (nothing when `v` is no mapping).
pub(super) fn set(v: &mut Value, key: &str, value: Value) {
    if let Some(m) = v.as_mapping_mut() {
        m.insert(key.into(), value);
    }
}

/// The string at `path` of `v`.
pub(super) fn str_at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a str> {
    at(v, path)?.as_str()
}

/// The value at `path` of `v`.
pub(super) fn at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(v, |v, k| v.get(*k))
}

/// The sequence at `path` of `v` (empty when missing).
pub(super) fn seq<'a>(v: &'a Value, path: &[&str]) -> &'a [Value] {
    at(v, path)
        .and_then(Value::as_sequence)
        .map_or(&[], Vec::as_slice)
}
