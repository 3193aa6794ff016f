//! Expanding every `${VAR}` of a pipeline tree, every problem at once, and only where the
//! command reads: each string value is expanded ([`super::interpolate`]), and each reference
//! that fails (unset, malformed) is recorded with the key it stands under, so that one run names
//! every unset variable. A section the command never reads does not need its variables: `render`
//! reads no `release:` (so `TRAVIS_REPO_SLUG` in `release.target` is not asked for), and `run` or
//! `plan` read only the sections of the stages they run. Such a section is left out when one of
//! its variables is unset, as if it were not written.

use serde_yaml_ng::Value;

use super::interpolate::{self, ExpandError, Vars};
use super::locate;
use super::model::StageName;

/// What the command reads of the pipeline file, besides its top-level values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Uses {
    /// Every section (a program parsing the file for its own use).
    #[default]
    All,
    /// The render step alone (`olm-release render`): `render:`.
    Render,
    /// The sections of the stages listed in `stages:` (`run`, `plan`).
    Stages,
}

/// One variable reference that could not be expanded, and where.
#[derive(Debug)]
pub struct Unexpanded {
    /// `FILE:LINE`.
    pub at: String,
    /// What went wrong.
    pub source: ExpandError,
}

/// Sections a stage may read, each named by its top-level key.
const SECTIONS: &[&str] = &["render", "registry", "release", "bundle_image", "catalog"];

/// Expands `tree` in place; sections `uses` does not need are dropped when they cannot be
/// expanded. Returns every failure in the sections that are read.
pub(crate) fn expand(
    origin: &str,
    text: &str,
    tree: &mut Value,
    vars: &Vars,
    uses: Uses,
    variant: Option<(&str, &Value)>,
) -> Vec<Unexpanded> {
    let stages: Vec<StageName> = tree
        .get("stages")
        .cloned()
        .and_then(|s| serde_yaml_ng::from_value(s).ok())
        .unwrap_or_default();
    let has_registry = tree.get("registry").is_some_and(|r| !r.is_null());
    let Some(map) = tree.as_mapping_mut() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut dropped = Vec::new();
    for (key, value) in map.iter_mut() {
        let key = key.as_str().unwrap_or_default().to_string();
        let mut failed = Vec::new();
        let mut path = vec![key.clone()];
        walk(value, vars, &mut path, &mut failed);
        if failed.is_empty() {
            continue;
        }
        if !read(&key, uses, &stages, has_registry) {
            dropped.push(key);
            continue;
        }
        for (path, source) in failed {
            out.push(Unexpanded {
                at: at(origin, text, &path, source.expr(), variant),
                source,
            });
        }
    }
    for key in dropped {
        map.remove(key.as_str());
    }
    out
}

/// Whether the command reads the top-level `key`.
fn read(key: &str, uses: Uses, stages: &[StageName], has_registry: bool) -> bool {
    use StageName::*;
    if !SECTIONS.contains(&key) {
        return true;
    }
    let has = |s: StageName| stages.contains(&s);
    match uses {
        Uses::All => true,
        Uses::Render => key == "render",
        Uses::Stages => match key {
            "render" => has(Render),
            "registry" => has(Push) || has(FetchPrevious),
            "release" => has(Release),
            "bundle_image" => has(BundleImage),
            "catalog" => has(Catalog) || (has(FetchPrevious) && !has_registry),
            _ => true,
        },
    }
}

fn walk(
    v: &mut Value,
    vars: &Vars,
    path: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, ExpandError)>,
) {
    match v {
        Value::String(s) => match interpolate::expand(s, vars) {
            Ok(x) => *s = x,
            Err(e) => out.push((path.clone(), e)),
        },
        Value::Sequence(items) => {
            for i in items {
                walk(i, vars, path, out);
            }
        }
        Value::Mapping(map) => {
            for (k, i) in map.iter_mut() {
                path.push(k.as_str().unwrap_or_default().to_string());
                walk(i, vars, path, out);
                path.pop();
            }
        }
        Value::Tagged(t) => walk(&mut t.value, vars, path, out),
        _ => {}
    }
}

/// `FILE:LINE` of the reference `expr` under the key at `path` (in the chosen variant when it
/// wrote that key).
fn at(
    origin: &str,
    text: &str,
    path: &[String],
    expr: &str,
    variant: Option<(&str, &Value)>,
) -> String {
    let mut keys: Vec<&str> = path.iter().map(String::as_str).collect();
    if let Some((name, over)) = variant {
        let mut node = Some(over);
        for k in &keys {
            node = node.and_then(|n| n.get(*k));
        }
        if node.is_some() {
            let mut with = vec![super::variants::KEY, name];
            with.extend(keys);
            keys = with;
        }
    }
    let from = locate::line_of(text, &keys).unwrap_or(1);
    let line = text
        .lines()
        .enumerate()
        .skip(from - 1)
        .find(|(_, l)| l.contains(expr))
        .or_else(|| text.lines().enumerate().find(|(_, l)| l.contains(expr)))
        .map(|(i, _)| i + 1);
    match line {
        Some(l) => format!("{origin}:{l}"),
        None => origin.to_string(),
    }
}
