//! Ctrl-C during a run. The executor listens for SIGINT while a step runs; when it comes, the
//! step is dropped at its next await point (no write is half-recorded: a client's write either
//! finished, and the gate recorded it, or it is abandoned before the registry or GitHub
//! acknowledged it) and the run ends with [`Interrupted`]: which step was interrupted, what was
//! already written, and why a rerun is safe. The exit code is 130, the shells' 128 + SIGINT
//! (the Bash manual, "Exit Status").
//!
//! A rerun is safe because every write is idempotent by content: push looks the release up
//! first and keeps one with the same digest; the release step keeps assets with the same
//! sha256 and finishes a draft it finds; local files are written through a temporary name and
//! a rename.

use tokio::signal::unix::{Signal, SignalKind, signal};

/// The run was interrupted during `step`.
#[derive(Debug, thiserror::Error)]
#[error("interrupted (Ctrl-C) during {step}; {}; a rerun is safe: what is already published with the same content is recognised by its digest and kept, and the rest is written then", written_text(.written))]
pub(crate) struct Interrupted {
    pub(crate) step: &'static str,
    /// What was already written, as the summary names it (`what → target`).
    pub(crate) written: Vec<String>,
}

impl olm_release_base::Classified for Interrupted {
    /// Ctrl-C: exit 130.
    fn class(&self) -> olm_release_base::Class {
        olm_release_base::Class::Interrupted
    }
}

fn written_text(written: &[String]) -> String {
    if written.is_empty() {
        "nothing was published yet".into()
    } else {
        format!("already written: {}", written.join("; "))
    }
}

/// The SIGINT listener of a run; `None` where it cannot be installed (then Ctrl-C ends the
/// process the default way).
pub(crate) struct Listener(Option<Signal>);

impl Listener {
    /// Starts listening: from now on SIGINT no longer ends the process by itself.
    pub(crate) fn start() -> Self {
        Listener(signal(SignalKind::interrupt()).ok())
    }

    /// Resolves when SIGINT arrives (never, without a listener).
    pub(crate) async fn received(&mut self) {
        match &mut self.0 {
            Some(s) => {
                s.recv().await;
            }
            None => std::future::pending().await,
        }
    }
}
