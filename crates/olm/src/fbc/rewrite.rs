//! Writing back what was read: the whole catalog in the one layout ([`super::write::render`]),
//! or, for a catalog read for one package ([`super::load::read_package`]), that package's part
//! only, so a release never rewrites other packages' files. Where the catalog already holds the
//! package, its files are edited in place (`super::edit`: layout, headers, comments, key order
//! and untouched documents kept); otherwise:
//!
//! - the package's documents go to `<root>/<package>/catalog.yaml`;
//! - a file that held only the package's documents elsewhere is removed (it moved);
//! - a file that held the package's documents and others keeps the others, rewritten in their
//!   reading order without the package's;
//! - every other file is left alone, byte for byte.

use std::collections::BTreeMap;
use std::path::Path;

use serde_yaml_ng::Value;

use super::disk::{self, FileChange};
use super::error::CatalogError;
use super::load::Loaded;
use super::model::{Catalog, Origin};
use super::write::{self, bundle_value, channel_value, package_value, push_doc};

/// The changes that write `catalog` (the model `loaded` was read into, changed) to `root`.
pub fn plan(
    root: &Path,
    loaded: &Loaded,
    catalog: &Catalog,
) -> Result<Vec<FileChange>, CatalogError> {
    if loaded.summarised {
        return Err(CatalogError::Internal(
            "a summarised catalog cannot be written back".into(),
        ));
    }
    if let Some(changes) = super::edit::plan(root, loaded, catalog)? {
        return Ok(changes);
    }
    let Some((package, holding)) = &loaded.package else {
        let rendered = write::render(catalog)?;
        return disk::plan(root, &loaded.files, &rendered);
    };
    let target = write::package_file(package)?;
    let mut rendered = BTreeMap::new();
    let mut own = write::render_package(catalog, package);
    if holding.get(&target).is_some_and(|h| h.other) {
        own.push_str(&others_of(catalog, &target, package));
    }
    rendered.insert(target.clone(), own);
    let mut removed = Vec::new();
    for (file, held) in holding {
        if !held.package || *file == target {
            continue;
        }
        if held.other {
            rendered.insert(file.clone(), others_of(catalog, file, package));
        } else {
            removed.push(file.clone());
        }
    }
    disk::plan(root, &removed, &rendered)
}

/// The documents read from `file` that are not `package`'s, rendered in their reading order.
fn others_of(catalog: &Catalog, file: &str, package: &str) -> String {
    let from = |o: &Origin| o.file == file;
    let mut docs: Vec<(usize, Value)> = Vec::new();
    let versions = Default::default();
    for p in catalog
        .packages
        .iter()
        .filter(|p| from(&p.origin) && p.name != package)
    {
        docs.push((p.origin.document, package_value(p)));
    }
    for c in catalog
        .channels
        .iter()
        .filter(|c| from(&c.origin) && c.package != package)
    {
        docs.push((c.origin.document, channel_value(c, &versions)));
    }
    for b in catalog
        .bundles
        .iter()
        .filter(|b| from(&b.origin) && b.package != package)
    {
        docs.push((b.origin.document, bundle_value(b)));
    }
    for o in catalog
        .others
        .iter()
        .filter(|o| from(&o.origin) && o.package != package)
    {
        docs.push((o.origin.document, o.doc.clone()));
    }
    docs.sort_by_key(|(d, _)| *d);
    let mut out = String::new();
    for (_, doc) in docs {
        push_doc(&mut out, &doc);
    }
    out
}
