//! Parsing manifest files the way the tools that consume them do: every YAML document of a
//! file, with a mapping that repeats a key kept (the last value wins, as in PyYAML and in
//! go-yaml's non-strict `Unmarshal`, which Kubernetes' `sigs.k8s.io/yaml` and so `opm render`
//! use: <https://github.com/go-yaml/yaml/issues/284>) and the repetition reported, instead of
//! refusing the whole file as a strict parser would. `verify` reports the repetition; the
//! file-based catalog entry of a bundle is built from the same reading.
//!
//! No budget is applied here: every entry point that loads files (`report.rs`) first measures
//! each YAML text against the bundle's limits (nesting depth, values, alias expansion) with
//! `archive::check_files`, and the folder walk (`walk.rs`) caps entries, bytes and file types,
//! so the parser only ever sees text within them.

use std::cell::RefCell;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_yaml_ng::value::{Tag, TaggedValue};
use serde_yaml_ng::{Mapping, Number, Value};

/// The documents of one file and the keys repeated in them (as dotted paths).
#[derive(Debug, Default)]
pub(crate) struct Parsed {
    pub(crate) docs: Vec<Value>,
    pub(crate) repeated: Vec<String>,
    /// Documents of the stream, empty ones included: PyYAML refuses a file of more than one
    /// even when the others are empty (a trailing `---`).
    pub(crate) in_stream: usize,
}

/// Parses every YAML document of `text`. An error names the line and column. A leading UTF-8
/// byte order mark is skipped, as PyYAML and go-yaml skip it.
pub(crate) fn documents(text: &str) -> Result<Parsed, serde_yaml_ng::Error> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let repeated = RefCell::new(Vec::new());
    let mut docs = Vec::new();
    for doc in serde_yaml_ng::Deserializer::from_str(text) {
        let v = Lenient {
            repeated: &repeated,
            path: String::new(),
        }
        .deserialize(doc)?;
        docs.push(v);
    }
    // An empty file (or one holding only comments) reads as one empty document, which is no
    // manifest.
    let in_stream = docs.len();
    docs.retain(|d| !d.is_null());
    Ok(Parsed {
        docs,
        repeated: repeated.into_inner(),
        in_stream,
    })
}

/// A seed that builds a [`Value`], recording repeated keys with their path.
struct Lenient<'r> {
    repeated: &'r RefCell<Vec<String>>,
    path: String,
}

impl Lenient<'_> {
    fn child(&self, key: &str) -> Self {
        let path = if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        };
        Lenient {
            repeated: self.repeated,
            path,
        }
    }
}

impl<'de> DeserializeSeed<'de> for Lenient<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

fn key_text(k: &Value) -> String {
    match k {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Null => "null".into(),
        _ => "(complex key)".into(),
    }
}

impl<'de> Visitor<'de> for Lenient<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E>(self, i: i64) -> Result<Value, E> {
        Ok(Value::Number(i.into()))
    }
    fn visit_u64<E>(self, u: u64) -> Result<Value, E> {
        Ok(Value::Number(u.into()))
    }
    fn visit_f64<E>(self, f: f64) -> Result<Value, E> {
        Ok(Value::Number(Number::from(f)))
    }
    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_string()))
    }
    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        self.deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(v) = seq.next_element_seed(self.child(&format!("[{}]", items.len())))? {
            items.push(v);
        }
        Ok(Value::Sequence(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut m = Mapping::new();
        while let Some(k) = map.next_key_seed(self.child("(key)"))? {
            let name = key_text(&k);
            let v = map.next_value_seed(self.child(&name))?;
            if m.insert(k, v).is_some() {
                self.repeated.borrow_mut().push(self.child(&name).path);
            }
        }
        Ok(Value::Mapping(m))
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<Value, A::Error> {
        use de::VariantAccess;
        let (tag, variant): (String, _) = data.variant()?;
        let value = variant.newtype_variant_seed(self.child(""))?;
        Ok(Value::Tagged(Box::new(TaggedValue {
            tag: Tag::new(tag),
            value,
        })))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everything_but_a_repeated_key_reads_as_strict_yaml_does() {
        // What `opm render` accepts through Kubernetes' decoder (the file-based catalog entry
        // of such a bundle is built from it): the later `subresources` wins.
        let text = "spec:\n  subresources: {status: {}}\n  scope: Namespaced\n  subresources: {scale: {}}\nn: [1, -2, 0.5, true, null, x]\nt: !custom {a: 1}\n";
        let v = &documents(text).unwrap().docs[0];
        let scale: Value = serde_yaml_ng::from_str("{scale: {}}").unwrap();
        assert_eq!(v["spec"]["subresources"], scale);
        assert_eq!(v["spec"]["scope"], Value::from("Namespaced"));
        let plain = "n: [1, -2, 0.5, true, null, x]\nt: !custom {a: 1}\n";
        let want: Value = serde_yaml_ng::from_str(plain).unwrap();
        assert_eq!(v["n"], want["n"]);
        assert_eq!(v["t"], want["t"]);
        assert!(
            serde_yaml_ng::from_str::<Value>(text).is_err(),
            "strict YAML refuses it"
        );
    }

    #[test]
    fn a_repeated_key_keeps_the_last_value_and_is_reported() {
        let p = documents("a: 1\nspec:\n  b: x\n  b: y\n").unwrap();
        assert_eq!(p.docs.len(), 1);
        assert_eq!(p.docs[0]["spec"]["b"], Value::from("y"));
        assert_eq!(p.repeated, vec!["spec.b".to_string()]);
    }

    #[test]
    fn a_byte_order_mark_is_skipped_and_empty_documents_are_counted() {
        let p = documents("\u{feff}a: 1\nb:\n  c: 2\n").unwrap();
        assert_eq!(p.docs[0]["b"]["c"], Value::from(2));
        assert_eq!(p.in_stream, 1);
        assert_eq!(documents("a: 1\n---\n").unwrap().in_stream, 2);
        assert_eq!(documents("a: 1\n...\n").unwrap().in_stream, 1);
        assert_eq!(documents("# only a comment\n").unwrap().in_stream, 1);
    }

    #[test]
    fn documents_and_tags_and_errors() {
        let p = documents("---\na: !foo 1\n---\n# only a comment\n---\nb: [1, 2]\n").unwrap();
        assert_eq!(p.docs.len(), 2);
        assert!(matches!(p.docs[0]["a"], Value::Tagged(_)));
        assert!(p.repeated.is_empty());
        let e = documents("a: [1, 2\n").unwrap_err();
        assert!(e.location().is_some());
        // The same values as the strict parser where there is nothing to forgive.
        let text = "x: 1.5\ny: true\nz: ~\nw: '2'\n";
        let strict: Value = serde_yaml_ng::from_str(text).unwrap();
        assert_eq!(documents(text).unwrap().docs[0], strict);
    }
}
