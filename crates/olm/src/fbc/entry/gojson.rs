//! JSON as Go's `encoding/json` writes a decoded YAML or JSON object, byte for byte: compact,
//! mapping keys sorted by their bytes, `<`, `>` and `&` escaped as `\u003c`, `\u003e`, `\u0026`
//! and U+2028, U+2029 as `\u2028`, `\u2029` (Go's HTML-safe default), whole numbers written as
//! integers (Kubernetes' decoder turns them into `int64`) and other numbers in Go's float format.
//!
//! operator-registry compares and stores property values in this form: `olm.bundle.object` is the
//! base64 of an object's JSON (`pkg/registry/registry_to_model.go`), and properties are sorted by
//! the bytes of their JSON values, so the same form gives the same bytes and the same order.

use std::fmt::Write as _;

use serde_yaml_ng::Value;

/// `value` as Go's `json.Marshal` writes it after Kubernetes' YAML-to-JSON decoding.
pub fn to_string(value: &Value) -> String {
    let mut out = String::new();
    write(&mut out, value);
    out
}

fn write(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => number(out, n),
        Value::String(s) => string(out, s),
        Value::Sequence(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(out, item);
            }
            out.push(']');
        }
        Value::Mapping(m) => {
            let mut entries: Vec<(String, &Value)> =
                m.iter().map(|(k, v)| (key_text(k), v)).collect();
            entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            // YAML may repeat a key in different spellings (`1` and `"1"`); Go keeps the last.
            entries.dedup_by(|later, earlier| {
                if later.0 == earlier.0 {
                    earlier.1 = later.1;
                    true
                } else {
                    false
                }
            });
            out.push('{');
            for (i, (k, v)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                string(out, k);
                out.push(':');
                write(out, v);
            }
            out.push('}');
        }
        Value::Tagged(t) => write(out, &t.value),
    }
}

/// A mapping key as the YAML-to-JSON conversion spells it.
pub(crate) fn key_text(k: &Value) -> String {
    match k {
        Value::String(s) => s.clone(),
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => {
            let mut s = String::new();
            number(&mut s, n);
            s
        }
        Value::Tagged(t) => key_text(&t.value),
        other => to_string(other),
    }
}

fn number(out: &mut String, n: &serde_yaml_ng::Number) {
    if let Some(i) = n.as_i64() {
        let _ = write!(out, "{i}");
    } else if let Some(u) = n.as_u64() {
        let _ = write!(out, "{u}");
    } else if let Some(f) = n.as_f64() {
        float(out, f);
    }
}

/// Go's float encoding: integral values within `int64` as integers (the decoder made them
/// `int64`), else the shortest representation, in exponent form below 1e-6 and from 1e21.
fn float(out: &mut String, f: f64) {
    if !f.is_finite() {
        out.push_str("null"); // Go refuses to encode these; never in a valid manifest
        return;
    }
    if f.fract() == 0.0 && f.abs() < 9.2e18 {
        let _ = write!(out, "{}", f as i64);
        return;
    }
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        let text = format!("{f:e}");
        match text.split_once('e') {
            Some((mantissa, exp)) if !exp.starts_with('-') => {
                let _ = write!(out, "{mantissa}e+{exp:0>2}");
            }
            _ => out.push_str(&text),
        }
    } else {
        let _ = write!(out, "{f}");
    }
}

fn string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(yaml: &str) -> String {
        to_string(&serde_yaml_ng::from_str(yaml).unwrap())
    }

    #[test]
    fn keys_sorted_compact_and_html_escaped() {
        assert_eq!(
            json("b: 1\na: {d: [x, \"<0.1.0\"], c: null}\n"),
            r#"{"a":{"c":null,"d":["x","\u003c0.1.0"]},"b":1}"#
        );
        assert_eq!(
            json("a: \"x&y>z\\u2028\""),
            r#"{"a":"x\u0026y\u003ez\u2028"}"#
        );
        assert_eq!(json("a: \"\\t\\u0001\""), r#"{"a":"\t\u0001"}"#);
    }

    #[test]
    fn numbers_as_go_writes_them() {
        assert_eq!(
            json("[1, -2, 1.0, 0.5, 1.5e-7, 1e21, 2.5e22, 1e-7]"),
            "[1,-2,1,0.5,1.5e-7,1e+21,2.5e+22,1e-7]"
        );
        assert_eq!(json("{1: a, true: b}"), r#"{"1":"a","true":"b"}"#);
    }
}
