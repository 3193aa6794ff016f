//! Retrying network calls: exponential backoff with jitter, bounded in attempts and total time.
//!
//! The caller classifies each failure: retry (optionally after a server-requested delay such as
//! `retry-after`) or fail at once. Clients use this for connection errors, timeouts, 5xx and 429,
//! never for other 4xx.
//!
//! The clock and the waits are tokio's (`tokio::time::Instant`, `tokio::time::sleep`), so tests
//! run the real loop on a paused clock (`#[tokio::test(start_paused = true)]`): a minute of
//! backoff takes no time and every wait can be asserted exactly.

use std::time::Duration;

use tokio::time::Instant;

/// How often and how long to retry.
#[derive(Debug, Clone, Copy)]
pub struct RetryPolicy {
    /// Attempts in all, the first included.
    pub max_attempts: u32,
    /// Delay before the first retry; doubled each time.
    pub base_delay: Duration,
    /// Cap on one delay.
    pub max_delay: Duration,
    /// Cap on the time spent, waits included; no retry starts past it.
    pub max_total: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 5,
            base_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(30),
            max_total: Duration::from_secs(120),
        }
    }
}

/// What to do after a failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Try again; `Some(d)` when the server said how long to wait.
    Retry(Option<Duration>),
    /// Give up now.
    Fail,
}

impl RetryPolicy {
    /// The delay before retry number `retry` (1-based), with full jitter in [d/2, d].
    pub(crate) fn delay(&self, retry: u32) -> Duration {
        let exp = self
            .base_delay
            .saturating_mul(1u32 << retry.saturating_sub(1).min(16));
        let capped = exp.min(self.max_delay);
        let half = capped / 2;
        half + half.mul_f64(jitter())
    }

    /// As [`run`](Self::run), but the attempts count against `max_total` too: an attempt still
    /// running when the budget is spent is dropped, and the error is `expired(last)` (`last`:
    /// the previous attempt's error, if any). So a server that hangs holds the caller
    /// `max_total` at most, not `max_total` plus a last attempt's timeout.
    pub async fn run_bounded<T, E, F, Fut>(
        &self,
        op: F,
        classify: impl Fn(&E) -> Verdict,
        mut on_retry: impl FnMut(u32, Duration, &E),
        expired: impl FnOnce(Option<String>) -> E,
    ) -> Result<T, E>
    where
        F: FnMut() -> Fut,
        Fut: std::future::Future<Output = Result<T, E>>,
        E: std::fmt::Display,
    {
        // A mutex, not a cell, so the future stays `Send` for callers on a multi-threaded
        // runtime; it is never contended (one attempt at a time).
        let last = std::sync::Mutex::new(None);
        let run = self.run(op, classify, |n, wait, e| {
            if let Ok(mut l) = last.lock() {
                *l = Some(e.to_string());
            }
            on_retry(n, wait, e);
        });
        match tokio::time::timeout(self.max_total, run).await {
            Ok(r) => r,
            Err(_) => Err(expired(last.lock().ok().and_then(|mut l| l.take()))),
        }
    }

    /// Runs `op` until it succeeds, `classify` says fail, or the policy's bounds are reached.
    /// `on_retry` is told each retry (attempt number, the wait) so the caller can report it.
    pub async fn run<T, E, F, Fut>(
        &self,
        mut op: F,
        classify: impl Fn(&E) -> Verdict,
        mut on_retry: impl FnMut(u32, Duration, &E),
    ) -> Result<T, E>
    where
        F: FnMut() -> Fut,
        Fut: std::future::Future<Output = Result<T, E>>,
    {
        let started = Instant::now();
        let mut attempt = 1;
        loop {
            let err = match op().await {
                Ok(v) => return Ok(v),
                Err(e) => e,
            };
            let wait = match classify(&err) {
                Verdict::Fail => return Err(err),
                Verdict::Retry(asked) => asked.unwrap_or_else(|| self.delay(attempt)),
            };
            if attempt >= self.max_attempts || started.elapsed() + wait > self.max_total {
                return Err(err);
            }
            on_retry(attempt, wait, &err);
            tokio::time::sleep(wait).await;
            attempt += 1;
        }
    }
}

