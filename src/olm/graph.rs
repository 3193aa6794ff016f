//! Upgrade graphs: channels walked from their heads through `replaces` (fact sheet §6).
//!
//! Used by validation (replaces targets, one head per channel, cycles, stranded CSVs) and by
//! the `graph` command.

use std::collections::BTreeSet;

use super::Bundle;

/// The chain of CSV names from a channel's head back through `replaces`, stopping at a missing
/// CSV or a cycle. Returns the chain and, if the walk stopped early, why.
pub fn walk(bundle: &Bundle, head: &str) -> (Vec<String>, Option<Broken>) {
    let mut chain = Vec::new();
    let mut seen = BTreeSet::new();
    let mut current = head.to_string();
    loop {
        if !seen.insert(current.clone()) {
            return (chain, Some(Broken::Cycle(current)));
        }
        let Some(csv) = bundle.csv(&current) else {
            return (chain, Some(Broken::Missing(current)));
        };
        chain.push(current.clone());
        match csv.replaces() {
            Some(next) => current = next.to_string(),
            None => return (chain, None),
        }
    }
}

/// Why a walk stopped before the chain's tail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Broken {
    /// A `replaces` (or the head) names a CSV that is not in the bundle.
    Missing(String),
    /// The walk came back to this CSV.
    Cycle(String),
}
