//! Secrets as a type.
//!
//! Tokens and passwords are read from the environment once (in `settings`) into [`Secret`],
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
/// cut short where a quote was shortened (it then ends with `…`). Parts under 4 characters are
/// left alone.
pub(crate) fn redact(text: &str, secrets: &[&str]) -> String {
    let mut out = text.to_string();
    for s in secrets {
        let payload = s.split_once(' ').map(|(_, v)| v).unwrap_or(s);
        for part in [*s, payload] {
            let chars: Vec<char> = part.chars().collect();
            if chars.len() < 4 {
                continue;
            }
            out = out.replace(part, "****");
            if out.contains('…') {
                for k in (4..chars.len()).rev() {
                    let head: String = chars[..k].iter().collect();
                    out = out.replace(&format!("{head}…"), "****…");
                }
            }
        }
    }
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
    fn never_formats_the_value() {
        let s = Secret::new("hunter2");
        assert_eq!(format!("{s} {s:?}"), "**** Secret(****)");
        assert_eq!(s.expose(), "hunter2");
    }
}