/// The wait a `Retry-After` header asks for: a number of seconds, or an HTTP-date
/// (`Sun, 06 Nov 1994 08:49:37 GMT`) measured from `now`. A date in the past means "now";
/// anything unreadable is ignored (the caller's backoff applies).
pub fn retry_after(value: &str, now: std::time::SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let at = http_date(value)?;
    let now = now.duration_since(std::time::UNIX_EPOCH).ok()?.as_secs();
    Some(Duration::from_secs(at.saturating_sub(now)))
}

/// Seconds since the epoch of an IMF-fixdate (RFC 9110 §5.6.7), the form servers send.
fn http_date(s: &str) -> Option<u64> {
    // "Sun, 06 Nov 1994 08:49:37 GMT"
    let rest = s.split_once(", ")?.1;
    let mut parts = rest.split(' ');
    let day: u64 = parts.next()?.parse().ok()?;
    let month = match parts.next()? {
        "Jan" => 1,
        "Feb" => 2,
        "Mar" => 3,
        "Apr" => 4,
        "May" => 5,
        "Jun" => 6,
        "Jul" => 7,
        "Aug" => 8,
        "Sep" => 9,
        "Oct" => 10,
        "Nov" => 11,
        "Dec" => 12,
        _ => return None,
    };
    let year: i64 = parts.next()?.parse().ok()?;
    let mut hms = parts.next()?.split(':').map(|p| p.parse::<u64>().ok());
    let (h, m, sec) = (hms.next()??, hms.next()??, hms.next()??);
    if parts.next()? != "GMT" || !(1..=31).contains(&day) || h > 23 || m > 59 || sec > 60 {
        return None;
    }
    // Days from the civil date (Howard Hinnant's algorithm).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    u64::try_from(days)
        .ok()
        .map(|d| d * 86_400 + h * 3600 + m * 60 + sec)
}

