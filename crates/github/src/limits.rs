//! Rate limits and faults: whether a failed GitHub call is retried, and after how long.
//!
//! GitHub answers a limit with 403 or 429 (GitHub's REST docs, "Rate limits for the REST
//! API"): `retry-after` says how many seconds to wait; else `x-ratelimit-remaining: 0` with
//! `x-ratelimit-reset` (UTC epoch seconds) says until when; else a secondary limit (the message
//! names it) asks for at least a minute. 5xx and transport failures back off exponentially (the
//! [`RetryPolicy`](olm_release_http::retry::RetryPolicy) owns the loop; octocrab's own immediate retries
//! are compiled out). A 422 is never retried: it means the request itself is wrong or the
//! resource already exists, and a blind retry after a 502 would only turn a `starter` asset
//! into a 422.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use reqwest::header::HeaderMap;

use olm_release_http::retry::Verdict;

/// Classifies one failed call. `status` is `None` for transport failures (connection refused,
/// reset, timeout). `secondary_wait` is the wait for a secondary limit that names no delay.
pub(crate) fn verdict(
    status: Option<u16>,
    headers: Option<&HeaderMap>,
    message: &str,
    secondary_wait: Duration,
) -> Verdict {
    let Some(status) = status else {
        return Verdict::Retry(None);
    };
    let header = |name: &str| {
        headers
            .and_then(|h| h.get(name))
            .and_then(|v| v.to_str().ok())
            .map(str::trim)
    };
    let retry_after = header("retry-after")
        .and_then(|v| olm_release_http::retry::retry_after(v, std::time::SystemTime::now()));
    match status {
        422 => Verdict::Fail,
        403 | 429 => {
            if let Some(wait) = retry_after {
                return Verdict::Retry(Some(wait));
            }
            let exhausted = header("x-ratelimit-remaining") == Some("0");
            if let (true, Some(reset)) = (
                exhausted,
                header("x-ratelimit-reset").and_then(|v| v.parse::<u64>().ok()),
            ) {
                return Verdict::Retry(Some(until_epoch(reset)));
            }
            let lower = message.to_ascii_lowercase();
            if status == 429 || lower.contains("rate limit") || lower.contains("abuse") {
                Verdict::Retry(Some(secondary_wait))
            } else {
                // A plain 403: the token lacks permission. Retrying will not help.
                Verdict::Fail
            }
        }
        408 | 500..=599 => Verdict::Retry(retry_after),
        _ => Verdict::Fail,
    }
}

/// The wait until `reset` (epoch seconds), plus a second for clock skew.
fn until_epoch(reset: u64) -> Duration {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    Duration::from_secs(reset.saturating_sub(now) + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    const MIN: Duration = Duration::from_secs(60);

    #[test]
    fn never_retries_a_422_or_a_plain_403() {
        let h = headers(&[("retry-after", "1")]);
        assert_eq!(verdict(Some(422), Some(&h), "", MIN), Verdict::Fail);
        assert_eq!(
            verdict(
                Some(403),
                None,
                "Resource not accessible by integration",
                MIN
            ),
            Verdict::Fail
        );
        assert_eq!(verdict(Some(404), None, "Not Found", MIN), Verdict::Fail);
    }

    #[test]
    fn honours_retry_after_then_reset_then_the_secondary_minimum() {
        let h = headers(&[("retry-after", "7")]);
        assert_eq!(
            verdict(Some(403), Some(&h), "secondary rate limit", MIN),
            Verdict::Retry(Some(Duration::from_secs(7)))
        );
        let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
        let reset = (now.as_secs() + 30).to_string();
        let h = headers(&[
            ("x-ratelimit-remaining", "0"),
            ("x-ratelimit-reset", &reset),
        ]);
        match verdict(Some(429), Some(&h), "API rate limit exceeded", MIN) {
            Verdict::Retry(Some(d)) => assert!(d >= Duration::from_secs(29) && d <= MIN),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            verdict(
                Some(403),
                None,
                "You have exceeded a secondary rate limit",
                MIN
            ),
            Verdict::Retry(Some(MIN))
        );
    }

    #[test]
    fn backs_off_on_5xx_and_transport_failures() {
        assert_eq!(verdict(Some(502), None, "", MIN), Verdict::Retry(None));
        assert_eq!(verdict(None, None, "timed out", MIN), Verdict::Retry(None));
        let h = headers(&[("retry-after", "3")]);
        assert_eq!(
            verdict(Some(503), Some(&h), "", MIN),
            Verdict::Retry(Some(Duration::from_secs(3)))
        );
    }
}
