//! Writing YAML that every consumer reads back the same way.
//!
//! The app registry's consumers parse bundles with YAML 1.1 libraries (PyYAML in
//! operator-courier, go-yaml v2 in operator-registry), where `yes`, `on`, `y`, `no`, `off` are
//! booleans, `2019-04-05` is a date, `1_000` and `1:20` are numbers and `<<` is a merge key.
//! serde_yaml's writer follows YAML 1.2 and leaves those plain, so a label `on` or a version
//! `0.10` could change type on the way to a cluster. This writer quotes every string that any
//! YAML version could read as something else (anything starting with a digit, every 1.1 and 1.2
//! keyword), writes multi-line strings as literal blocks (which `bundle.yaml`'s `data.*` values
//! and CSV descriptions need), and otherwise emits the plain block style people expect.

use std::fmt::Write as _;

use serde_yaml_ng::Value;

/// Serialises `value` as a YAML document (no `---`, ending with a newline).
pub fn to_string(value: &Value) -> String {
    let mut out = String::new();
    match value {
        Value::Mapping(m) if !m.is_empty() => mapping(&mut out, m, 0),
        Value::Sequence(s) if !s.is_empty() => sequence(&mut out, s, 0),
        other => {
            out.push_str(&scalar_inline(other, 0));
            out.push('\n');
        }
    }
    out
}

/// Serialises a list of documents as one YAML sequence, without copying them into a new tree
/// (a cumulative bundle's CSVs are megabytes).
pub fn sequence_to_string(items: &[&Value]) -> String {
    if items.is_empty() {
        return "[]\n".into();
    }
    let mut out = String::with_capacity(items.len() * 4096);
    sequence(&mut out, items.iter().copied(), 0);
    out
}

/// Serialises any serde value through [`to_string`].
pub fn to_string_of<T: serde::Serialize>(value: &T) -> Result<String, serde_yaml_ng::Error> {
    serde_yaml_ng::to_value(value).map(|v| to_string(&v))
}

fn pad(out: &mut String, indent: usize) {
    out.extend(std::iter::repeat_n(' ', indent));
}

fn is_block(v: &Value) -> bool {
    match v {
        Value::Mapping(m) => !m.is_empty(),
        Value::Sequence(s) => !s.is_empty(),
        Value::Tagged(t) => is_block(&t.value),
        _ => false,
    }
}

fn mapping(out: &mut String, m: &serde_yaml_ng::Mapping, indent: usize) {
    for (k, v) in m {
        pad(out, indent);
        out.push_str(&key(k));
        out.push(':');
        value_after_key(out, v, indent);
    }
}

/// Writes what follows `key:` (or `- `): a nested block on the next lines, or an inline scalar.
fn value_after_key(out: &mut String, v: &Value, indent: usize) {
    match v {
        Value::Mapping(m) if !m.is_empty() => {
            out.push('\n');
            mapping(out, m, indent + 2);
        }
        // Sequences under a key stay at the key's indentation, as kubectl and serde_yaml write them.
        Value::Sequence(s) if !s.is_empty() => {
            out.push('\n');
            sequence(out, s, indent);
        }
        Value::Tagged(t) => {
            let _ = write!(out, " {}", t.tag);
            value_after_key(out, &t.value, indent);
        }
        other => {
            out.push(' ');
            out.push_str(&scalar_inline(other, indent + 2));
            out.push('\n');
        }
    }
}

fn sequence<'a>(out: &mut String, s: impl IntoIterator<Item = &'a Value>, indent: usize) {
    for item in s {
        pad(out, indent);
        out.push('-');
        match item {
            // "- key: value" with the rest of the mapping aligned under the first key.
            Value::Mapping(m) if !m.is_empty() => {
                let mut first = true;
                for (k, v) in m {
                    if first {
                        out.push(' ');
                        first = false;
                    } else {
                        pad(out, indent + 2);
                    }
                    out.push_str(&key(k));
                    out.push(':');
                    value_after_key(out, v, indent + 2);
                }
            }
            Value::Sequence(inner) if !inner.is_empty() => {
                out.push('\n');
                sequence(out, inner, indent + 2);
            }
            other if is_block(other) => value_after_key(out, other, indent),
            other => {
                out.push(' ');
                out.push_str(&scalar_inline(other, indent + 2));
                out.push('\n');
            }
        }
    }
}

fn key(k: &Value) -> String {
    match k {
        Value::String(s) => string_inline(s),
        other => scalar_inline(other, 0),
    }
}

/// A scalar (or empty collection) on the current line; multi-line strings become literal
/// blocks whose lines are indented by `indent`.
fn scalar_inline(v: &Value, indent: usize) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => number(n),
        Value::String(s) if s.contains('\n') && !needs_double_quotes(s) => literal(s, indent),
        Value::String(s) => string_inline(s),
        Value::Sequence(_) => "[]".into(),
        Value::Mapping(_) => "{}".into(),
        Value::Tagged(t) => format!("{} {}", t.tag, scalar_inline(&t.value, indent)),
    }
}

fn number(n: &serde_yaml_ng::Number) -> String {
    if let Some(f) = n.as_f64().filter(|_| n.is_f64()) {
        if f.is_nan() {
            return ".nan".into();
        }
        if f.is_infinite() {
            return if f > 0.0 {
                ".inf".into()
            } else {
                "-.inf".into()
            };
        }
        let s = f.to_string();
        return if s.contains(['.', 'e', 'E']) {
            s
        } else {
            format!("{s}.0")
        };
    }
    n.to_string()
}

