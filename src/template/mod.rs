//! Go `text/template` compatible rendering for `.yaml.in` files (placeholder: `{{.Var}}` only;
//! the full engine replaces this).

use std::collections::BTreeMap;

/// A template variable's value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Str(String),
}

/// The data a template sees.
#[derive(Debug, Clone, Default)]
pub struct Data {
    pub vars: BTreeMap<String, Value>,
}

/// Renders `text`; `name` names the template in errors.
pub fn render(name: &str, text: &str, data: &Data) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let end = rest[start..]
            .find("}}")
            .ok_or_else(|| format!("{name}: unclosed action"))?
            + start;
        let action = rest[start + 2..end].trim();
        let var = action
            .strip_prefix('.')
            .ok_or_else(|| format!("{name}: unsupported action {{{{{action}}}}}"))?;
        let line = text[..text.len() - rest.len() + start]
            .lines()
            .count()
            .max(1);
        match data.vars.get(var) {
            Some(Value::Str(s)) => out.push_str(s),
            None => return Err(format!("{name}:{line}: undefined variable .{var}")),
        }
        rest = &rest[end + 2..];
    }
    out.push_str(rest);
    Ok(out)
}
