//! Where a document new to an existing catalog goes: beside the package's documents of its
//! schema, in a file of its own when each of them has one (named as its siblings are), else
//! after the last of them; see [`super`].

use std::collections::BTreeMap;

use serde_yaml_ng::Value;

use super::super::model::{PROPERTY_PACKAGE, SCHEMA_BUNDLE, SCHEMA_CHANNEL, SCHEMA_PACKAGE};
use super::text::FileText;
use super::{At, Held, Key};

/// Where a new document goes.
pub(super) enum Place {
    /// After this document.
    After(At),
    /// In a new file, shaped like the one holding this document.
    NewFile { path: String, like: At },
}

/// Where the new document `h` goes (see the module doc).
pub(super) fn place(
    h: &Held,
    texts: &BTreeMap<String, FileText>,
    ours: &[(At, Key)],
    free: &dyn Fn(&str) -> bool,
) -> Place {
    let (schema, name) = h.key();
    let last_of = |schema: &str| {
        ours.iter()
            .rev()
            .find(|(_, k)| k.0 == schema)
            .map(|(at, _)| at.clone())
    };
    let own_file = |rel: &str| {
        let mine: Vec<&Key> = ours
            .iter()
            .filter(|(at, _)| at.0 == rel)
            .map(|(_, k)| k)
            .collect();
        mine.len() == 1 && mine[0].0 == schema
    };
    if schema == SCHEMA_BUNDLE || schema == SCHEMA_CHANNEL {
        let singles: Vec<&(At, Key)> = ours
            .iter()
            .filter(|(at, k)| k.0 == schema && own_file(&at.0))
            .collect();
        let all = ours.iter().filter(|(_, k)| k.0 == schema).count();
        if let Some((at, key)) = singles.last()
            && singles.len() == all
            && (singles.len() > 1 || stem(&at.0).contains(key.1.as_str()))
            && let Some(path) =
                sibling_path(&at.0, &key.1, &name, version(texts, at).as_deref(), h, free)
        {
            return Place::NewFile {
                path,
                like: at.clone(),
            };
        }
        if let Some(at) = last_of(&schema) {
            return Place::After(at);
        }
    }
    let home = ours
        .iter()
        .find(|(_, k)| k.0 == SCHEMA_PACKAGE)
        .map(|(at, _)| at.0.clone());
    let home = home.unwrap_or_else(|| ours[0].0.0.clone());
    let last = ours
        .iter()
        .rev()
        .find(|(at, _)| at.0 == home)
        .map(|(at, _)| at.clone());
    Place::After(last.unwrap_or((home, 0)))
}

fn stem(rel: &str) -> &str {
    rel.rsplit('/').next().unwrap_or(rel)
}

/// The version the bundle document at `at` names in its `olm.package` property.
fn version(texts: &BTreeMap<String, FileText>, at: &At) -> Option<String> {
    let props = texts[&at.0].docs[at.1]
        .value
        .get("properties")?
        .as_sequence()?;
    let p = props
        .iter()
        .find(|p| p.get("type").and_then(Value::as_str) == Some(PROPERTY_PACKAGE))?;
    p.get("value")?.get("version")?.as_str().map(str::to_string)
}

/// The new document's file beside `sibling` (holding `old`, of `old_version`): the sibling's
/// name with the old name, else the old version, replaced; else `<name>.<ext>` beside it.
fn sibling_path(
    sibling: &str,
    old: &str,
    new: &str,
    old_version: Option<&str>,
    h: &Held,
    free: &dyn Fn(&str) -> bool,
) -> Option<String> {
    if new.contains(['/', '\\']) {
        return None;
    }
    let (dir, file) = match sibling.rsplit_once('/') {
        Some((d, f)) => (format!("{d}/"), f),
        None => (String::new(), sibling),
    };
    let new_version = match h {
        Held::Bundle(b) => b.version().map(|v| v.to_string()),
        _ => None,
    };
    let ext = file.rsplit_once('.').map_or("yaml", |(_, e)| e);
    let candidates = [
        (!old.is_empty() && file.contains(old)).then(|| file.replacen(old, new, 1)),
        old_version
            .zip(new_version.as_deref())
            .filter(|(o, _)| !o.is_empty() && file.contains(*o))
            .map(|(o, n)| file.replacen(o, n, 1)),
        Some(format!("{new}.{ext}")),
    ];
    candidates
        .into_iter()
        .flatten()
        .map(|f| format!("{dir}{f}"))
        .find(|p| p != sibling && free(p))
}
