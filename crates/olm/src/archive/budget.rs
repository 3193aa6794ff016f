//! The parse budget of one bundle: how deep its YAML may nest, how many values and how many
//! alias-expanded bytes all its files together may build. Every text is measured by the linear
//! [`scan`](super::scan) before the YAML parser sees it, so parsing is refused before it
//! starts, not after memory or time ran out. The budget is shared by the files of a bundle
//! (atomics: folders are parsed on every core).

use std::sync::atomic::{AtomicU64, Ordering};

use super::error::ReadError;
use super::model::Limits;
use super::scan::{self, Allowance, Measure, Over};

/// What is left of a bundle's budget.
#[derive(Debug)]
pub struct Budget {
    max_depth: usize,
    max_nodes: u64,
    max_alias_bytes: u64,
    max_items: u64,
    nodes_left: AtomicU64,
    alias_left: AtomicU64,
}

impl Budget {
    /// The budget that `limits` allow one bundle.
    pub fn new(limits: &Limits) -> Self {
        Budget {
            max_depth: limits.max_depth,
            max_nodes: limits.max_nodes(),
            max_alias_bytes: limits.max_alias_bytes(),
            max_items: limits.max_entries as u64,
            nodes_left: AtomicU64::new(limits.max_nodes()),
            alias_left: AtomicU64::new(limits.max_alias_bytes()),
        }
    }

    /// Measures `text` (named `file` in errors) and takes what parsing it would build from
    /// the budget; refuses it, naming the line, when that passes what is left.
    pub fn check(&self, file: &str, text: &str) -> Result<Measure, ReadError> {
        let allow = Allowance {
            max_depth: self.max_depth,
            max_nodes: self.nodes_left.load(Ordering::Relaxed),
            max_alias_bytes: self.alias_left.load(Ordering::Relaxed),
        };
        let over = |over: Over| self.refusal(file, over, text);
        let m = scan::scan(text, allow).map_err(over)?;
        // Files scanned at the same time on other cores may have taken part of the budget.
        take(&self.nodes_left, m.nodes).map_err(|_| over(Over::Nodes(text.len())))?;
        take(&self.alias_left, m.alias_bytes).map_err(|_| over(Over::AliasBytes(text.len())))?;
        Ok(m)
    }

    /// `Budget::check` for a list of manifests (a `data.*` string of a flattened bundle):
    /// at most as many items as a tarball may hold entries.
    pub(crate) fn check_list(&self, file: &str, text: &str) -> Result<Measure, ReadError> {
        let m = self.check(file, text)?;
        if m.items > self.max_items {
            return Err(ReadError::TooManyItems {
                file: file.to_string(),
                limit: self.max_items,
            });
        }
        Ok(m)
    }

    fn refusal(&self, file: &str, over: Over, text: &str) -> ReadError {
        let (file, line) = (file.to_string(), over.line(text));
        match over {
            Over::Depth(_) => ReadError::TooDeep {
                file,
                line,
                limit: self.max_depth,
            },
            Over::Nodes(_) => ReadError::TooManyNodes {
                file,
                line,
                limit: self.max_nodes,
            },
            Over::AliasBytes(_) => ReadError::AliasExpansion {
                file,
                line,
                limit: self.max_alias_bytes,
            },
        }
    }
}

fn take(left: &AtomicU64, n: u64) -> Result<u64, u64> {
    left.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |l| l.checked_sub(n))
}
