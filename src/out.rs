//! Writing to stdout and stderr without ever panicking: when the reader has gone away
//! (`olm-release plan … | head`), the rest of the output is dropped quietly instead of
//! `println!`'s "failed printing to stdout" panic. Everything the program prints goes through
//! here or through the reporter, which uses these functions too.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set once stdout's reader has gone away; later writes are skipped.
static STDOUT_GONE: AtomicBool = AtomicBool::new(false);
/// Set once anything was written to stdout (so a failing `--format json` command adds its
/// summary document only when it printed none of its own).
static STDOUT_USED: AtomicBool = AtomicBool::new(false);

/// Whether anything was written to stdout.
pub(crate) fn stdout_used() -> bool {
    STDOUT_USED.load(Ordering::Relaxed)
}

/// Writes `text` to stdout as it is.
pub(crate) fn stdout(text: &str) {
    STDOUT_USED.store(true, Ordering::Relaxed);
    if STDOUT_GONE.load(Ordering::Relaxed) {
        return;
    }
    let mut out = std::io::stdout().lock();
    if out
        .write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .is_err()
    {
        STDOUT_GONE.store(true, Ordering::Relaxed);
    }
}

/// Writes `text` to stderr as it is; a closed stderr is ignored.
pub(crate) fn stderr(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes());
}

/// One line on stderr.
pub(crate) fn line(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes());
    let _ = err.write_all(b"\n");
}
