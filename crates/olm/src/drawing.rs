//! Drawing a package's upgrade graph per channel: a text tree for the terminal, Graphviz `dot`
//! or Mermaid for docs and release notes. Nodes are CSVs; edges are `replaces` (solid) and
//! `skips` (dashed); each channel points at its head. CSVs that no channel reaches are listed as
//! stranded. The same drawer serves an app-registry bundle and a file-based catalog (through
//! its release model), so both sources print the same edges.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde_yaml_ng::Value;

use super::Bundle;
use super::graph::{Broken, walk};

/// How to draw the graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// A text tree for the terminal: per channel, the chain from its head, then stranded CSVs.
    Text,
    /// A Graphviz `dot` digraph: each CSV a box labelled with its name and version, each channel an
    /// ellipse pointing at its head.
    Dot,
    /// A Mermaid `graph RL` flowchart for Markdown, with the same nodes and edges as
    /// [`Style::Dot`].
    Mermaid,
}

/// `spec.skips` of a CSV.
fn skips(bundle: &Bundle, name: &str) -> Vec<String> {
    bundle
        .csv(name)
        .and_then(|c| crate::value_at(&c.doc, "spec.skips"))
        .and_then(Value::as_sequence)
        .map(|s| {
            s.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

fn version(bundle: &Bundle, name: &str) -> String {
    bundle
        .csv(name)
        .and_then(|c| c.spec_version())
        .unwrap_or("?")
        .to_string()
}

/// Draws the bundle's graph in `style`.
pub fn draw(bundle: &Bundle, style: Style) -> String {
    match style {
        Style::Text => text(bundle),
        Style::Dot => dot(bundle),
        Style::Mermaid => mermaid(bundle),
    }
}

fn default_channel(bundle: &Bundle) -> Option<&str> {
    bundle.package.default_channel.as_deref().or_else(|| {
        (bundle.package.channels.len() == 1).then(|| bundle.package.channels[0].name.as_str())
    })
}

/// CSVs no channel head reaches.
fn stranded(bundle: &Bundle) -> Vec<String> {
    let mut reached = BTreeSet::new();
    for ch in &bundle.package.channels {
        let (chain, _) = walk(bundle, &ch.current_csv);
        for name in &chain {
            reached.extend(skips(bundle, name));
        }
        reached.extend(chain);
    }
    bundle
        .csvs
        .iter()
        .filter_map(|c| c.name())
        .filter(|n| !reached.contains(*n))
        .map(str::to_string)
        .collect()
}

fn text(bundle: &Bundle) -> String {
    let mut out = format!("{}\n", bundle.package.package_name);
    let default = default_channel(bundle);
    for ch in &bundle.package.channels {
        let mark = if Some(ch.name.as_str()) == default {
            " (default)"
        } else {
            ""
        };
        let _ = writeln!(out, "└─ channel {}{mark}", ch.name);
        let (chain, broken) = walk(bundle, &ch.current_csv);
        for (i, name) in chain.iter().enumerate() {
            let head = if i == 0 { "  ← head" } else { "" };
            let _ = writeln!(
                out,
                "   {} {name} ({}){head}",
                if i == 0 { "●" } else { "↑" },
                version(bundle, name)
            );
            for s in skips(bundle, name) {
                let _ = writeln!(out, "     skips {s}");
            }
        }
        match broken {
            Some(Broken::Missing(n)) => {
                let _ = writeln!(out, "   ✗ {n} (missing from the bundle)");
            }
            Some(Broken::Cycle(n)) => {
                let _ = writeln!(out, "   ✗ back to {n} (cycle)");
            }
            None => {}
        }
    }
    let lost = stranded(bundle);
    if !lost.is_empty() {
        let _ = writeln!(
            out,
            "stranded (no channel reaches them): {}",
            lost.join(", ")
        );
    }
    out
}

fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

fn dot(bundle: &Bundle) -> String {
    let mut out = format!(
        "digraph {} {{\n  rankdir=RL;\n  node [shape=box];\n",
        quote(&bundle.package.package_name)
    );
    for csv in &bundle.csvs {
        let name = csv.name().unwrap_or("?");
        // `\n` inside a DOT string is a line break in the label.
        let label = format!(
            "{}\\n{}",
            quote(name).trim_end_matches('"'),
            quote(&version(bundle, name)).trim_start_matches('"')
        );
        let _ = writeln!(out, "  {} [label={label}];", quote(name));
    }
    for ch in &bundle.package.channels {
        let id = quote(&format!("channel:{}", ch.name));
        let _ = writeln!(out, "  {id} [shape=ellipse, label={}];", quote(&ch.name));
        let _ = writeln!(out, "  {id} -> {};", quote(&ch.current_csv));
    }
    for csv in &bundle.csvs {
        let name = csv.name().unwrap_or("?");
        if let Some(r) = csv.replaces() {
            let _ = writeln!(
                out,
                "  {} -> {} [label=\"replaces\"];",
                quote(name),
                quote(r)
            );
        }
        for s in skips(bundle, name) {
            let _ = writeln!(
                out,
                "  {} -> {} [label=\"skips\", style=dashed];",
                quote(name),
                quote(&s)
            );
        }
    }
    out.push_str("}\n");
    out
}

fn mermaid(bundle: &Bundle) -> String {
    // Mermaid ids must be simple: number the CSVs; label them with name and version.
    let mut names: Vec<String> = bundle
        .csvs
        .iter()
        .filter_map(|c| c.name())
        .map(str::to_string)
        .collect();
    for ch in &bundle.package.channels {
        if !names.contains(&ch.current_csv) {
            names.push(ch.current_csv.clone());
        }
    }
    let id = |n: &str, names: &mut Vec<String>| {
        let pos = names.iter().position(|x| x == n).unwrap_or_else(|| {
            names.push(n.to_string());
            names.len() - 1
        });
        format!("csv{pos}")
    };
    let mut body = String::new();
    for (i, ch) in bundle.package.channels.iter().enumerate() {
        let head = id(&ch.current_csv, &mut names);
        let _ = writeln!(
            body,
            "  ch{i}([\"{}\"]) --> {head}",
            ch.name.replace('"', "'")
        );
    }
    for csv in &bundle.csvs {
        let name = csv.name().unwrap_or("?").to_string();
        let from = id(&name, &mut names);
        if let Some(r) = csv.replaces() {
            let to = id(r, &mut names);
            let _ = writeln!(body, "  {from} -->|replaces| {to}");
        }
        for s in skips(bundle, &name) {
            let to = id(&s, &mut names);
            let _ = writeln!(body, "  {from} -.->|skips| {to}");
        }
    }
    let mut out = String::from("graph RL\n");
    for (i, n) in names.iter().enumerate() {
        let _ = writeln!(
            out,
            "  csv{i}[\"{}<br/>{}\"]",
            n.replace('"', "'"),
            version(bundle, n)
        );
    }
    out.push_str(&body);
    out
}
