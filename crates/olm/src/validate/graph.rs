//! The upgrade graph of a package, across all its bundles: each channel walked from its head
//! through `replaces` as the registry walks it (a loop never ends), CSVs no head reaches
//! (through `replaces`, `skips` or the head's `olm.skipRange`), downgrade edges; and names and
//! versions unique across the package. Built on [`crate::graph::Graph`], so each check is
//! linear in the number of CSVs.
//!
//! A chain that stops at a `replaces` naming a CSV the package does not carry is judged by what
//! it cuts off. When older CSVs of the package are then reached by no channel, the break is a
//! gap (a typo, or a release not carried over): an error. When nothing is cut off, the tail
//! replaces a *pruned* release: operator-registry logs it as a load error ("specifies
//! replacement that couldn't be found"), but app-registry catalogs have served the channel
//! anyway since operator-registry#74 made load errors non-fatal, the channel keeps its entry for
//! the pruned name so clusters still running it upgrade to the tail, and `opm validate` permits
//! it outright ("the tail entry in the replaces chain is permitted to replace a non-existent
//! entry", operator-registry `alpha/model`). That is a warning.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::rules;
use super::sink::{At, Sink};
use super::text::Range;
use crate::graph::{Broken, Graph};
use crate::{Bundle, Manifest};

/// No two CSVs with the same `metadata.name` or the same `spec.version`.
pub(crate) fn check_versions(bundle: &Bundle, sink: &mut Sink) {
    let mut names: HashMap<&str, &Manifest> = HashMap::new();
    let mut versions: HashMap<semver::Version, &Manifest> = HashMap::new();
    for csv in &bundle.csvs {
        let at = At::of(csv);
        if let Some(name) = csv.name()
            && let Some(prev) = names.insert(name, csv)
        {
            let msg = format!("{name} is also the name of the CSV in {}", prev.file);
            sink.add(&rules::CSV_UNIQUE_NAME, &at, "metadata.name", msg);
        }
        if let Some(v) = csv.spec_version().and_then(super::text::tolerant_semver) {
            let shown = v.to_string();
            if let Some(prev) = versions.insert(v, csv) {
                let msg = format!(
                    "{shown} is also the version of {}",
                    prev.name().unwrap_or(&prev.file)
                );
                sink.add(&rules::CSV_UNIQUE_VERSION, &at, "spec.version", msg);
            }
        }
    }
}

