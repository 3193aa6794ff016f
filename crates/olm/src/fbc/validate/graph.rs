//! The upgrade-graph rules of one channel, as operator-registry's `Channel.validateReplacesChain`
//! states them (`alpha/model/model.go`): exactly one head; from the head, the `replaces` chain
//! has no cycle; every entry is on that chain or skipped by some entry (else it is stranded);
//! the chain's tail may replace an entry that is not in the channel; the walk stops at an entry
//! that some entry skips. Linear in the number of entries.

use std::collections::{HashMap, HashSet};

use super::{CHANNEL_HEAD, REPLACES_CYCLE, STRANDED, Sink, obj_channel};
use crate::fbc::head::{edges, heads};
use crate::fbc::model::{ChannelDoc, Entry};

pub(super) fn channel(c: &ChannelDoc, sink: &mut Sink) {
    if c.entries.is_empty() {
        return; // reported with the package rules
    }
    let (pkg, ch, obj) = (&c.package, &c.name, obj_channel(c));
    let found = heads(c);
    let [head] = found.as_slice() else {
        let edges = edges(c);
        let edges = if edges.is_empty() {
            "none".to_string()
        } else {
            edges.join(", ")
        };
        let msg = if found.is_empty() {
            format!(
                "channel {ch} of package {pkg} has no head: every entry is replaced or skipped by another (edges: {edges})"
            )
        } else {
            format!(
                "channel {ch} of package {pkg} has {} heads, {} (nothing replaces or skips them); exactly one is allowed (edges: {edges})",
                found.len(),
                found.join(" and ")
            )
        };
        sink.add(&CHANNEL_HEAD, &c.origin, obj, "entries", msg);
        return;
    };
    let by_name: HashMap<&str, &Entry> = c.entries.iter().map(|e| (e.name.as_str(), e)).collect();
    let skipped: HashSet<&str> = c
        .entries
        .iter()
        .flat_map(|e| e.skips.iter().map(String::as_str))
        .collect();
    let mut path: Vec<&str> = vec![head];
    let mut on_chain: HashSet<&str> = HashSet::from([*head]);
    let mut cur = by_name.get(head).copied();
    while let Some(e) = cur {
        let Some(next) = e.replaces.as_deref() else {
            break;
        };
        if skipped.contains(next) {
            break;
        }
        if on_chain.contains(next) {
            let start = path.iter().position(|p| *p == next).unwrap_or(0);
            let mut looped: Vec<&str> = path[start..].to_vec();
            looped.push(next);
            let msg = format!(
                "channel {ch} of package {pkg}: the replaces chain from head {head} loops: {}",
                looped.join(" -> ")
            );
            let field = entry_field(c, e.name.as_str(), "replaces");
            sink.add(&REPLACES_CYCLE, &c.origin, obj, &field, msg);
            return;
        }
        on_chain.insert(next);
        path.push(next);
        cur = by_name.get(next).copied();
    }
    let stranded: Vec<&str> = c
        .entries
        .iter()
        .map(|e| e.name.as_str())
        .filter(|n| !on_chain.contains(n) && !skipped.contains(n))
        .collect();
    if !stranded.is_empty() {
        let msg = format!(
            "channel {ch} of package {pkg} strands {}: not on the replaces chain from head {head} ({}) and skipped by no entry",
            stranded.join(", "),
            path.join(" -> ")
        );
        let field = entry_field(c, stranded[0], "name");
        sink.add(&STRANDED, &c.origin, obj, &field, msg);
    }
}

fn entry_field(c: &ChannelDoc, name: &str, field: &str) -> String {
    match c.entries.iter().position(|e| e.name == name) {
        Some(i) => format!("entries[{i}].{field}"),
        None => "entries".into(),
    }
}
