//! Field-level differences between two YAML documents, compared as data.
//!
//! Mappings are compared key by key, so key order never shows; scalars are compared as values,
//! so quoting (`'1.0'` against `"1.0"`) never shows either, while a real change of type (the
//! string `"1"` against the number `1`) does. Lists whose items are all mappings named by a
//! key that is unique on both sides (`name`, else `serviceAccountName`, `type` or `kind`) are
//! matched by that key and shown as `deployments[virt-operator]`, the way a maintainer names
//! them; any other list is compared as a multiset of items (`rules[+] {…}`, `rules[-] {…}`),
//! so reordering alone is reported once, as "reordered", instead of as every item changed.

use std::collections::BTreeMap;

use serde_yaml_ng::Value;

/// One difference at a field path.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Change {
    /// Dotted path with list items by key, e.g.
    /// `spec.install.spec.deployments[virt-operator].spec.replicas`.
    pub(crate) path: String,
    #[serde(flatten)]
    pub(crate) kind: ChangeKind,
}

/// What happened at a path. Values are shown as one-line JSON, cut to a readable length.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum ChangeKind {
    /// A key or list item only the new side has.
    Added {
        /// The new value, as one-line JSON cut to a readable length.
        new: String,
    },
    /// A key or list item only the old side has.
    Removed {
        /// The old value, as one-line JSON cut to a readable length.
        old: String,
    },
    /// A value that differs, or changed type (the string `"1"` against the number `1`).
    Changed {
        /// The old value, as one-line JSON cut to a readable length.
        old: String,
        /// The new value, as one-line JSON cut to a readable length.
        new: String,
    },
    /// The same items in another order (lists compared as multisets).
    Reordered,
    /// The same words with other white space (line breaks, indentation).
    Whitespace,
}

/// Keys that name the items of a list, in order of preference.
const ITEM_KEYS: [&str; 4] = ["name", "serviceAccountName", "type", "kind"];

/// Longest value text shown in a change line.
const SHOWN: usize = 160;

/// Every difference between `old` and `new`, in document order of `new` (then removed keys).
pub(crate) fn diff(old: &Value, new: &Value) -> Vec<Change> {
    let mut out = Vec::new();
    walk(&mut out, String::new(), old, new);
    out
}

fn walk(out: &mut Vec<Change>, path: String, old: &Value, new: &Value) {
    match (untag(old), untag(new)) {
        (Value::Mapping(a), Value::Mapping(b)) => {
            for (k, nv) in b {
                let p = join(&path, &key_text(k));
                match a.get(k) {
                    Some(ov) => walk(out, p, ov, nv),
                    None => out.push(added(p, nv)),
                }
            }
            for (k, ov) in a {
                if !b.contains_key(k) {
                    out.push(removed(join(&path, &key_text(k)), ov));
                }
            }
        }
        (Value::Sequence(a), Value::Sequence(b)) => list(out, path, a, b),
        (a, b) if a == b => {}
        (Value::String(a), Value::String(b)) => strings(out, path, a, b),
        (a, b) => out.push(Change {
            path: shown_path(path),
            kind: ChangeKind::Changed {
                old: show(a),
                new: show(b),
            },
        }),
    }
}

