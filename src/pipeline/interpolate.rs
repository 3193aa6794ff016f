//! `${VAR}` expansion in pipeline files.
//!
//! Supported forms, as in POSIX shells: `${VAR}` (an error if unset), `${VAR:-default}` (the
//! default when unset or empty; the default may itself hold `${…}`), `${VAR#prefix}` (the value
//! with a leading literal prefix removed, so `${TRAVIS_TAG#v}` turns `v0.17.0` into `0.17.0`), and
//! `$$` for a literal `$`. A lone `$` not followed by `{` or `$` stays as it is. Values come from
//! a [`Vars`] lookup: `--var` overrides first, then the environment captured once at start-up.

use std::collections::BTreeMap;

/// Where variable values come from: explicit overrides first, then the environment.
#[derive(Debug, Clone, Default)]
pub struct Vars {
    /// `--var KEY=VALUE` values, which win.
    pub overrides: BTreeMap<String, String>,
    /// The environment captured at start-up.
    pub env: BTreeMap<String, String>,
}

impl Vars {
    /// The value of `name`: an override, else the environment.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.overrides
            .get(name)
            .or_else(|| self.env.get(name))
            .map(String::as_str)
    }
}

/// Why an expansion failed; the caller adds the file and line.
#[derive(Debug, PartialEq, Eq)]
pub enum ExpandError {
    /// `${NAME}` with no value and no default.
    Unset {
        /// The variable.
        name: String,
        /// The reference as written.
        expr: String,
    },
    /// A `${` without its `}` or with a bad name.
    Malformed {
        /// The reference as written.
        expr: String,
        /// What is wrong with it.
        why: &'static str,
    },
}

impl std::fmt::Display for ExpandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExpandError::Unset { name, expr } => write!(
                f,
                "variable {name} is not set (in {expr}); set it in the environment, pass --var {name}=VALUE, or write ${{{name}:-default}}"
            ),
            ExpandError::Malformed { expr, why } => {
                write!(f, "malformed variable reference {expr}: {why}")
            }
        }
    }
}

impl std::error::Error for ExpandError {}

impl olm_release_base::Classified for ExpandError {
    /// A variable must be set or a reference fixed: an input error.
    fn class(&self) -> olm_release_base::Class {
        olm_release_base::Class::Input
    }
}

impl ExpandError {
    /// The text of the failing reference, to find its line in the file.
    pub fn expr(&self) -> &str {
        match self {
            ExpandError::Unset { expr, .. } | ExpandError::Malformed { expr, .. } => expr,
        }
    }
}

/// Expands every `${…}` reference in `input`.
pub fn expand(input: &str, vars: &Vars) -> Result<String, ExpandError> {
    let mut out = String::with_capacity(input.len());
    let mut rest = input;
    while let Some(pos) = rest.find('$') {
        out.push_str(&rest[..pos]);
        let after = &rest[pos + 1..];
        if let Some(tail) = after.strip_prefix('$') {
            out.push('$');
            rest = tail;
        } else if after.starts_with('{') {
            let end = matching_brace(after).ok_or_else(|| ExpandError::Malformed {
                expr: format!("${}", after.chars().take(40).collect::<String>()),
                why: "no closing '}'",
            })?;
            let expr = &rest[pos..pos + 2 + end];
            let body = &after[1..end];
            out.push_str(&expand_one(body, expr, vars)?);
            rest = &after[end + 1..];
        } else {
            out.push('$');
            rest = after;
        }
    }
    out.push_str(rest);
    Ok(out)
}

/// Index in `s` (which starts with `{`) of the `}` that closes it, allowing nested `${…}`.
fn matching_brace(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

fn expand_one(body: &str, expr: &str, vars: &Vars) -> Result<String, ExpandError> {
    let name_len = body
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(body.len());
    let name = &body[..name_len];
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        return Err(ExpandError::Malformed {
            expr: expr.to_string(),
            why: "a variable name is letters, digits and '_'",
        });
    }
    let op = &body[name_len..];
    let value = vars.get(name);
    if op.is_empty() {
        return value.map(str::to_string).ok_or_else(|| ExpandError::Unset {
            name: name.to_string(),
            expr: expr.to_string(),
        });
    }
    if let Some(default) = op.strip_prefix(":-") {
        return match value {
            Some(v) if !v.is_empty() => Ok(v.to_string()),
            _ => expand(default, vars),
        };
    }
    if let Some(prefix) = op.strip_prefix('#') {
        let v = value.ok_or_else(|| ExpandError::Unset {
            name: name.to_string(),
            expr: expr.to_string(),
        })?;
        let prefix = expand(prefix, vars)?;
        return Ok(v.strip_prefix(prefix.as_str()).unwrap_or(v).to_string());
    }
    Err(ExpandError::Malformed {
        expr: expr.to_string(),
        why: "supported forms are ${VAR}, ${VAR:-default} and ${VAR#prefix}",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> Vars {
        Vars {
            overrides: BTreeMap::new(),
            env: pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    #[test]
    fn expands_all_forms() {
        let v = vars(&[("TAG", "v0.17.0"), ("EMPTY", "")]);
        assert_eq!(expand("${TAG#v}", &v).unwrap(), "0.17.0");
        assert_eq!(expand("x-${TAG}-y", &v).unwrap(), "x-v0.17.0-y");
        assert_eq!(expand("${NOPE:-0.1.0}", &v).unwrap(), "0.1.0");
        assert_eq!(expand("${EMPTY:-d}", &v).unwrap(), "d");
        assert_eq!(expand("${NOPE:-${TAG#v}}", &v).unwrap(), "0.17.0");
        assert_eq!(expand("$$HOME and $PATH", &v).unwrap(), "$HOME and $PATH");
        assert_eq!(expand("${TAG#x}", &v).unwrap(), "v0.17.0");
    }

    #[test]
    fn overrides_win_over_environment() {
        let mut v = vars(&[("VERSION", "1.0.0")]);
        v.overrides.insert("VERSION".into(), "2.0.0".into());
        assert_eq!(expand("${VERSION:-0.1.0}", &v).unwrap(), "2.0.0");
    }

    #[test]
    fn reports_unset_and_malformed() {
        let v = vars(&[]);
        assert_eq!(
            expand("a ${MISSING} b", &v).unwrap_err(),
            ExpandError::Unset {
                name: "MISSING".into(),
                expr: "${MISSING}".into()
            }
        );
        assert!(matches!(
            expand("${OPEN", &v),
            Err(ExpandError::Malformed { .. })
        ));
        assert!(matches!(
            expand("${1X}", &v),
            Err(ExpandError::Malformed { .. })
        ));
        assert!(matches!(
            expand("${X/y}", &v),
            Err(ExpandError::Malformed { .. })
        ));
        assert!(matches!(
            expand("${TAG#v}", &v),
            Err(ExpandError::Unset { .. })
        ));
    }
}
