//! What can go wrong talking to an app registry, and how it reads to a user.
//!
//! Servers answer errors in two shapes: appr's bare
//! `{"code", "message", "details"}` and Quay's envelope `{"error": {…}}`, which is sometimes a
//! bare string (`{"error": "Cannot push an application to an image repository…"}`). Anything
//! else (an HTML error page from a proxy or a wrong base URL, plain text, invalid JSON) is
//! summarised without dumping it. Every message names the status, the server's code and text,
//! and the method and URL path; 401/403 add what to do about credentials. Messages are built
//! from the server's answer only, never from request headers, and the client redacts its
//! secrets from them once more before they leave (`Failure::redacted`).

use olm_release_http::answer::{describe_non_json, shorten};
use std::fmt;
use std::time::Duration;

/// A failed call.
#[derive(Debug)]
pub enum Failure {
    /// The server answered with an error status.
    Status(Box<ApiError>),
    /// No answer: connection refused or reset, timeout, truncated body.
    Transport {
        /// `METHOD /path` of the call.
        at: String,
        /// What happened.
        detail: String,
        /// Whether it was a timeout.
        timeout: bool,
    },
    /// An answer that is not what the API promises: HTML or invalid JSON on success, missing
    /// fields, an oversized body, a redirect.
    Invalid {
        /// `METHOD /path` of the call.
        at: String,
        /// What is wrong with the answer.
        detail: String,
    },
}

impl Failure {
    /// The status code of a [`Failure::Status`].
    pub(crate) fn status(&self) -> Option<u16> {
        match self {
            Failure::Status(e) => Some(e.status),
            _ => None,
        }
    }

    /// The server's error code (e.g. `package-not-found`).
    pub(crate) fn code(&self) -> Option<&str> {
        match self {
            Failure::Status(e) => e.code.as_deref(),
            _ => None,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Status(e) => e.fmt(f),
            Failure::Transport {
                at,
                detail,
                timeout,
            } => {
                if *timeout {
                    write!(f, "{at}: no answer in time ({detail})")
                } else {
                    write!(f, "{at}: {detail}")
                }
            }
            Failure::Invalid { at, detail } => write!(
                f,
                "{at}: the answer is not what the CNR API returns: {detail}"
            ),
        }
    }
}

impl std::error::Error for Failure {}

impl olm_release_base::Classified for Failure {
    /// The server refused or could not be reached: the stage fails.
    fn class(&self) -> olm_release_base::Class {
        olm_release_base::Class::Stage
    }
}

impl Failure {
    /// The same failure with every secret in `secrets` removed from what the server said.
    pub(crate) fn redacted(self, secrets: &[&str]) -> Failure {
        let r = |t: String| olm_release_base::secret::redact(&t, secrets);
        match self {
            Failure::Status(mut e) => {
                e.message = e.message.map(r);
                e.details = e.details.map(r);
                e.not_json = e.not_json.map(r);
                e.at = r(e.at);
                Failure::Status(e)
            }
            Failure::Transport {
                at,
                detail,
                timeout,
            } => Failure::Transport {
                at: r(at),
                detail: r(detail),
                timeout,
            },
            Failure::Invalid { at, detail } => Failure::Invalid {
                at: r(at),
                detail: r(detail),
            },
        }
    }
}

/// An error answer from the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// `METHOD /url/path`.
    pub(crate) at: String,
    /// The HTTP status.
    pub(crate) status: u16,
    /// The server's error code, e.g. `package-not-found`.
    pub(crate) code: Option<String>,
    /// The server's message.
    pub(crate) message: Option<String>,
    /// Compact JSON of `details`, shortened.
    pub(crate) details: Option<String>,
    /// A short description of a body that is not JSON (e.g. an HTML page's title).
    pub(crate) not_json: Option<String>,
    /// `Retry-After`, in seconds, when the server sent one.
    pub(crate) retry_after: Option<Duration>,
}

