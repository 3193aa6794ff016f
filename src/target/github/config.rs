//! How the GitHub target behaves: retries, concurrency, timeouts, and where uploads go.
//!
//! The knobs come from the pipeline's `release.options` (strings, checked here; an unknown key
//! is an input error), with defaults that follow GitHub's guidance (§7.4): uploads three at a
//! time, exponential backoff from one second, a minute's wait for a secondary limit that names
//! no delay. The upload root is derived from the API base: `https://uploads.github.com` for
//! `https://api.github.com`, `https://HOST/api/uploads` for a GitHub Enterprise base
//! `https://HOST/api/v3` (§7.6; not under `/api/v3`, which octocrab gets wrong, §7.7 item 6),
//! and the API base itself otherwise. The token is only ever sent to the API base and that root.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::error::{Error, Result};
use crate::retry::RetryPolicy;

/// Resolved behaviour of the GitHub target.
#[derive(Debug, Clone)]
pub struct Config {
    pub retry: RetryPolicy,
    /// Uploads in flight at once.
    pub concurrency: usize,
    /// Wait for a secondary rate limit that gives neither `retry-after` nor a reset time.
    pub secondary_wait: Duration,
    /// Cap on one JSON call.
    pub timeout: Duration,
    /// Cap on one upload.
    pub upload_timeout: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            retry: RetryPolicy {
                max_attempts: 6,
                base_delay: Duration::from_secs(1),
                max_delay: Duration::from_secs(60),
                max_total: Duration::from_secs(300),
            },
            concurrency: 3,
            secondary_wait: Duration::from_secs(60),
            timeout: Duration::from_secs(60),
            upload_timeout: Duration::from_secs(600),
        }
    }
}

const KEYS: &str = "retries, retry_delay_ms, retry_max_seconds, concurrency, rate_limit_wait_seconds, timeout_seconds, upload_timeout_seconds";

impl Config {
    /// Reads `release.options`.
    pub fn from_options(options: &BTreeMap<String, String>) -> Result<Config> {
        let mut c = Config::default();
        for (key, value) in options {
            let n: u64 = value.trim().parse().map_err(|_| {
                Error::input(format!(
                    "release.options.{key}: '{value}' is not a whole number"
                ))
            })?;
            match key.as_str() {
                "retries" => c.retry.max_attempts = n.clamp(1, 20) as u32,
                "retry_delay_ms" => {
                    c.retry.base_delay = Duration::from_millis(n);
                    c.retry.max_delay = c.retry.max_delay.max(c.retry.base_delay);
                }
                "retry_max_seconds" => c.retry.max_total = Duration::from_secs(n),
                "concurrency" => c.concurrency = n.clamp(1, 10) as usize,
                "rate_limit_wait_seconds" => c.secondary_wait = Duration::from_secs(n),
                "timeout_seconds" => c.timeout = Duration::from_secs(n.max(1)),
                "upload_timeout_seconds" => c.upload_timeout = Duration::from_secs(n.max(1)),
                _ => {
                    return Err(Error::input(format!(
                        "release.options.{key}: unknown option for a github: target (known: {KEYS})"
                    )));
                }
            }
        }
        Ok(c)
    }
}

/// The upload root for an API base (no trailing slash).
pub fn upload_root(api: &str) -> String {
    let api = api.trim_end_matches('/');
    if api == "https://api.github.com" {
        return "https://uploads.github.com".into();
    }
    match api.strip_suffix("/api/v3") {
        Some(host) => format!("{host}/api/uploads"),
        None => api.to_string(),
    }
}

/// Percent-encodes one path segment or query value (RFC 3986 unreserved characters pass).
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upload_roots_for_github_com_ghes_and_plain_bases() {
        assert_eq!(
            upload_root("https://api.github.com"),
            "https://uploads.github.com"
        );
        assert_eq!(
            upload_root("https://ghe.example.com/api/v3/"),
            "https://ghe.example.com/api/uploads"
        );
        assert_eq!(
            upload_root("http://127.0.0.1:4020"),
            "http://127.0.0.1:4020"
        );
    }

    #[test]
    fn options_are_checked() {
        let opts: BTreeMap<String, String> = [("concurrency".to_string(), "2".to_string())].into();
        assert_eq!(Config::from_options(&opts).unwrap().concurrency, 2);
        let bad: BTreeMap<String, String> = [("retires".to_string(), "2".to_string())].into();
        let e = Config::from_options(&bad).unwrap_err();
        assert!(e.message.contains("release.options.retires"), "{e}");
        let nan: BTreeMap<String, String> = [("retries".to_string(), "x".to_string())].into();
        assert!(Config::from_options(&nan).is_err());
    }

    #[test]
    fn encodes_names_and_tags() {
        assert_eq!(encode("a b/c?.yaml"), "a%20b%2Fc%3F.yaml");
        assert_eq!(encode("v0.1.0-rc.1"), "v0.1.0-rc.1");
    }
}
