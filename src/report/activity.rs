//! The transfer spinner: a line redrawn on an interactive terminal while a download, push or
//! upload is in flight, cleared when it ends. One at a time; quick transfers draw nothing.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// One spinner at a time: concurrent uploads share the line of the first.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// A spinner for a transfer in progress, shown only on an interactive terminal; it clears its
/// line when dropped. In CI logs and pipes it does nothing, so logs stay plain lines.
pub(crate) struct Activity {
    stop: Option<Arc<AtomicBool>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Activity {
    fn drop(&mut self) {
        if let Some(stop) = &self.stop {
            stop.store(true, Ordering::Relaxed);
        }
        if let Some(t) = self.thread.take() {
            t.thread().unpark();
            let _ = t.join();
        }
    }
}

impl Activity {
    /// A guard that shows nothing.
    pub(crate) fn none() -> Self {
        Activity {
            stop: None,
            thread: None,
        }
    }
}

/// Starts drawing `label` with a spinner until the returned guard is dropped.
pub(super) fn start(label: &str) -> Activity {
    if ACTIVE.swap(true, Ordering::AcqRel) {
        return Activity::none();
    }
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let label = label.to_string();
    let thread = std::thread::spawn(move || {
        const FRAMES: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
        let started = std::time::Instant::now();
        let mut drawn = 0;
        while !flag.load(Ordering::Relaxed) {
            // Woken early by the guard's drop (unpark), so a quick transfer costs nothing.
            std::thread::park_timeout(Duration::from_millis(100));
            if flag.load(Ordering::Relaxed) {
                break;
            }
            // Show nothing for quick transfers; draw only after a short moment.
            if started.elapsed() > Duration::from_millis(300) {
                let frame = FRAMES[drawn % FRAMES.len()];
                let secs = started.elapsed().as_secs_f64();
                crate::out::stderr(&format!("\r\x1b[2K    {frame} {label} ({secs:.1}s)"));
                drawn += 1;
            }
        }
        if drawn > 0 {
            crate::out::stderr("\r\x1b[2K");
        }
        ACTIVE.store(false, Ordering::Release);
    });
    Activity {
        stop: Some(stop),
        thread: Some(thread),
    }
}
