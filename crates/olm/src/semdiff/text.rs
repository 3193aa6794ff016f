//! The full text diff, for `-v`: both sides written canonically (mapping keys sorted, the
//! project's YAML writer), then compared line by line with the `similar` crate, so the text
//! diff shows exactly the data changes the field diff lists and never a reordering of keys.

use serde_yaml_ng::{Mapping, Value};

/// The unified diff (three lines of context) of the documents, `---`-separated; empty when
/// equal.
pub(crate) fn unified(old: &[Value], new: &[Value], old_label: &str, new_label: &str) -> String {
    let (a, b) = (canonical(old), canonical(new));
    if a == b {
        return String::new();
    }
    similar::TextDiff::from_lines(&a, &b)
        .unified_diff()
        .context_radius(3)
        .header(old_label, new_label)
        .to_string()
}

fn canonical(docs: &[Value]) -> String {
    docs.iter()
        .map(|d| olm_release_base::yaml::to_string(&sorted(d)))
        .collect::<Vec<_>>()
        .join("---\n")
}

/// A copy with every mapping's keys in sorted order.
fn sorted(v: &Value) -> Value {
    match v {
        Value::Mapping(m) => {
            let mut entries: Vec<(&Value, &Value)> = m.iter().collect();
            entries.sort_by_key(|(k, _)| k.as_str().map(str::to_string).unwrap_or_default());
            let mut out = Mapping::with_capacity(entries.len());
            for (k, v) in entries {
                out.insert(k.clone(), sorted(v));
            }
            Value::Mapping(out)
        }
        Value::Sequence(items) => Value::Sequence(items.iter().map(sorted).collect()),
        Value::Tagged(t) => sorted(&t.value),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reordered_keys_give_no_text_diff() {
        let a: Value = serde_yaml_ng::from_str("b: 1\na: {z: 2, x: 'q'}\n").unwrap();
        let b: Value = serde_yaml_ng::from_str("a: {x: q, z: 2}\nb: 1\n").unwrap();
        assert_eq!(unified(std::slice::from_ref(&a), &[b], "old", "new"), "");
        let c: Value = serde_yaml_ng::from_str("a: {x: q, z: 3}\nb: 1\n").unwrap();
        let d = unified(&[a], &[c], "old", "new");
        assert!(d.starts_with("--- old\n+++ new\n"), "{d}");
        assert!(d.contains("-  z: 2\n+  z: 3\n"), "{d}");
    }
}