fn list(out: &mut Vec<Change>, path: String, a: &[Value], b: &[Value]) {
    if a == b {
        return;
    }
    if let Some(key) = item_key(a, b) {
        let named = |items: &[Value]| -> Vec<(String, usize)> {
            items
                .iter()
                .enumerate()
                .map(|(i, v)| (item_name(v, key), i))
                .collect()
        };
        let (old_named, new_named) = (named(a), named(b));
        let old_index: BTreeMap<&str, usize> =
            old_named.iter().map(|(n, i)| (n.as_str(), *i)).collect();
        for (name, i) in &new_named {
            let p = format!("{path}[{name}]");
            match old_index.get(name.as_str()) {
                Some(&j) => walk(out, p, &a[j], &b[*i]),
                None => out.push(added(p, &b[*i])),
            }
        }
        let new_names: Vec<&str> = new_named.iter().map(|(n, _)| n.as_str()).collect();
        for (name, j) in &old_named {
            if !new_names.contains(&name.as_str()) {
                out.push(removed(format!("{path}[{name}]"), &a[*j]));
            }
        }
        return;
    }
    // A multiset: what is only on one side, counted.
    let count = |items: &[Value]| -> BTreeMap<String, usize> {
        let mut m = BTreeMap::new();
        for v in items {
            *m.entry(canonical_json(v)).or_insert(0) += 1;
        }
        m
    };
    let (ca, cb) = (count(a), count(b));
    let mut any = false;
    for (item, n) in &cb {
        for _ in ca.get(item).copied().unwrap_or(0)..*n {
            any = true;
            out.push(Change {
                path: format!("{path}[+]"),
                kind: ChangeKind::Added { new: cut(item) },
            });
        }
    }
    for (item, n) in &ca {
        for _ in cb.get(item).copied().unwrap_or(0)..*n {
            any = true;
            out.push(Change {
                path: format!("{path}[-]"),
                kind: ChangeKind::Removed { old: cut(item) },
            });
        }
    }
    if !any {
        out.push(Change {
            path: shown_path(path),
            kind: ChangeKind::Reordered,
        });
    }
}

/// Two different strings: JSON held in a string (`alm-examples`) is compared as the data it
/// holds; a change of white space alone is said to be one, without the noise of both texts.
fn strings(out: &mut Vec<Change>, path: String, a: &str, b: &str) {
    let json = |s: &str| {
        let t = s.trim_start();
        (t.starts_with('[') || t.starts_with('{'))
            .then(|| serde_json::from_str::<Value>(s).ok())
            .flatten()
    };
    if let (Some(ja), Some(jb)) = (json(a), json(b)) {
        // Same data in other formatting adds nothing: a cluster would see no change.
        walk(out, format!("{path}{{json}}"), &ja, &jb);
        return;
    }
    let squeeze = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let kind = if squeeze(a) == squeeze(b) {
        ChangeKind::Whitespace
    } else {
        ChangeKind::Changed {
            old: show(&Value::from(a)),
            new: show(&Value::from(b)),
        }
    };
    out.push(Change {
        path: shown_path(path),
        kind,
    });
}

/// The key that names every item on both sides uniquely, if there is one.
fn item_key(a: &[Value], b: &[Value]) -> Option<&'static str> {
    ITEM_KEYS.into_iter().find(|key| {
        [a, b].iter().all(|items| {
            let mut seen = std::collections::BTreeSet::new();
            !items.is_empty()
                && items.iter().all(|v| {
                    untag(v)
                        .get(*key)
                        .and_then(Value::as_str)
                        .is_some_and(|n| seen.insert(n.to_string()))
                })
        })
    })
}

