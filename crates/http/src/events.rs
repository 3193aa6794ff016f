//! What clients tell the program while they work, and how they ask before they write.
//!
//! The registry clients and the release targets are plain libraries: they take typed requests
//! and never see the run's context, the reporter or `--dry-run`. Two small traits connect them
//! to the program, both implemented above them and handed down:
//!
//! - [`Events`], the progress sink: a retry that is about to wait (a backoff or a server's
//!   `Retry-After` / rate-limit reset), a transfer in flight (download, push, upload), and a
//!   client's own progress, detail and warning lines. Both HTTP clients (app registry and GitHub) report through it
//!   as things happen, so every command shows every retry, once. The reporter implements it.
//! - [`Gate`], the dry-run choke point: every write a client would make (a registry push, each
//!   GitHub create/upload/delete/publish, each `dir:` target file) is described as a [`Write`]
//!   and passed to [`Gate::allow`] once, immediately before it happens. The executor's gate is
//!   the only implementation that decides; in a dry-run it records the write as skipped and
//!   answers `false`, and the client carries on as if the write had not been asked for.

use std::time::Duration;

use serde::Serialize;

/// One write to the outside world: published, kept (already there), or skipped by a dry-run.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Write {
    /// What is written, e.g. `bundle release 0.2.0 (media_type helm, 4242-byte .tar.gz)`.
    pub what: String,
    /// Where, e.g. `POST https://quay.io/cnr/api/v1/packages/ns/pkg` or `dir:_out/release/v0.2.0`.
    pub target: String,
    /// Hex sha256 of what is written, when known.
    pub digest: Option<String>,
}

/// A failed call that will be tried again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryNote {
    /// `METHOD /path` of the call (never a header or a credential).
    pub call: String,
    /// Why it failed, e.g. `HTTP 503` or `could not connect: Connection refused`.
    pub why: String,
    /// The attempt that comes next (2 for the first retry) and the most there will be.
    pub next_attempt: u32,
    /// The most attempts there will be.
    pub max_attempts: u32,
    /// How long the client waits before it.
    pub wait: Duration,
}

impl RetryNote {
    /// The server could not be reached at all (no connection, or no answer in time), as
    /// opposed to an answer that asked for a retry.
    fn unreachable(&self) -> bool {
        self.why.starts_with("could not connect") || self.why == "a timeout"
    }
}

impl std::fmt::Display for RetryNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The first failure of an unreachable server says so, once.
        let why = if self.unreachable() && self.next_attempt == 2 {
            format!("the server is unreachable ({})", self.why)
        } else {
            self.why.clone()
        };
        write!(
            f,
            "{}: {}; retrying in {:.1}s (attempt {} of {})",
            self.call,
            why,
            self.wait.as_secs_f64(),
            self.next_attempt,
            self.max_attempts
        )
    }
}

/// A transfer in flight; it ends when this guard is dropped.
pub struct Transfer {
    _guard: Option<Box<dyn Send>>,
}

impl Transfer {
    /// A transfer nobody watches.
    pub(crate) fn none() -> Self {
        Transfer { _guard: None }
    }

    /// A transfer whose end is `guard` being dropped (e.g. a spinner thread that stops).
    pub fn until_dropped(guard: impl Send + 'static) -> Self {
        Transfer {
            _guard: Some(Box::new(guard)),
        }
    }
}

/// The progress sink every client reports through.
pub trait Events: Send + Sync {
    /// A call failed and will be tried again after `note.wait`.
    fn retrying(&self, note: &RetryNote);
    /// A download, push or upload starts; it ends when the returned guard is dropped.
    fn transfer(&self, label: &str) -> Transfer;
    /// A client's own progress line, e.g. deleting an asset a failed upload left behind.
    fn note(&self, text: &str);
    /// Detail worth showing with `-v`, e.g. a check that passed.
    fn detail(&self, text: &str);
    /// Something the user should look at, though the call went on.
    fn warn(&self, text: &str);
}

/// The dry-run choke point.
pub trait Gate: Sync {
    /// Asked once, immediately before `write` happens: `true` to perform it; `false` when it
    /// is skipped (a dry-run), in which case the gate has recorded it.
    fn allow(&self, write: &Write) -> bool;
    /// `write` was performed.
    fn done(&self, write: Write);
    /// `write` was not needed: the target already holds exactly this content.
    fn kept(&self, write: Write);
}

/// Events nobody listens to (library use and tests).
pub struct Silent;

impl Events for Silent {
    fn retrying(&self, _: &RetryNote) {}
    fn transfer(&self, _: &str) -> Transfer {
        Transfer::none()
    }
    fn note(&self, _: &str) {}
    fn detail(&self, _: &str) {}
    fn warn(&self, _: &str) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_retry_reads_as_one_line() {
        let n = RetryNote {
            call: "GET /cnr/api/v1/packages/ns/pkg".into(),
            why: "HTTP 503".into(),
            next_attempt: 2,
            max_attempts: 5,
            wait: Duration::from_millis(1500),
        };
        assert_eq!(
            n.to_string(),
            "GET /cnr/api/v1/packages/ns/pkg: HTTP 503; retrying in 1.5s (attempt 2 of 5)"
        );
        let refused = RetryNote {
            why: "could not connect: Connection refused".into(),
            ..n
        };
        assert_eq!(
            refused.to_string(),
            "GET /cnr/api/v1/packages/ns/pkg: the server is unreachable (could not connect: Connection refused); retrying in 1.5s (attempt 2 of 5)"
        );
        let again = RetryNote {
            next_attempt: 3,
            ..refused
        };
        assert_eq!(
            again.to_string(),
            "GET /cnr/api/v1/packages/ns/pkg: could not connect: Connection refused; retrying in 1.5s (attempt 3 of 5)"
        );
    }
}
