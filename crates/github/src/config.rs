//! How the GitHub target behaves: retries, concurrency, timeouts, and where uploads go.
//!
//! The knobs come from the pipeline's `release.options` (parsed and checked by the application),
//! with defaults that follow GitHub's "Best practices for using the REST API": uploads three
//! at a time (no concurrent flood), exponential backoff from one second, a minute's wait for a
//! secondary rate limit that names no delay. The upload root is derived from the API base:
//! `https://uploads.github.com` for `https://api.github.com`, `https://HOST/api/uploads` for a
//! GitHub Enterprise base `https://HOST/api/v3` (not under `/api/v3`, which octocrab gets
//! wrong), and the API base itself otherwise. The token is only ever sent to the API base and
//! that root.

use std::time::Duration;

use olm_release_http::retry::RetryPolicy;

/// Resolved behaviour of the GitHub target.
#[derive(Debug, Clone)]
pub struct Config {
    /// How calls and uploads are retried: attempts, backoff, and the total time allowed.
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

impl Config {
    /// The total time one upload attempt may take: the configured cap, but never more than
    /// the retry budget (a longer attempt would outlive every retry). A stalled upload fails
    /// sooner, after [`olm_release_http::STALL`] without progress.
    pub(crate) fn upload_attempt_timeout(&self) -> Duration {
        self.upload_timeout
            .min(self.retry.max_total)
            .max(Duration::from_secs(1))
    }
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

/// The upload root for an API base (no trailing slash).
pub(crate) fn upload_root(api: &str) -> String {
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
pub(crate) fn encode(s: &str) -> String {
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
    fn an_upload_attempt_never_outlives_the_retry_budget() {
        let c = Config::default();
        assert_eq!(c.upload_timeout, Duration::from_secs(600));
        assert_eq!(c.upload_attempt_timeout(), Duration::from_secs(300));
    }

    #[test]
    fn encodes_names_and_tags() {
        assert_eq!(encode("a b/c?.yaml"), "a%20b%2Fc%3F.yaml");
        assert_eq!(encode("v0.1.0-rc.1"), "v0.1.0-rc.1");
    }
}
