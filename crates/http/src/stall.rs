//! The stall timeout: a transfer that makes no progress for [`STALL`](super::STALL) fails,
//! however long it may take in all.
//!
//! Downloads are covered by reqwest's read timeout (set in [`super::client`]): it bounds the
//! wait for the answer's headers, and then restarts after every read of the body that returns
//! data. An upload is not: that timeout runs from the start of the request, so it would cut a
//! large upload still sending, and while the server does not read, nothing is read either. [`Progress`] is a clock that the body of an
//! upload ([`upload_body`]) restarts each time the connection takes a chunk, and [`guard`] fails
//! the request when that clock passes the limit.

use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use tokio::time::Instant;

/// Chunks of an upload body: small enough that progress is seen often.
const CHUNK: usize = 64 * 1024;

/// When a transfer last moved.
#[derive(Debug, Clone)]
pub struct Progress(Arc<Mutex<Instant>>);

impl Default for Progress {
    fn default() -> Self {
        Progress(Arc::new(Mutex::new(Instant::now())))
    }
}

impl Progress {
    /// A transfer that moved just now.
    pub fn new() -> Self {
        Self::default()
    }

    fn touch(&self) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }

    fn last(&self) -> Instant {
        *self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A request body that reports each chunk the connection takes to `progress`.
pub fn upload_body(bytes: Bytes, progress: Progress) -> reqwest::Body {
    reqwest::Body::wrap(Chunks {
        rest: bytes,
        progress,
    })
}

struct Chunks {
    rest: Bytes,
    progress: Progress,
}

impl http_body::Body for Chunks {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
        self.progress.touch();
        if self.rest.is_empty() {
            return Poll::Ready(None);
        }
        let n = self.rest.len().min(CHUNK);
        let chunk = self.rest.split_to(n);
        Poll::Ready(Some(Ok(http_body::Frame::data(chunk))))
    }

    fn is_end_stream(&self) -> bool {
        self.rest.is_empty()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        http_body::SizeHint::with_exact(self.rest.len() as u64)
    }
}

/// Runs `fut`, failing with `Err(limit)` once `progress` has not moved for `limit`.
pub async fn guard<T>(
    fut: impl Future<Output = T>,
    progress: &Progress,
    limit: Duration,
) -> Result<T, Duration> {
    let watch = async {
        loop {
            let deadline = progress.last() + limit;
            if Instant::now() >= deadline {
                return;
            }
            tokio::time::sleep_until(deadline).await;
        }
    };
    tokio::select! {
        v = fut => Ok(v),
        () = watch => Err(limit),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On a paused clock: a transfer that keeps moving is never cut, however long it takes;
    /// one that stops fails exactly one limit after its last progress.
    #[tokio::test(flavor = "current_thread", start_paused = true)]
    async fn fails_after_the_limit_without_progress_only() {
        let limit = Duration::from_secs(60);
        let p = Progress::new();
        let moving = {
            let p = p.clone();
            async move {
                for _ in 0..10 {
                    tokio::time::sleep(Duration::from_secs(50)).await;
                    p.touch();
                }
                "done"
            }
        };
        let started = Instant::now();
        assert_eq!(guard(moving, &p, limit).await, Ok("done"));
        assert_eq!(started.elapsed(), Duration::from_secs(500));

        let p = Progress::new();
        let stuck = {
            let p = p.clone();
            async move {
                tokio::time::sleep(Duration::from_secs(30)).await;
                p.touch();
                std::future::pending::<()>().await
            }
        };
        let started = Instant::now();
        assert_eq!(guard(stuck, &p, limit).await, Err(limit));
        assert_eq!(started.elapsed(), Duration::from_secs(90));
    }
}
