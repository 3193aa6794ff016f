//! Writing one package's part of an existing catalog back in place: the catalog keeps its layout
//! and every byte the release did not change.
//!
//! Each file holding the package's documents is cut into documents ([`text`]); a document the
//! release left as it was keeps its bytes; a channel that only gains entries gets them after its
//! last one, indented as its items are; a document whose only changes are one-line strings
//! (the package's `defaultChannel`) has those lines replaced ([`scalar`]); another changed
//! document is written again in the file's style and key order; and a new one goes
//! where the package's documents of its schema already are:
//!
//! - a bundle: into a new file beside the others when each bundle has a file of its own (named
//!   as they are: the name or version in a sibling's file name replaced by the new bundle's,
//!   with the sibling's header), else after the package's last bundle document;
//! - a channel: likewise, per channel file or after the last channel document;
//! - anything else: after the package's last document in the file holding its `olm.package`.
//!
//! License headers, comments between documents, other packages' documents and files holding
//! nothing that changed are untouched; so the changes name only the files that changed. When a
//! file cannot be cut as the loader reads it, or the package has no file yet, `None` tells the
//! caller to write the package's part in the one layout ([`super::rewrite`]).

mod place;
mod scalar;
pub(crate) mod text;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_yaml_ng::Value;

use super::disk::{self, FileChange};
use super::error::CatalogError;
use super::load::{Loaded, file};
use super::model::*;
use super::parse;
use super::write::{bundle_value, channel_value_as_listed, package_value};
use place::{Place, place};
use text::{FileText, ordered_like};

/// `(schema, name)`: what a document is, across the read and the changed model.
pub(super) type Key = (String, String);

