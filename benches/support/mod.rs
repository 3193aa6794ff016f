//! What the benchmarks share: a timing loop that prints the median of its runs, and synthetic
//! digests. Each benchmark declares it with `mod support;`.

#![allow(dead_code)] // each benchmark uses its own part

use std::hint::black_box;
use std::time::{Duration, Instant};

/// How often a measurement is repeated: at least `runs` times and for at least `for_at_least`,
/// at most `at_most` times; the printed name is padded to `width`.
#[derive(Clone, Copy)]
pub struct Runs {
    pub runs: usize,
    pub for_at_least: Duration,
    pub at_most: usize,
    pub width: usize,
}

/// Runs `f` after `setup` (not timed) as `runs` says; prints and returns the median.
pub fn time<T>(
    name: &str,
    runs: Runs,
    mut setup: impl FnMut(),
    mut f: impl FnMut() -> T,
) -> Duration {
    let mut took = Vec::new();
    let start = Instant::now();
    while took.len() < runs.runs
        || (start.elapsed() < runs.for_at_least && took.len() < runs.at_most)
    {
        setup();
        let t = Instant::now();
        black_box(f());
        took.push(t.elapsed());
    }
    took.sort();
    let median = took[took.len() / 2];
    println!(
        "{name:<width$} {:>9.3} ms  (median of {}, min {:.3} ms)",
        median.as_secs_f64() * 1e3,
        took.len(),
        took[0].as_secs_f64() * 1e3,
        width = runs.width
    );
    median
}

/// A made-up sha256 digest (64 hex digits) that differs for every `seed`.
pub fn digest(seed: usize) -> String {
    format!(
        "{:064x}",
        (seed as u128).wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835)
    )
}
