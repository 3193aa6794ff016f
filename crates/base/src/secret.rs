//! Secrets as a type.
//!
//! Tokens and passwords are read from the environment once (by the application) into [`Secret`],
//! whose `Debug` and `Display` print `****`. The value leaves the type only through
//! [`Secret::expose`], which the HTTP clients call when they build an `Authorization` header
//! (and mark that header sensitive). Nothing else may format a secret.

use std::fmt;

/// A value that must never be printed.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a value read from the environment.
    pub fn new(value: impl Into<String>) -> Self {
        Secret(value.into())
    }

    /// The raw value, for building a request header. Never log what this returns.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(****)")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("****")
    }
}

/// Removes every secret from a message built from a server's answer (which may echo the
/// request): whole values, the part after a scheme word (`basic …`, `Bearer …`), and a value
/// cut short where a quote was shortened (it then ends with `…`), each in every encoding a
/// server may echo it in ([`encodings`]). Parts under 4 characters are left alone.
pub fn redact(text: &str, secrets: &[&str]) -> String {
    let mut out = text.to_string();
    for s in secrets {
        let payload = s.split_once(' ').map(|(_, v)| v).unwrap_or(s);
        for raw in [*s, payload] {
            for part in encodings(raw) {
                let chars: Vec<char> = part.chars().collect();
                if chars.len() < 4 {
                    continue;
                }
                out = out.replace(&part, "****");
                if out.contains('…') {
                    for k in (4..chars.len()).rev() {
                        let head: String = chars[..k].iter().collect();
                        out = out.replace(&format!("{head}…"), "****…");
                    }
                }
            }
        }
    }
    out
}

/// The forms a secret takes on the wire and in echoes: as is; JSON-escaped (`"` and `\`
/// escaped, and `/` as `\/` as some servers write it); URL-encoded (upper- and lower-case
/// hex, and `+` for a space as in forms); and base64 (standard, URL-safe, unpadded), which is
/// how `user:password` travels as Basic auth. Longest first, so no form is cut by a shorter one.
pub(crate) fn encodings(secret: &str) -> Vec<String> {
    use base64::Engine as _;
    use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
    let json = serde_json::to_string(secret).unwrap_or_default();
    let json = json[1..json.len().saturating_sub(1).max(1)].to_string();
    let upper = percent(secret);
    let mut all = vec![
        secret.to_string(),
        json.replace('/', "\\/"),
        json,
        upper.replace("%20", "+"),
        lower_hex(&upper),
        upper,
        STANDARD.encode(secret),
        STANDARD_NO_PAD.encode(secret),
        URL_SAFE.encode(secret),
        URL_SAFE_NO_PAD.encode(secret),
    ];
    all.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    all.dedup();
    all
}

/// Percent-encodes every byte but RFC 3986's unreserved ones.
fn percent(s: &str) -> String {
    let mut out = String::with_capacity(s.len() * 3);
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `%2F` → `%2f`, the rest unchanged.
fn lower_hex(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('%') {
        out.push_str(&rest[..i]);
        let esc = rest.get(i..i + 3).unwrap_or(&rest[i..]);
        out.push_str(&esc.to_ascii_lowercase());
        rest = &rest[i + esc.len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redacts_whole_payload_and_cut_values() {
        let secrets = ["basic c2VrcmV0LXRva2Vu", "hunter22"];
        assert_eq!(
            redact(
                "a basic c2VrcmV0LXRva2Vu b c2VrcmV0LXRva2Vu c hunter22 d c2VrcmV0…",
                &secrets
            ),
            "a **** b **** c **** d ****…"
        );
        assert_eq!(redact("nothing here", &secrets), "nothing here");
    }

    #[test]
    fn redacts_every_encoding_of_a_secret() {
        use base64::Engine as _;
        let password = r#"pa"ss\w/rd 100%"#;
        let login = format!("robot:{password}");
        let b64 = base64::engine::general_purpose::STANDARD.encode(&login);
        let echoes = [
            password.to_string(),
            serde_json::to_string(password).unwrap(),
            serde_json::to_string(password).unwrap().replace('/', "\\/"),
            "pa%22ss%5Cw%2Frd%20100%25".into(),
            "pa%22ss%5cw%2frd%20100%25".into(),
            "pa%22ss%5Cw%2Frd+100%25".into(),
            format!("Authorization: Basic {b64}"),
        ];
        for echo in echoes {
            let out = redact(&format!("server said: {echo} (end)"), &[password, &login]);
            assert!(out.contains("****"), "{echo} → {out}");
            for leak in ["ss\\w", "pa%22", &b64, "100%25", "pa\\\"ss"] {
                assert!(!out.contains(leak), "{echo} → {out}");
            }
        }
    }

    #[test]
    fn never_formats_the_value() {
        let s = Secret::new("hunter2");
        assert_eq!(format!("{s} {s:?}"), "**** Secret(****)");
        assert_eq!(s.expose(), "hunter2");
    }
}