/// `|`, `|-` or `|+` with an indentation indicator when the first line starts with a space.
fn literal(s: &str, indent: usize) -> String {
    let trailing = s.len() - s.trim_end_matches('\n').len();
    let chomp = match trailing {
        0 => "-",
        1 => "",
        _ => "+",
    };
    // The indentation is detected from the first non-empty line; one starting with a space
    // needs an explicit indicator.
    let first_text = s.split('\n').find(|l| !l.is_empty()).unwrap_or("");
    let indicator = if first_text.starts_with(' ') { "2" } else { "" };
    let mut out = format!("|{indicator}{chomp}");
    let body = if trailing == 0 { s } else { &s[..s.len() - 1] };
    for line in body.split('\n') {
        out.push('\n');
        if !line.is_empty() {
            out.extend(std::iter::repeat_n(' ', indent.max(2)));
            out.push_str(line);
        }
    }
    out
}

fn needs_double_quotes(s: &str) -> bool {
    s.chars().any(|c| {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{feff}' | '\u{2028}' | '\u{2029}')
    }) || s.lines().any(|l| l.ends_with(' ') || l.ends_with('\t'))
        || s.split('\n').any(|l| l.starts_with('\t'))
        || (s.contains('\n') && s.split('\n').all(str::is_empty))
}

/// A single-line string: plain when no YAML reader could take it for anything else.
fn string_inline(s: &str) -> String {
    if needs_double_quotes(s) || s.contains('\n') {
        return double_quoted(s);
    }
    if plain_is_safe(s) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "''"))
    }
}

fn double_quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() || matches!(c, '\u{feff}' | '\u{2028}' | '\u{2029}') => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Words YAML 1.1 or 1.2 reads as booleans or null.
const KEYWORDS: &[&str] = &[
    "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false",
    "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL", "~", "<<",
    "=",
];

fn plain_is_safe(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    if KEYWORDS.contains(&s) {
        return false;
    }
    // Numbers, dates, times and versions all start with a digit (or a sign or dot before one).
    if first.is_ascii_digit() || matches!(first, '+' | '.') {
        return false;
    }
    if first == '-'
        && (s.len() == 1
            || s[1..].starts_with(|c: char| c.is_ascii_digit() || c == '.' || c == ' '))
    {
        return false;
    }
    if matches!(
        first,
        '?' | ':'
            | ','
            | '['
            | ']'
            | '{'
            | '}'
            | '#'
            | '&'
            | '*'
            | '!'
            | '|'
            | '>'
            | '\''
            | '"'
            | '%'
            | '@'
            | '`'
            | ' '
    ) {
        return false;
    }
    if s.starts_with("---") || s.starts_with("...") {
        return false; // document markers at column 0
    }
    let lower = s.to_ascii_lowercase();
    if matches!(lower.as_str(), ".inf" | "-.inf" | "+.inf" | ".nan") {
        return false;
    }
    !(s.ends_with(' ')
        || s.ends_with(':')
        || s.contains(": ")
        || s.contains(" #")
        || s.contains('\t'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(v: &Value) {
        let text = to_string(v);
        let back: Value = serde_yaml_ng::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(&back, v, "round trip of\n{text}");
    }

    #[test]
    fn yaml_1_1_lookalikes_are_quoted() {
        for s in [
            "yes",
            "on",
            "y",
            "No",
            "OFF",
            "~",
            "null",
            "true",
            "1970-01-01T00:00:00Z",
            "2019-04-05",
            "0755",
            "1_000",
            "1:20",
            "0.10",
            ".inf",
            "<<",
            "=",
            "-1",
            "- x",
            "a: b",
            "#x",
            "x #y",
            "@x",
            "1.0.0",
        ] {
            let out = string_inline(s);
            assert!(out.starts_with('\''), "{s} → {out}");
            round_trip(&Value::String(s.into()));
        }
        for s in [
            "kubevirt",
            "quay.io/kubevirt/virt-operator:v0.20.0",
            "https://quay.io/cnr",
            "Full Lifecycle",
            "urn:alm:descriptor:text",
            "v1alpha3",
            "o'neil",
        ] {
            assert!(!string_inline(s).starts_with('\''), "{s} stays plain");
            round_trip(&Value::String(s.into()));
        }
    }

    #[test]
    fn documents_round_trip() {
        let doc: Value = serde_yaml_ng::from_str(
            "a:\n  b: [1, 2.5, true, null, '']\n  c: {}\n  d: []\nlist:\n- x: 1\n  y:\n  - z\n  - - nested\n- plain\ntext: |\n  line one\n    indented\n\n  after blank\nkeep: \"two\\n\\n\"\nnone: \"no newline\\nat end\"\nlead: \"  starts with spaces\\nnext\"\ntrail: \"trailing space \\nx\"\nctl: \"bell\\u0007\"\n",
        )
        .unwrap();
        round_trip(&doc);
        let text = to_string(&doc);
        assert!(
            text.contains("text: |\n  line one\n    indented\n\n  after blank\n"),
            "{text}"
        );
        assert!(text.contains("none: |-\n"), "{text}");
        assert!(text.contains("keep: |+\n"), "{text}");
    }
}
