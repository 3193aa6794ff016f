//! The upgrade graph (checklist rules 3 and 4, fact sheet §6), the checks courier never made:
//! every `replaces` names a CSV of the bundle, no cycles, one head per channel, no stranded
//! CSV, at most one replacer per CSV along each channel, no downgrade edges; and names and
//! versions unique across the bundle. Built on [`crate::olm::graph::Graph`], so each check is
//! linear in the number of CSVs.

use std::collections::{BTreeMap, HashMap};

use super::{At, Sink, rules};
use crate::olm::graph::Graph;
use crate::olm::{Bundle, Manifest};

/// No two CSVs with the same `metadata.name` or the same `spec.version`.
pub fn check_versions(bundle: &Bundle, sink: &mut Sink) {
    let mut names: HashMap<&str, &Manifest> = HashMap::new();
    let mut versions: HashMap<semver::Version, &Manifest> = HashMap::new();
    for csv in &bundle.csvs {
        let at = At::of(csv);
        if let Some(name) = csv.name()
            && let Some(prev) = names.insert(name, csv)
        {
            let msg = format!("{name} is also the name of the CSV in {}", prev.file);
            sink.add(&rules::CSV_UNIQUE, &at, "metadata.name", msg);
        }
        if let Some(v) = csv.semver() {
            let shown = v.to_string();
            if let Some(prev) = versions.insert(v, csv) {
                let msg = format!(
                    "{shown} is also the version of {}",
                    prev.name().unwrap_or(&prev.file)
                );
                sink.add(&rules::CSV_UNIQUE, &at, "spec.version", msg);
            }
        }
    }
}

/// The graph checks, channel by channel.
pub fn check(bundle: &Bundle, sink: &mut Sink) {
    let g = Graph::new(bundle);
    for i in 0..g.len() {
        if let Some(target) = g.csv(i).replaces()
            && g.index(target).is_none()
            && g.csv(i).name() != Some(target)
        {
            let msg = format!(
                "names {target}, which is not in the bundle; the registry then fails to load every package of the catalog"
            );
            sink.add(
                &rules::REPLACES_TARGET,
                &At::of(g.csv(i)),
                "spec.replaces",
                msg,
            );
        }
    }
    cycles(&g, sink);
    downgrades(&g, sink);
    // CSV index → the first channel that contains it.
    let mut reached: BTreeMap<usize, &str> = BTreeMap::new();
    for channel in &bundle.package.channels {
        if g.index(&channel.current_csv).is_none() {
            continue; // reported by the package rules
        }
        let chain = g.walk(&channel.current_csv);
        ambiguous(&g, &chain.members, &channel.name, sink);
        for i in g.channel_content(&chain) {
            reached.entry(i).or_insert(&channel.name);
        }
    }
    for i in (0..g.len()).filter(|i| !reached.contains_key(i)) {
        let csv = g.csv(i);
        let at = At::of(csv);
        // Follow its replaces until it meets a channel: then it is a second head there.
        let into = g
            .walk(g.name(i))
            .members
            .iter()
            .find_map(|j| reached.get(j).map(|c| (*j, *c)));
        match into {
            Some((j, channel)) => {
                let msg = format!(
                    "is a second head of channel {channel}: nothing replaces it and its chain joins the channel at {}",
                    g.name(j)
                );
                sink.add(&rules::GRAPH_HEADS, &at, "spec.replaces", msg);
            }
            None => {
                let msg = "is reached from no channel head through replaces or skips; OLM never offers it".to_string();
                sink.add(&rules::GRAPH_STRANDED, &at, "metadata.name", msg);
            }
        }
    }
}

/// Every `replaces` edge must go to a lower version.
fn downgrades(g: &Graph, sink: &mut Sink) {
    for i in 0..g.len() {
        let newer = g.csv(i);
        let Some(j) = newer.replaces().and_then(|r| g.index(r)) else {
            continue;
        };
        if let (Some(a), Some(b)) = (newer.semver(), g.csv(j).semver())
            && b >= a
            && i != j
        {
            let msg = format!(
                "{} ({a}) replaces {} ({b}), a version not lower than its own",
                g.name(i),
                g.name(j)
            );
            sink.add(
                &rules::REPLACES_DOWNGRADE,
                &At::of(newer),
                "spec.replaces",
                msg,
            );
        }
    }
}

/// Along one channel, each CSV is replaced (or skipped) by at most one member.
fn ambiguous(g: &Graph, members: &[usize], channel: &str, sink: &mut Sink) {
    let mut by: HashMap<&str, Vec<usize>> = HashMap::new();
    for &i in members {
        let targets = g.csv(i).replaces().into_iter().chain(g.skips(i));
        let mut mine: Vec<&str> = targets.collect();
        mine.sort_unstable();
        mine.dedup();
        for t in mine {
            by.entry(t).or_default().push(i);
        }
    }
    let mut targets: Vec<_> = by.into_iter().filter(|(_, v)| v.len() > 1).collect();
    targets.sort();
    for (target, replacers) in targets {
        let names: Vec<&str> = replacers.iter().map(|&i| g.name(i)).collect();
        let msg = format!(
            "in channel {channel}, {target} is replaced or skipped by {}; OLM picks one at random",
            names.join(" and ")
        );
        sink.add(
            &rules::REPLACES_AMBIGUOUS,
            &At::of(g.csv(replacers[1])),
            "spec.replaces",
            msg,
        );
    }
}

/// Each `replaces` cycle once, on its first member in bundle order.
fn cycles(g: &Graph, sink: &mut Sink) {
    // 0 = unvisited, 1 = on the current path, 2 = done.
    let mut state = vec![0u8; g.len()];
    for start in 0..g.len() {
        let mut path = Vec::new();
        let mut cur = Some(start);
        while let Some(i) = cur {
            match state[i] {
                2 => break,
                1 => {
                    let pos = path.iter().position(|&p| p == i).unwrap_or(0);
                    let cycle = &path[pos..];
                    let first = cycle.iter().copied().min().unwrap_or(i);
                    let names: Vec<&str> = cycle.iter().map(|&c| g.name(c)).collect();
                    let msg = format!(
                        "the replaces chain loops: {} -> {}",
                        names.join(" -> "),
                        g.name(i)
                    );
                    sink.add(
                        &rules::GRAPH_CYCLE,
                        &At::of(g.csv(first)),
                        "spec.replaces",
                        msg,
                    );
                    break;
                }
                _ => {
                    state[i] = 1;
                    path.push(i);
                    cur = g.csv(i).replaces().and_then(|r| g.index(r));
                }
            }
        }
        for p in path {
            state[p] = 2;
        }
    }
}