impl ApiError {
    /// Reads an error body in either shape.
    pub(crate) fn parse(
        at: String,
        status: u16,
        body: &[u8],
        retry_after: Option<Duration>,
    ) -> Self {
        let mut e = ApiError {
            at,
            status,
            code: None,
            message: None,
            details: None,
            not_json: None,
            retry_after,
        };
        let text = String::from_utf8_lossy(body);
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return e;
        }
        match serde_json::from_str::<serde_json::Value>(trimmed) {
            Ok(serde_json::Value::Object(mut top)) => {
                let inner = match top.remove("error") {
                    Some(serde_json::Value::Object(o)) => o,
                    Some(serde_json::Value::String(s)) => {
                        e.message = Some(shorten(&s, 300));
                        return e;
                    }
                    Some(other) => {
                        e.message = Some(shorten(&other.to_string(), 300));
                        return e;
                    }
                    None => top,
                };
                let s = |v: Option<&serde_json::Value>| {
                    v.and_then(|v| v.as_str()).map(|s| shorten(s, 300))
                };
                e.code = s(inner.get("code"));
                e.message = s(inner.get("message"));
                e.details = inner
                    .get("details")
                    .filter(|d| !d.is_null())
                    .map(|d| shorten(&d.to_string(), 300));
                if e.code.is_none() && e.message.is_none() {
                    e.message = Some(shorten(&serde_json::Value::Object(inner).to_string(), 300));
                }
            }
            Ok(other) => e.message = Some(shorten(&other.to_string(), 300)),
            Err(_) => e.not_json = Some(describe_non_json(trimmed)),
        }
        e
    }

    fn hint(&self) -> Option<&'static str> {
        match self.status {
            401 => Some(
                "the registry refused the credentials or needs some: set QUAY_TOKEN, or QUAY_USERNAME and QUAY_PASSWORD",
            ),
            403 => Some(
                "the credentials lack permission here (a robot account needs read and write on this repository, and create in the namespace)",
            ),
            429 => Some("rate limited"),
            _ => None,
        }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: HTTP {}", self.at, self.status)?;
        if let Some(code) = &self.code {
            write!(f, " {code}")?;
        }
        if let Some(m) = &self.message {
            write!(f, ": {m}")?;
        }
        if let Some(d) = &self.details {
            write!(f, " (details: {d})")?;
        }
        if let Some(n) = &self.not_json {
            write!(
                f,
                ": the server answered {n} instead of the CNR API's JSON; check that the registry URL is the API base (e.g. https://quay.io/cnr)"
            )?;
        }
        if let Some(h) = self.hint() {
            write!(f, "; {h}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(status: u16, body: &str) -> String {
        ApiError::parse(
            "POST /cnr/api/v1/packages/ns/pkg".into(),
            status,
            body.as_bytes(),
            None,
        )
        .to_string()
    }

    #[test]
    fn both_shapes_and_the_string_form() {
        let bare = r#"{"code": "package-exists", "details": {"release": "0.1.0"}, "message": "Package exists already"}"#;
        let quay = format!(r#"{{"error": {bare}}}"#);
        let want = r#"POST /cnr/api/v1/packages/ns/pkg: HTTP 409 package-exists: Package exists already (details: {"release":"0.1.0"})"#;
        assert_eq!(parse(409, bare), want);
        assert_eq!(parse(409, &quay), want);
        assert_eq!(
            parse(
                405,
                r#"{"error": "Cannot push an application to an image repository with the same name"}"#
            ),
            "POST /cnr/api/v1/packages/ns/pkg: HTTP 405: Cannot push an application to an image repository with the same name"
        );
    }

    #[test]
    fn html_text_and_empty_bodies() {
        let html = "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 3.2 Final//EN\">\n<title>404 Not Found</title>\n<h1>Not Found</h1>";
        let m = parse(404, html);
        assert!(
            m.contains("HTTP 404: the server answered an HTML page ('404 Not Found')"),
            "{m}"
        );
        assert!(m.contains("https://quay.io/cnr"), "{m}");
        assert!(
            parse(502, "Bad gateway\nupstream").contains("plain text ('Bad gateway upstream')")
        );
        assert_eq!(parse(500, ""), "POST /cnr/api/v1/packages/ns/pkg: HTTP 500");
        let auth = parse(
            401,
            r#"{"error": {"code": "unauthorized-access", "message": "Unauthorized"}}"#,
        );
        assert!(
            auth.contains("HTTP 401 unauthorized-access: Unauthorized; ")
                && auth.contains("QUAY_TOKEN")
        );
        assert!(parse(500, &"x".repeat(5000)).len() < 400);
    }
}