/// The graph checks, channel by channel.
pub fn check(bundle: &Bundle, sink: &mut Sink) {
    let g = Graph::new(bundle);
    // CSV index → the first channel that reaches it.
    let mut reached: BTreeMap<usize, &str> = BTreeMap::new();
    // Chain tail → (the missing CSV it replaces, the head of the first channel ending there).
    let mut missing: BTreeMap<usize, (String, &str)> = BTreeMap::new();
    let mut loops = BTreeSet::new();
    for channel in &bundle.package.channels {
        if g.index(&channel.current_csv).is_none() {
            continue; // reported by the package rules
        }
        let chain = g.walk(&channel.current_csv);
        let last = chain.members.last().copied();
        match (&chain.broken, last) {
            (Some(Broken::Missing(target)), Some(tail)) => {
                missing
                    .entry(tail)
                    .or_insert((target.clone(), channel.current_csv.as_str()));
            }
            (Some(Broken::Cycle(at)), Some(tail)) => {
                let start = chain.members.iter().position(|&m| g.name(m) == at);
                let mut cycle: Vec<usize> = chain.members[start.unwrap_or(0)..].to_vec();
                let first = cycle.iter().copied().min().unwrap_or(tail);
                if loops.insert(first) {
                    cycle.push(g.index(at).unwrap_or(tail));
                    let names: Vec<&str> = cycle.iter().map(|&c| g.name(c)).collect();
                    let msg = format!("the replaces chain loops: {}", names.join(" -> "));
                    sink.add(
                        &rules::GRAPH_CYCLE,
                        &At::of(g.csv(first)),
                        "spec.replaces",
                        msg,
                    );
                }
            }
            _ => {}
        }
        let mut content = g.channel_content(&chain);
        // A head's olm.skipRange offers an upgrade from every version it covers.
        if let Some(range) = chain
            .members
            .first()
            .and_then(|&h| g.csv(h).str_at("metadata.annotations.olm.skipRange"))
            .and_then(|r| Range::parse(r).ok())
        {
            for i in 0..g.len() {
                if g.csv(i).semver().is_some_and(|v| range.contains(&v)) {
                    content.insert(i);
                }
            }
        }
        for i in content {
            reached.entry(i).or_insert(&channel.name);
        }
    }
    for (&tail, (target, head)) in &missing {
        broken_tail(&g, &reached, tail, target, head, sink);
    }
    downgrades(&g, sink);
    for i in (0..g.len()).filter(|i| !reached.contains_key(i)) {
        let csv = g.csv(i);
        let at = At::of(csv);
        // Follow its replaces until it meets a channel: then it forks that channel.
        let into = g
            .walk(g.name(i))
            .members
            .iter()
            .find_map(|j| reached.get(j).map(|c| (*j, *c)));
        match into {
            Some((j, channel)) => {
                let msg = format!(
                    "is not in channel {channel} but its replaces chain joins it at {}: a second head, which OLM never offers",
                    g.name(j)
                );
                sink.add(&rules::GRAPH_HEADS, &at, "spec.replaces", msg);
            }
            None => {
                let msg = "is reached from no channel head through replaces, skips or skipRange; OLM never offers it";
                sink.add(&rules::GRAPH_STRANDED, &at, "metadata.name", msg);
            }
        }
    }
}

/// A chain that ends at `tail`, whose `replaces` names `target`, a CSV the package does not
/// carry: a gap when older CSVs of the package are left unreached, else a pruned release.
fn broken_tail(
    g: &Graph,
    reached: &BTreeMap<usize, &str>,
    tail: usize,
    target: &str,
    head: &str,
    sink: &mut Sink,
) {
    let at = At::of(g.csv(tail));
    let version = g.csv(tail).semver();
    // Unreached CSVs older than the tail (all unreached ones when its version is unknown).
    let mut cut: Vec<(Option<semver::Version>, &str)> = (0..g.len())
        .filter(|i| !reached.contains_key(i))
        .map(|i| (g.csv(i).semver(), g.name(i)))
        .filter(|(w, _)| match (&version, w) {
            (Some(v), Some(w)) => w < v,
            _ => true,
        })
        .collect();
    // Newest first: the first is what the release most likely meant to replace.
    cut.sort_by(|a, b| b.cmp(a));
    let cut: Vec<&str> = cut.into_iter().map(|(_, n)| n).collect();
    if cut.is_empty() {
        let msg = format!(
            "names {target}, which the package no longer carries (a pruned release); OLM still upgrades clusters running {target} to {}, but the registry loader logs \"{head} specifies replacement that couldn't be found\" when it loads the package",
            g.name(tail)
        );
        sink.add(&rules::REPLACES_PRUNED, &at, "spec.replaces", msg);
    } else {
        let msg = format!(
            "names {target}, which is not in the package, so the chain stops at {} and {} ({}) {} reached from no channel head; the registry fails the channel ({head} specifies replacement that couldn't be found)",
            g.name(tail),
            if cut.len() == 1 {
                "the older CSV"
            } else {
                "the older CSVs"
            },
            cut.join(", "),
            if cut.len() == 1 { "is" } else { "are" },
        );
        sink.add_fix(
            &rules::REPLACES_TARGET,
            &at,
            "spec.replaces",
            msg,
            format!(
                "point spec.replaces at the release this one upgrades from (probably {}), or carry {target} in the package",
                cut[0]
            ),
        );
    }
}

/// Every `replaces` edge should go to a lower version.
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
