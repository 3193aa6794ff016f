//! Upgrade graphs: channels walked from their heads through `replaces` (OLM docs, "Creating an
//! update graph").
//!
//! [`Graph`] indexes a bundle's CSVs by name once (so checks on a bundle of a hundred CSVs stay
//! linear) and answers what the registry computes at load time: the chain of a channel (head,
//! then `replaces` until it ends, is missing or loops), the CSVs a channel contains (the chain
//! plus the CSVs its members skip), and the CSVs no channel reaches. Validation turns these
//! into findings; `walk` is the one-call form for code that only needs a chain.

use std::collections::{BTreeSet, HashMap};

use serde_yaml_ng::Value;

use super::{Bundle, Manifest, value_at};

/// Why a walk stopped before the chain's tail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Broken {
    /// A `replaces` (or the head) names a CSV that is not in the bundle.
    Missing(String),
    /// The walk came back to this CSV.
    Cycle(String),
}

/// The chain of CSV names from a channel's head back through `replaces`, stopping at a missing
/// CSV or a cycle. Returns the chain and, if the walk stopped early, why.
pub fn walk(bundle: &Bundle, head: &str) -> (Vec<String>, Option<Broken>) {
    let graph = Graph::new(bundle);
    let chain = graph.walk(head);
    (
        chain
            .members
            .iter()
            .map(|&i| graph.name(i).to_string())
            .collect(),
        chain.broken,
    )
}

/// A channel's chain: CSV indexes (into `bundle.csvs`) from the head down.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Chain {
    pub(crate) members: Vec<usize>,
    pub(crate) broken: Option<Broken>,
}

/// The CSVs of a bundle as an upgrade graph.
#[derive(Debug)]
pub(crate) struct Graph<'a> {
    csvs: &'a [Manifest],
    /// metadata.name → index of the first CSV with that name.
    by_name: HashMap<&'a str, usize>,
}

impl<'a> Graph<'a> {
    pub(crate) fn new(bundle: &'a Bundle) -> Self {
        let mut by_name = HashMap::with_capacity(bundle.csvs.len());
        for (i, csv) in bundle.csvs.iter().enumerate() {
            if let Some(name) = csv.name() {
                by_name.entry(name).or_insert(i);
            }
        }
        Graph {
            csvs: &bundle.csvs,
            by_name,
        }
    }

    /// The index of the CSV named `name`.
    pub(crate) fn index(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    pub(crate) fn name(&self, i: usize) -> &'a str {
        self.csvs[i].name().unwrap_or("")
    }

    pub(crate) fn csv(&self, i: usize) -> &'a Manifest {
        &self.csvs[i]
    }

    pub(crate) fn len(&self) -> usize {
        self.csvs.len()
    }

    /// `spec.skips` of CSV `i` (string entries only).
    pub(crate) fn skips(&self, i: usize) -> Vec<&'a str> {
        skips_of(&self.csvs[i])
    }

    /// Follows `replaces` from `head`.
    pub(crate) fn walk(&self, head: &str) -> Chain {
        let mut members = Vec::new();
        let mut seen = BTreeSet::new();
        let mut current = head;
        loop {
            let Some(i) = self.index(current) else {
                return Chain {
                    members,
                    broken: Some(Broken::Missing(current.to_string())),
                };
            };
            if !seen.insert(i) {
                return Chain {
                    members,
                    broken: Some(Broken::Cycle(current.to_string())),
                };
            }
            members.push(i);
            match self.csvs[i].replaces() {
                Some(next) => current = next,
                None => {
                    return Chain {
                        members,
                        broken: None,
                    };
                }
            }
        }
    }

    /// Every CSV the channel with this chain contains: its members and the CSVs they skip
    /// (skipped names need not exist; only existing ones are returned).
    pub(crate) fn channel_content(&self, chain: &Chain) -> BTreeSet<usize> {
        let mut content: BTreeSet<usize> = chain.members.iter().copied().collect();
        for &i in &chain.members {
            for skipped in self.skips(i) {
                if let Some(j) = self.index(skipped) {
                    content.insert(j);
                }
            }
        }
        content
    }
}

/// `spec.skips` of a CSV (string entries only).
pub fn skips_of(csv: &Manifest) -> Vec<&str> {
    value_at(&csv.doc, "spec.skips")
        .and_then(Value::as_sequence)
        .map(|s| s.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}
