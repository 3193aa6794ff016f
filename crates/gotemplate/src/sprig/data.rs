//! `toJson` and `toYaml`.
//!
//! `toJson` writes what Go's `encoding/json` writes: map keys sorted, `<`, `>`, `&`, U+2028 and
//! U+2029 escaped as `\u003c`…, floats in Go's shortest form (`1e+21` from 1e21 up and below
//! 1e-6), and an empty string for what JSON cannot hold (NaN, infinities).
//!
//! `toYaml` follows Helm's path (JSON, then YAML, final newline removed), so a float that is a
//! whole number becomes an integer. It writes with this project's YAML writer, which quotes
//! every string a YAML 1.1 reader could take for something else: where Go's yaml.v2 leaves
//! such a string plain or quotes differently, the output differs (listed in the corpus).

use serde_yaml_ng::Value as Yaml;

use crate::Value;

/// Go's `json.Marshal` of `v`, or `""` if it holds a NaN or an infinity.
pub(super) fn to_json(v: &Value) -> String {
    let mut out = String::new();
    if write_json(&mut out, v) {
        out
    } else {
        String::new()
    }
}

fn write_json(out: &mut String, v: &Value) -> bool {
    match &v.unblock() {
        Value::Nil | Value::Files(_) | Value::Texts(_) => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(n) => out.push_str(&n.to_string()),
        Value::Uint8(n) => out.push_str(&n.to_string()),
        Value::Float(f) => match json_float(*f) {
            Some(s) => out.push_str(&s),
            None => return false,
        },
        Value::Str(s) => json_string(out, s),
        Value::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if !write_json(out, item) {
                    return false;
                }
            }
            out.push(']');
        }
        Value::Map(m) => {
            out.push('{');
            for (i, (k, item)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json_string(out, k);
                out.push(':');
                if !write_json(out, item) {
                    return false;
                }
            }
            out.push('}');
        }
        Value::Block(_) => out.push_str("null"),
    }
    true
}

fn json_float(f: f64) -> Option<String> {
    if !f.is_finite() {
        return None;
    }
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        let s = crate::fmt::float_text(f, 'e', -1);
        // Go writes e-07 as e-7.
        if let Some(i) = s.find("e-0") {
            return Some(format!("{}e-{}", &s[..i], &s[i + 3..]));
        }
        if let Some(i) = s.find("e+0") {
            return Some(format!("{}e+{}", &s[..i], &s[i + 3..]));
        }
        return Some(s);
    }
    Some(crate::fmt::float_text(f, 'f', -1))
}

fn json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The value as Helm's `toYaml` sees it after its trip through JSON.
fn json_yaml(v: &Value) -> Option<Yaml> {
    Some(match &v.unblock() {
        Value::Nil | Value::Files(_) | Value::Texts(_) | Value::Block(_) => Yaml::Null,
        Value::Bool(b) => Yaml::Bool(*b),
        Value::Int(n) => Yaml::Number((*n).into()),
        Value::Uint8(n) => Yaml::Number(u64::from(*n).into()),
        Value::Float(f) => {
            if !f.is_finite() {
                return None;
            }
            if f.fract() == 0.0 && f.abs() < 1e21 {
                Yaml::Number((*f as i64).into())
            } else {
                Yaml::Number((*f).into())
            }
        }
        Value::Str(s) => Yaml::String(s.clone()),
        Value::List(items) => Yaml::Sequence(items.iter().map(json_yaml).collect::<Option<_>>()?),
        Value::Map(m) => Yaml::Mapping(
            m.iter()
                .map(|(k, v)| Some((Yaml::String(k.clone()), json_yaml(v)?)))
                .collect::<Option<_>>()?,
        ),
    })
}

/// Helm's `toYaml`: `""` when the value cannot be written.
pub(super) fn to_yaml(v: &Value) -> String {
    match json_yaml(v) {
        Some(y) => {
            let text = olm_release_base::yaml::to_string(&y);
            text.strip_suffix('\n').unwrap_or(&text).to_string()
        }
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_like_go() {
        let v = Value::from_yaml(
            &serde_yaml_ng::from_str("{b: [1, 2.5, null], a: '<&>', c: 1e21, d: 0.0000001}")
                .unwrap(),
        );
        assert_eq!(
            to_json(&v),
            r#"{"a":"\u003c\u0026\u003e","b":[1,2.5,null],"c":1e+21,"d":1e-7}"#
        );
    }
}