fn item_name(v: &Value, key: &str) -> String {
    untag(v)
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

fn untag(v: &Value) -> &Value {
    match v {
        Value::Tagged(t) => untag(&t.value),
        other => other,
    }
}

fn key_text(k: &Value) -> String {
    match k {
        Value::String(s) => s.clone(),
        other => canonical_json(other),
    }
}

fn join(path: &str, key: &str) -> String {
    // Keys with dots (annotation names) are bracketed so the path stays unambiguous.
    let key = if key.contains('.') || key.is_empty() {
        format!("[{key:?}]")
    } else {
        key.to_string()
    };
    match (path.is_empty(), key.starts_with('[')) {
        (true, _) => key,
        (false, true) => format!("{path}{key}"),
        (false, false) => format!("{path}.{key}"),
    }
}

fn shown_path(path: String) -> String {
    if path.is_empty() {
        "(document)".into()
    } else {
        path
    }
}

fn added(path: String, v: &Value) -> Change {
    Change {
        path: shown_path(path),
        kind: ChangeKind::Added { new: show(v) },
    }
}

fn removed(path: String, v: &Value) -> Change {
    Change {
        path: shown_path(path),
        kind: ChangeKind::Removed { old: show(v) },
    }
}

/// A value as one line of JSON with sorted keys, cut to [`SHOWN`] characters.
pub(crate) fn show(v: &Value) -> String {
    cut(&canonical_json(v))
}

fn cut(s: &str) -> String {
    if s.chars().count() <= SHOWN {
        return s.to_string();
    }
    let head: String = s.chars().take(SHOWN - 1).collect();
    format!("{head}…")
}

/// JSON with mapping keys sorted, so equal data always gives equal text.
pub(crate) fn canonical_json(v: &Value) -> String {
    serde_json::to_string(&to_json(v)).unwrap_or_default()
}

fn to_json(v: &Value) -> serde_json::Value {
    use serde_json::Value as J;
    match v {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Number(n) => serde_json::to_value(n).unwrap_or(J::Null),
        Value::String(s) => J::String(s.clone()),
        Value::Sequence(items) => J::Array(items.iter().map(to_json).collect()),
        Value::Mapping(m) => {
            let sorted: BTreeMap<String, J> =
                m.iter().map(|(k, v)| (key_text(k), to_json(v))).collect();
            J::Object(sorted.into_iter().collect())
        }
        Value::Tagged(t) => to_json(&t.value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn y(s: &str) -> Value {
        serde_yaml_ng::from_str(s).unwrap()
    }

    #[test]
    fn key_order_and_quoting_are_not_changes() {
        let a = y("a: '1.0'\nb: {x: 1, y: [p, q]}\n");
        let b = y("b: {y: [p, q], x: 1}\na: \"1.0\"\n");
        assert!(diff(&a, &b).is_empty());
    }

    #[test]
    fn a_type_change_is_a_change() {
        let d = diff(&y("v: '1'"), &y("v: 1"));
        assert_eq!(
            d,
            vec![Change {
                path: "v".into(),
                kind: ChangeKind::Changed {
                    old: "\"1\"".into(),
                    new: "1".into()
                }
            }]
        );
    }

    #[test]
    fn named_items_are_matched_by_name() {
        let a = y("deployments: [{name: op, spec: {replicas: 1}}, {name: gone, spec: {}}]");
        let b = y("deployments: [{name: new, spec: {}}, {name: op, spec: {replicas: 2}}]");
        let paths: Vec<_> = diff(&a, &b).into_iter().map(|c| c.path).collect();
        assert_eq!(
            paths,
            [
                "deployments[new]",
                "deployments[op].spec.replicas",
                "deployments[gone]"
            ]
        );
    }

    #[test]
    fn unnamed_lists_are_multisets() {
        let a = y("rules: [{verbs: [get]}, {verbs: [list]}]");
        let b = y("rules: [{verbs: [list]}, {verbs: [watch]}]");
        let d = diff(&a, &b);
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].path, "rules[+]");
        assert_eq!(d[1].path, "rules[-]");
        let r = diff(&y("l: [1, 2]"), &y("l: [2, 1]"));
        assert_eq!(r[0].kind, ChangeKind::Reordered);
    }

    #[test]
    fn json_in_strings_is_data_and_white_space_is_named() {
        let a = y("ex: '[{\"kind\": \"A\", \"n\": 1}]'\nd: 'one two'");
        let b = y("ex: \"[\\n  {\\\"n\\\": 2, \\\"kind\\\": \\\"A\\\"}]\"\nd: \"one\\n  two\"");
        let d = diff(&a, &b);
        assert_eq!(d.len(), 2, "{d:?}");
        assert_eq!(d[0].path, "ex{json}[A].n");
        assert_eq!(d[1].kind, ChangeKind::Whitespace);
    }

    #[test]
    fn dotted_keys_are_bracketed() {
        let d = diff(
            &y("metadata: {annotations: {olm.skipRange: '<1.0.0'}}"),
            &y("metadata: {annotations: {olm.skipRange: '<1.1.0'}}"),
        );
        assert_eq!(d[0].path, "metadata.annotations[\"olm.skipRange\"]");
    }
}