/// A document of the package in the changed model.
#[derive(Clone, Copy)]
pub(super) enum Held<'a> {
    Package(&'a PackageDoc),
    Channel(&'a ChannelDoc),
    Bundle(&'a BundleDoc),
    Other(&'a OtherDoc),
}

impl Held<'_> {
    fn key(&self) -> Key {
        match self {
            Held::Package(p) => (SCHEMA_PACKAGE.into(), p.name.clone()),
            Held::Channel(c) => (SCHEMA_CHANNEL.into(), c.name.clone()),
            Held::Bundle(b) => (SCHEMA_BUNDLE.into(), b.name.clone()),
            Held::Other(o) => (o.schema.clone(), name_of(&o.doc)),
        }
    }

    fn value(&self) -> Value {
        match self {
            Held::Package(p) => package_value(p),
            Held::Channel(c) => channel_value_as_listed(c),
            Held::Bundle(b) => bundle_value(b),
            Held::Other(o) => o.doc.clone(),
        }
    }

    /// Whether the document `read` (as the file holds it) is this one, unchanged.
    fn unchanged(&self, read: &Value) -> bool {
        let mut c = Catalog::default();
        if parse::add_doc(&mut c, read.clone(), Origin::default()).is_err() {
            return false;
        }
        match self {
            Held::Package(p) => {
                c.packages.first()
                    == Some(&PackageDoc {
                        origin: Origin::default(),
                        ..(*p).clone()
                    })
            }
            Held::Channel(x) => {
                c.channels.first()
                    == Some(&ChannelDoc {
                        origin: Origin::default(),
                        ..(*x).clone()
                    })
            }
            Held::Bundle(b) => {
                c.bundles.first()
                    == Some(&BundleDoc {
                        origin: Origin::default(),
                        ..(*b).clone()
                    })
            }
            Held::Other(o) => o.doc == *read,
        }
    }
}

fn field(v: &Value, k: &str) -> String {
    v.get(k)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

fn name_of(v: &Value) -> String {
    field(v, "name")
}

fn key_of(v: &Value) -> Key {
    (field(v, "schema"), name_of(v))
}

/// The package a document belongs to (its `package`, or its `name` for `olm.package`).
fn package_of(v: &Value) -> String {
    if field(v, "schema") == SCHEMA_PACKAGE {
        name_of(v)
    } else {
        field(v, "package")
    }
}

/// One change to a file's text: replace `[start, end)` by `text`.
struct Edit {
    start: usize,
    end: usize,
    text: String,
}

/// Where a document is: file and index of the document in it.
pub(super) type At = (String, usize);

/// The changes that write `catalog` (the changed model of the package `loaded` was read for)
/// back into the files it came from; `None` when they cannot be edited in place.
pub(crate) fn plan(
    root: &Path,
    loaded: &Loaded,
    catalog: &Catalog,
) -> Result<Option<Vec<FileChange>>, CatalogError> {
    let Some((package, holding)) = &loaded.package else {
        return Ok(None);
    };
    let mut texts = BTreeMap::new();
    for (rel, _) in holding.iter().filter(|(_, h)| h.package) {
        let bytes = file::checked(root, rel)?;
        let Some(cut) = FileText::cut(rel, String::from_utf8_lossy(&bytes).into_owned()) else {
            return Ok(None);
        };
        texts.insert(rel.clone(), cut);
    }
    if texts.is_empty() {
        return Ok(None);
    }
    let held: Vec<Held> = catalog
        .packages
        .iter()
        .filter(|p| p.name == *package)
        .map(Held::Package)
        .chain(
            catalog
                .channels
                .iter()
                .filter(|c| c.package == *package)
                .map(Held::Channel),
        )
        .chain(
            catalog
                .bundles
                .iter()
                .filter(|b| b.package == *package)
                .map(Held::Bundle),
        )
        .chain(
            catalog
                .others
                .iter()
                .filter(|o| o.package == *package)
                .map(Held::Other),
        )
        .collect();
    let by_key: BTreeMap<Key, Held> = held.iter().map(|h| (h.key(), *h)).collect();
    let mut edits: BTreeMap<String, Vec<Edit>> = BTreeMap::new();
    let mut found: BTreeSet<Key> = BTreeSet::new();
    let mut ours: Vec<(At, Key)> = Vec::new(); // the package's documents as read, in file order
    for (rel, t) in &texts {
        for (i, d) in t.docs.iter().enumerate() {
            if d.value.is_null() || package_of(&d.value) != *package {
                continue;
            }
            let key = key_of(&d.value);
            ours.push(((rel.clone(), i), key.clone()));
            let list = edits.entry(rel.clone()).or_default();
            match by_key.get(&key) {
                None => list.push(Edit {
                    start: d.start,
                    end: d.end,
                    text: String::new(),
                }),
                Some(h) => {
                    found.insert(key);
                    if !h.unchanged(&d.value) {
                        let new = ordered_like(h.value(), &d.value);
                        if let Some((at, text)) = text::append_entries(t, d, &new) {
                            list.push(Edit {
                                start: at,
                                end: at,
                                text,
                            });
                        } else if let Some(lines) = scalar::replace_scalars(t, d, &new) {
                            list.extend(lines.into_iter().map(|l| Edit {
                                start: l.start,
                                end: l.end,
                                text: l.text,
                            }));
                        } else {
                            list.push(Edit {
                                start: d.body.0,
                                end: d.body.1,
                                text: t.render(&new),
                            });
                        }
                    }
                }
            }
        }
    }
    let mut rendered = BTreeMap::new();
    // A new file's name: no folder in it, not hidden, not a file there already.
    let free = |p: &str| {
        let name = p.rsplit('/').next().unwrap_or(p);
        !name.starts_with('.')
            && !name.contains('\\')
            && !holding.contains_key(p)
            && std::fs::symlink_metadata(root.join(p)).is_err()
    };
    for h in held.iter().filter(|h| !found.contains(&h.key())) {
        match place(h, &texts, &ours, &free) {
            Place::After((rel, i)) => {
                let t = &texts[&rel];
                let d = &t.docs[i];
                let at = if t.json { d.body.1 } else { d.end };
                let mut text = t.new_doc(&ordered_like(h.value(), &d.value));
                if !t.json && at > 0 && !t.text[..at].ends_with('\n') {
                    text.insert(0, '\n');
                }
                edits.entry(rel).or_default().push(Edit {
                    start: at,
                    end: at,
                    text,
                });
            }
            Place::NewFile { path, like } => {
                let t = &texts[&like.0];
                let d = &t.docs[like.1];
                let body = t.render(&ordered_like(h.value(), &d.value));
                let head = &t.text[..t.prefix];
                let marker = if !t.json && t.text[d.start..].starts_with("---") {
                    "---\n"
                } else {
                    ""
                };
                let tail = if t.json { "\n" } else { "" };
                rendered.insert(path, format!("{head}{marker}{body}{tail}"));
            }
        }
    }
    for (rel, mut list) in edits {
        let mut text = texts[&rel].text.clone();
        // Last first, so earlier offsets hold; insertions at one place keep their order.
        let order: Vec<usize> = {
            let mut idx: Vec<usize> = (0..list.len()).collect();
            idx.sort_by_key(|&i| (list[i].start, i));
            idx
        };
        for &i in order.iter().rev() {
            let e = std::mem::take(&mut list[i].text);
            text.replace_range(list[i].start..list[i].end, &e);
        }
        rendered.insert(rel, text);
    }
    disk::plan(root, &[], &rendered).map(Some)
}
