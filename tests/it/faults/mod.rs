//! Faults survived: olm-release behind our fault-injecting proxy ([`crate::fault_proxy`]), in
//! front of the real appr server (`APPR_URL`) and of the GitHub fake.
//!
//! Each scenario injects one kind of fault (connection refused, the server going away, a reset
//! mid-body, a truncated body, 502/503 before or after upstream acted, 429 with `retry-after`,
//! a stall past the client's timeout) at one point of a run, then checks: the run either
//! completed or failed with exit 1 and a clear message; the server holds nothing half-published
//! (no release, or the whole release with the digest of the bundle we built; on GitHub no
//! published release with missing or partial assets); and a re-run without faults converges to
//! the same published digest. The scenarios of a table run in parallel, each with its own
//! namespace (appr) or fake (GitHub), and a summary line reports the count and outcomes.

use std::process::Output;
use std::sync::Arc;

use crate::appr::{PKG, pipeline_at, run, tarball, unique};
use crate::fault_proxy::{Fault, Proxy, Rule, closed_port, port_of};
use crate::github_fake::{self, TOKEN};
use crate::quay_fake::digest_of;
use crate::support::{self, Work, stderr, stdout};

const GET: Option<&str> = Some("GET");
const POST: Option<&str> = Some("POST");

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Completed,
    FailedCleanly,
}

/// Exit 0 or 1, never a panic or another code.
#[track_caller]
fn outcome(name: &str, o: &Output) -> Outcome {
    let all = format!("{}{}", stderr(o), stdout(o));
    assert!(!all.contains("panicked"), "{name}: a panic:\n{all}");
    match o.status.code() {
        Some(0) => Outcome::Completed,
        Some(1) => Outcome::FailedCleanly,
        other => panic!("{name}: exit {other:?}:\n{all}"),
    }
}

/// Prints and returns the summary line of a table of scenarios.
fn summary(what: &str, results: &[(&str, Outcome)]) -> String {
    let done = results.iter().filter(|r| r.1 == Outcome::Completed).count();
    let line = format!(
        "{what} fault scenarios: {}, completed: {done}, failed cleanly: {}",
        results.len(),
        results.len() - done
    );
    for (name, o) in results {
        eprintln!("  {what}: {name}: {o:?}");
    }
    eprintln!("{line}");
    println!("{line}");
    line
}

mod appr;
mod github;