/// A number in [0, 1) that differs between calls; good enough for spreading retries.
pub fn jitter() -> f64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static STATE: AtomicU64 = AtomicU64::new(0);
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1);
    let mut x = STATE.fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed) ^ seed;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    (x >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    fn fast(max_attempts: u32) -> RetryPolicy {
        RetryPolicy {
            max_attempts,
            base_delay: Duration::from_millis(1),
            max_delay: Duration::from_millis(4),
            max_total: Duration::from_secs(5),
        }
    }

    #[tokio::test]
    async fn retries_until_success_and_stops_at_the_bound() {
        let calls = Cell::new(0);
        let ok: Result<u32, &str> = fast(5)
            .run(
                || {
                    calls.set(calls.get() + 1);
                    let n = calls.get();
                    async move { if n < 3 { Err("503") } else { Ok(n) } }
                },
                |_| Verdict::Retry(None),
                |_, _, _| {},
            )
            .await;
        assert_eq!(ok, Ok(3));
        calls.set(0);
        let err: Result<u32, &str> = fast(4)
            .run(
                || {
                    calls.set(calls.get() + 1);
                    async { Err("503") }
                },
                |_| Verdict::Retry(None),
                |_, _, _| {},
            )
            .await;
        assert_eq!((err, calls.get()), (Err("503"), 4));
    }

    #[tokio::test]
    async fn never_retries_what_the_classifier_fails() {
        let calls = Cell::new(0);
        let err: Result<(), &str> = fast(5)
            .run(
                || {
                    calls.set(calls.get() + 1);
                    async { Err("422") }
                },
                |_| Verdict::Fail,
                |_, _, _| {},
            )
            .await;
        assert_eq!((err, calls.get()), (Err("422"), 1));
    }

    /// On a paused clock: a server that never answers holds the bounded loop exactly
    /// `max_total`, though one attempt alone could take longer; the error names the last
    /// attempt's.
    #[tokio::test(flavor = "current_thread", start_paused = true)]
    async fn a_hanging_attempt_ends_with_the_budget() {
        let policy = RetryPolicy {
            max_attempts: 6,
            base_delay: Duration::from_secs(1),
            max_delay: Duration::from_secs(60),
            max_total: Duration::from_secs(300),
        };
        let started = Instant::now();
        let calls = Cell::new(0);
        let r: Result<(), String> = policy
            .run_bounded(
                || {
                    calls.set(calls.get() + 1);
                    async {
                        // An attempt's own timeout: 60 s without an answer.
                        tokio::time::sleep(Duration::from_secs(60)).await;
                        Err("no answer within 60s".to_string())
                    }
                },
                |_| Verdict::Retry(None),
                |_, _, _| {},
                |last| format!("budget spent; last: {}", last.unwrap_or_default()),
            )
            .await;
        assert_eq!(started.elapsed(), Duration::from_secs(300));
        assert_eq!(
            r,
            Err("budget spent; last: no answer within 60s".to_string())
        );
        assert!(calls.get() >= 4, "{}", calls.get());
        // The unbounded loop starts a last attempt within the budget and waits for it.
        let started = Instant::now();
        let _ = policy
            .run(
                || async {
                    tokio::time::sleep(Duration::from_secs(60)).await;
                    Err::<(), _>("no answer")
                },
                |_| Verdict::Retry(None),
                |_, _, _| {},
            )
            .await;
        assert!(
            started.elapsed() > Duration::from_secs(300),
            "{:?}",
            started.elapsed()
        );
    }

    /// On a paused clock: the waits the server asks for are honoured exactly, and no retry
    /// starts past the bound on the total time.
    #[tokio::test(flavor = "current_thread", start_paused = true)]
    async fn waits_as_asked_and_stops_at_the_time_bound() {
        let policy = RetryPolicy {
            max_attempts: 10,
            base_delay: Duration::from_secs(1),
            max_delay: Duration::from_secs(8),
            max_total: Duration::from_secs(100),
        };
        let started = Instant::now();
        let waits = std::cell::RefCell::new(Vec::new());
        let calls = Cell::new(0);
        let r: Result<(), &str> = policy
            .run(
                || {
                    calls.set(calls.get() + 1);
                    async { Err("429") }
                },
                |_| Verdict::Retry(Some(Duration::from_secs(30))),
                |_, wait, _| waits.borrow_mut().push(wait),
            )
            .await;
        assert_eq!(r, Err("429"));
        // 30 + 30 + 30 = 90 s; a fourth wait would end past 100 s, so it is not started.
        assert_eq!(*waits.borrow(), vec![Duration::from_secs(30); 3]);
        assert_eq!(calls.get(), 4);
        assert_eq!(started.elapsed(), Duration::from_secs(90));
    }

    #[test]
    fn retry_after_reads_seconds_and_http_dates() {
        let now = std::time::UNIX_EPOCH + Duration::from_secs(784_111_767); // 06 Nov 1994 08:49:27
        assert_eq!(retry_after("120", now), Some(Duration::from_secs(120)));
        assert_eq!(
            retry_after("Sun, 06 Nov 1994 08:49:37 GMT", now),
            Some(Duration::from_secs(10))
        );
        assert_eq!(
            retry_after("Sat, 05 Nov 1994 08:49:37 GMT", now),
            Some(Duration::ZERO)
        );
        assert_eq!(http_date("Thu, 01 Jan 1970 00:00:00 GMT"), Some(0));
        assert_eq!(
            http_date("Tue, 29 Feb 2028 12:00:00 GMT"),
            Some(1_835_438_400)
        );
        for bad in [
            "soon",
            "",
            "-1",
            "Sun, 06 Nov 1994 08:49:37 PST",
            "Sun, 32 Nov 1994 08:49:37 GMT",
        ] {
            assert_eq!(retry_after(bad, now), None, "{bad}");
        }
    }

    #[test]
    fn delays_grow_and_are_capped() {
        let p = RetryPolicy {
            base_delay: Duration::from_millis(100),
            max_delay: Duration::from_millis(800),
            ..Default::default()
        };
        for retry in 1..10 {
            let d = p.delay(retry);
            let full =
                Duration::from_millis(100 * (1 << (retry - 1))).min(Duration::from_millis(800));
            assert!(
                d >= full / 2 && d <= full,
                "retry {retry}: {d:?} vs {full:?}"
            );
        }
    }
}
