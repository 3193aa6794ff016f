//! The template variables of the pipeline `init` writes: each variable the templates read gets
//! an environment variable and, where its name says what it holds, a default (image digests
//! empty, tags from the version, namespaces); the others must be set, and `init` lists them.
//! Also the YAML scalar quoting every file `init` writes uses.

use super::choices::Choices;
use super::found::Found;

/// Which job a value is for: a release (a tag) or an alpha build (the default branch).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Release,
    Alpha,
}

/// A template variable's value in the pipeline, and whether the user must set it.
pub(crate) struct VarValue {
    pub name: String,
    pub env: String,
    pub value: String,
    pub required: bool,
}

/// The `render.vars` entries: every template variable not filled from the CSV parts.
pub(crate) fn var_values(kind: Kind, found: &Found, c: &Choices) -> Vec<VarValue> {
    found
        .vars
        .keys()
        .filter(|v| !c.csv_vars.iter().any(|(k, _)| k == *v))
        .map(|name| {
            let env = env_name(name);
            let default = guess(name, kind, c);
            let value = match &default {
                Some(d) => format!("${{{env}:-{d}}}"),
                None => format!("${{{env}}}"),
            };
            VarValue {
                name: name.clone(),
                env,
                value,
                required: default.is_none(),
            }
        })
        .collect()
}

/// A default for a template variable, from what its name says it holds.
fn guess(name: &str, kind: Kind, c: &Choices) -> Option<String> {
    let lower = name.to_ascii_lowercase();
    if lower.ends_with("sha") || lower.contains("digest") {
        return Some(String::new()); // images by tag
    }
    if lower.ends_with("pullpolicy") {
        return Some("IfNotPresent".into());
    }
    if lower.ends_with("tag") {
        return Some(match kind {
            Kind::Release => "v${VERSION}".into(),
            Kind::Alpha => "latest".into(),
        });
    }
    if lower.contains("quay") || (lower.contains("registry") && lower.contains("namespace")) {
        return Some(format!("${{QUAY_NAMESPACE:-{}}}", c.namespace));
    }
    if lower.contains("registry") && (lower.contains("endpoint") || lower.contains("url")) {
        return Some("https://quay.io/cnr".into());
    }
    if lower.ends_with("namespace") {
        return Some(c.operator_namespace.clone());
    }
    None
}

/// `DockerPrefix` → `DOCKER_PREFIX`, `CSVNamespace` → `CSV_NAMESPACE`.
pub(crate) fn env_name(var: &str) -> String {
    let chars: Vec<char> = var.chars().collect();
    let mut out = String::new();
    for (i, &ch) in chars.iter().enumerate() {
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1);
        let boundary = ch.is_ascii_uppercase()
            && prev.is_some_and(|p| {
                p.is_ascii_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_ascii_uppercase() && next.is_some_and(|n| n.is_ascii_lowercase()))
            });
        if boundary {
            out.push('_');
        }
        out.push(ch.to_ascii_uppercase());
    }
    out
}

/// A YAML scalar, quoted when plain style would change its meaning.
pub(crate) fn yq(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./${}:*@+".contains(c))
        && !s.starts_with(['{', '*', '@', ':', '-'])
        && !s.contains(": ")
        && !s.ends_with(':')
        && s.parse::<f64>().is_err()
        && !matches!(
            s,
            "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "~"
        );
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_quotes() {
        assert_eq!(env_name("DockerPrefix"), "DOCKER_PREFIX");
        assert_eq!(env_name("CSVNamespace"), "CSV_NAMESPACE");
        assert_eq!(env_name("VirtOperatorSha"), "VIRT_OPERATOR_SHA");
        assert_eq!(yq("manifests/release/olm"), "manifests/release/olm");
        assert_eq!(yq("{csv}"), "'{csv}'");
        assert_eq!(yq(""), "''");
        assert_eq!(yq("1.0"), "'1.0'");
        assert_eq!(yq("${A:-}"), "${A:-}");
    }
}
