//! The names OLM v1 gives the objects it generates. A Role or ClusterRole made from a CSV
//! permission is named `<csv>-<serviceAccount>` cut short and followed by a hash of the
//! permission: SHA-224 of the permission's JSON as Go's `encoding/json` writes it (struct fields
//! in declaration order, `omitempty` fields left out, HTML characters escaped, a closing
//! newline), printed in base 36 (operator-controller's `internal/shared/util/hash`). Names are
//! cut to Kubernetes' 63 characters before the suffix (`rukpak/util.ObjectNameForBaseAndSuffix`);
//! the webhook Service and its certificate follow OLM v0's `<deployment>-service` and
//! `<service>-cert` (`rukpak/render/certprovider.go`).

use serde_yaml_ng::Value;
use sha2::{Digest, Sha224};

/// The longest object name the names here make.
const MAX_NAME: usize = 63;

/// `base-suffix`, the base cut so that the whole fits 63 characters.
pub(crate) fn with_suffix(base: &str, suffix: &str) -> String {
    let mut base = base;
    if base.len() + suffix.len() > MAX_NAME {
        let keep = MAX_NAME.saturating_sub(suffix.len() + 1);
        // Names are ASCII in practice; never cut inside a character.
        let mut cut = keep.min(base.len());
        while !base.is_char_boundary(cut) {
            cut -= 1;
        }
        base = &base[..cut];
    }
    format!("{base}-{suffix}")
}

/// The name of the Service in front of a deployment's webhooks.
pub(crate) fn webhook_service(deployment: &str) -> String {
    with_suffix(&deployment.replace('.', "-"), "service")
}

/// The name of the certificate (and its Secret) for a deployment's webhooks.
pub(crate) fn webhook_cert(deployment: &str) -> String {
    with_suffix(&webhook_service(deployment), "cert")
}

/// The generated name of the Role or ClusterRole for one CSV permission (`permission` as the
/// CSV holds it, with the namespaces rule already added where OLM adds one).
pub(crate) fn permission_role(csv: &str, account: &str, permission: &Value) -> String {
    with_suffix(
        &format!("{csv}-{account}"),
        &hash(&permission_json(permission)),
    )
}

/// base36(SHA-224(json)).
fn hash(json: &str) -> String {
    let digest = Sha224::digest(json.as_bytes());
    base36(&digest)
}

/// A big-endian unsigned number in base 36, lowercase, without leading zeros ("0" for zero).
fn base36(bytes: &[u8]) -> String {
    let mut n: Vec<u8> = bytes.to_vec();
    let mut digits = Vec::new();
    while n.iter().any(|&b| b != 0) {
        let mut rem: u32 = 0;
        for b in n.iter_mut() {
            let cur = (rem << 8) | u32::from(*b);
            *b = (cur / 36) as u8;
            rem = cur % 36;
        }
        digits.push(b"0123456789abcdefghijklmnopqrstuvwxyz"[rem as usize]);
    }
    if digits.is_empty() {
        digits.push(b'0');
    }
    digits.reverse();
    String::from_utf8(digits).expect("ASCII digits")
}

/// `StrategyDeploymentPermissions` as Go encodes it:
/// `{"serviceAccountName":…,"rules":[{"verbs":…,"apiGroups":…,…}]}` and a newline.
fn permission_json(permission: &Value) -> String {
    let mut out = String::from("{\"serviceAccountName\":");
    let account = permission
        .get("serviceAccountName")
        .and_then(scalar)
        .unwrap_or_default();
    go_string(&account, &mut out);
    out.push_str(",\"rules\":");
    match permission.get("rules").and_then(Value::as_sequence) {
        None => out.push_str("null"),
        Some(rules) => {
            out.push('[');
            for (i, rule) in rules.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                rule_json(rule, &mut out);
            }
            out.push(']');
        }
    }
    out.push_str("}\n");
    out
}

/// One rbac/v1 `PolicyRule`: `verbs` always (null when absent), the rest only when not empty.
fn rule_json(rule: &Value, out: &mut String) {
    out.push_str("{\"verbs\":");
    match strings(rule.get("verbs")) {
        None => out.push_str("null"),
        Some(v) => list_json(&v, out),
    }
    for key in ["apiGroups", "resources", "resourceNames", "nonResourceURLs"] {
        if let Some(v) = strings(rule.get(key)).filter(|v| !v.is_empty()) {
            out.push_str(&format!(",\"{key}\":"));
            list_json(&v, out);
        }
    }
    out.push('}');
}

fn list_json(items: &[String], out: &mut String) {
    out.push('[');
    for (i, s) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        go_string(s, out);
    }
    out.push(']');
}

/// A list of strings (`None`: absent or null, as Go's nil slice).
pub(crate) fn strings(v: Option<&Value>) -> Option<Vec<String>> {
    v.and_then(Value::as_sequence)
        .map(|s| s.iter().map(|x| scalar(x).unwrap_or_default()).collect())
}

/// A scalar as the string Go would decode it into.
pub(crate) fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A JSON string as Go's encoder writes it: `<`, `>`, `&`, U+2028 and U+2029 escaped too.
fn go_string(s: &str, out: &mut String) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base36_of_small_numbers() {
        assert_eq!(base36(&[0]), "0");
        assert_eq!(base36(&[35]), "z");
        assert_eq!(base36(&[1, 0]), "74");
    }

    #[test]
    fn long_bases_are_cut_before_the_suffix() {
        let name = with_suffix(&"a".repeat(70), "service");
        assert_eq!(name.len(), 63);
        assert!(name.ends_with("a-service"));
        assert_eq!(with_suffix("short", "cert"), "short-cert");
    }

    #[test]
    fn go_escapes_html() {
        let mut out = String::new();
        go_string("a<b>&\"", &mut out);
        assert_eq!(out, "\"a\\u003cb\\u003e\\u0026\\\"\"");
    }
}
