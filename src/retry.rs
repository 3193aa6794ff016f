//! Retrying network calls: exponential backoff with jitter, bounded in attempts and total time.
//!
//! The caller classifies each failure: retry (optionally after a server-requested delay such as
//! `retry-after`) or fail at once. Clients use this for connection errors, timeouts, 5xx and 429,
//! never for other 4xx.

use std::time::{Duration, Instant};

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
    pub fn delay(&self, retry: u32) -> Duration {
        let exp = self
            .base_delay
            .saturating_mul(1u32 << retry.saturating_sub(1).min(16));
        let capped = exp.min(self.max_delay);
        let half = capped / 2;
        half + half.mul_f64(jitter())
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

/// A number in [0, 1) that differs between calls; good enough for spreading retries.
fn jitter() -> f64 {
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
