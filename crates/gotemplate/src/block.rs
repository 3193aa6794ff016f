//! Printing structured YAML ("block" values) into a YAML document being rendered.
//!
//! KubeVirt's templater pasted pre-indented text (its Go code indented the YAML by a fixed 12 or
//! 14 spaces), so a placeholder worked only at the one column it was written for. Here the
//! value stays structured until it is printed, and the indentation comes from where the action
//! stands in the output:
//! - alone on its line (only spaces before it): at the action's column, or, when the action
//!   stands at or left of a preceding `key:` line that opens a block (as KubeVirt's
//!   `{{.OperatorRules}}` does at column 0), two spaces deeper than that key;
//! - after `key:` on the same line: on the following lines, two spaces deeper than the key;
//! - after `- `: the first line right after the dash, the rest aligned with it;
//! - anywhere else (inside text): in flow style (JSON), which YAML reads the same.
//!
//! Scalars print as YAML scalars (quoted when YAML needs it); empty collections as `{}`/`[]`.

use serde_yaml_ng::Value;

/// Appends `value` to `out`, indented as described in the module documentation.
pub(crate) fn emit(out: &mut String, value: &Value) -> Result<(), String> {
    let collection = match value {
        Value::Mapping(m) => !m.is_empty(),
        Value::Sequence(s) => !s.is_empty(),
        Value::Tagged(_) => true,
        _ => false,
    };
    if !collection {
        out.push_str(&scalar(value)?);
        return Ok(());
    }
    let line_start = out.rfind('\n').map_or(0, |i| i + 1);
    let prefix = out[line_start..].to_string();
    let yaml = olm_release_base::yaml::to_string(value);
    let yaml = yaml.strip_suffix('\n').unwrap_or(&yaml);
    let indent_of = |s: &str| s.len() - s.trim_start_matches(' ').len();
    let trimmed = prefix.trim_end();
    if trimmed.is_empty() {
        let mut indent = prefix.chars().count();
        if let Some((prev_indent, true)) = previous_line(&out[..line_start])
            && indent <= prev_indent
        {
            indent = prev_indent + 2;
        }
        out.truncate(line_start);
        push_indented(out, yaml, indent, true);
    } else if trimmed.ends_with(':') {
        let indent = indent_of(trimmed) + 2;
        out.truncate(line_start + trimmed.len());
        out.push('\n');
        push_indented(out, yaml, indent, true);
    } else if trimmed.trim_start() == "-" || trimmed.ends_with(" -") {
        let indent = trimmed.chars().count() + 1;
        out.truncate(line_start + trimmed.len());
        out.push(' ');
        push_indented(out, yaml, indent, false);
    } else {
        out.push_str(&serde_json::to_string(value).map_err(|e| e.to_string())?);
    }
    Ok(())
}

/// The indentation of the last non-blank line of `before`, and whether it opens a block
/// (ends with `:` outside a comment).
fn previous_line(before: &str) -> Option<(usize, bool)> {
    let line = before.lines().rev().find(|l| !l.trim().is_empty())?;
    let indent = line.len() - line.trim_start_matches(' ').len();
    let code = line.split(" #").next().unwrap_or(line).trim_end();
    Some((indent, code.ends_with(':')))
}

fn push_indented(out: &mut String, yaml: &str, indent: usize, indent_first: bool) {
    let pad = " ".repeat(indent);
    for (i, line) in yaml.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if !line.is_empty() && (i > 0 || indent_first) {
            out.push_str(&pad);
        }
        out.push_str(line);
    }
}

/// A scalar (or empty collection) as YAML text on one line.
fn scalar(value: &Value) -> Result<String, String> {
    match value {
        Value::Null => Ok(String::new()),
        Value::Mapping(_) => Ok("{}".into()),
        Value::Sequence(_) => Ok("[]".into()),
        Value::String(s) if s.contains('\n') => serde_json::to_string(s).map_err(|e| e.to_string()),
        other => {
            let s = olm_release_base::yaml::to_string(other);
            Ok(s.trim_end_matches('\n').to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml(s: &str) -> Value {
        serde_yaml_ng::from_str(s).unwrap()
    }

    fn emit_after(before: &str, v: &Value) -> String {
        let mut out = before.to_string();
        emit(&mut out, v).unwrap();
        out
    }

    #[test]
    fn column_zero_under_a_key_goes_deeper_than_the_key() {
        let v = yaml("- apiGroups: [a]\n  verbs: [get]\n");
        let out = emit_after("x:\n    rules:\n", &v);
        assert_eq!(
            out,
            "x:\n    rules:\n      - apiGroups:\n        - a\n        verbs:\n        - get"
        );
        let back: Value = serde_yaml_ng::from_str(&out).unwrap();
        assert_eq!(back["x"]["rules"], v);
    }

    #[test]
    fn indented_action_keeps_its_column() {
        let v = yaml("a: 1\nb: 2\n");
        assert_eq!(
            emit_after("spec:\n      ", &v),
            "spec:\n      a: 1\n      b: 2"
        );
    }

    #[test]
    fn after_a_key_and_after_a_dash() {
        let v = yaml("a: 1\nb: 2\n");
        assert_eq!(emit_after("  spec: ", &v), "  spec:\n    a: 1\n    b: 2");
        assert_eq!(emit_after("  - ", &v), "  - a: 1\n    b: 2");
    }

    #[test]
    fn scalars_and_inline() {
        assert_eq!(emit_after("v: ", &yaml("'1.0'")), "v: '1.0'");
        assert_eq!(emit_after("v: ", &Value::Null), "v: ");
        assert_eq!(emit_after("x [", &yaml("[1, 2]")), "x [[1,2]");
    }
}
