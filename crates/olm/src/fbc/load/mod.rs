//! The one catalog loader: `graph`, `verify`, fetch-previous, the catalog stage and `migrate` read
//! catalog folders through it, so they refuse the same files with the same messages and exit
//! codes (every problem with a catalog file is an input error, exit 2: too large, not a regular
//! file, not UTF-8, nested too deep, too many values, an alias bomb, not YAML or JSON, a field of
//! the wrong shape) — see [`file`] — and they find the same files ([`walk`]).
//!
//! Three scopes, one reader:
//! - [`read`]: every document in full (tools that rewrite a whole catalog).
//! - [`read_summary`]: every document, with the large property values (`olm.bundle.object`,
//!   `olm.csv.metadata`) dropped as they are read, so memory follows the number of documents,
//!   not the catalog's size (`graph`, `verify`): such a catalog is never written back.
//! - [`read_package`]: one package's part in full, for the release that adds to it. When the
//!   catalog is laid out one folder per package (no catalog file at its root, as OperatorHub's
//!   catalogs and `opm migrate` lay them out), only the package's own folder is opened, so the
//!   cost of a release does not grow with the other packages; otherwise every file is read, the
//!   other packages' documents summarised, and a file holding both the package's documents and
//!   others' is read again in full so it can be rewritten without losing them.

pub(crate) mod file;
pub mod walk;

use std::collections::BTreeMap;
use std::path::Path;

use serde_yaml_ng::Value;

use super::error::CatalogError;
use super::model::{Catalog, PROPERTY_BUNDLE_OBJECT, PROPERTY_CSV_METADATA};
use super::parse;

use walk::Links;

pub use walk::is_catalog;

/// What a catalog file held, for writing one package's part back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Holding {
    /// It holds documents of the package read in full.
    pub package: bool,
    /// It holds other documents (other packages', or documents of no package).
    pub other: bool,
}

/// A catalog read from a folder, with the files it came from.
#[derive(Debug, Clone, Default)]
pub struct Loaded {
    /// The documents read.
    pub catalog: Catalog,
    /// The catalog files read, relative to the root, with `/`, sorted.
    pub files: Vec<String>,
    /// For [`read_package`]: the package, and what each file read held.
    pub package: Option<(String, BTreeMap<String, Holding>)>,
    /// For [`read_package`]: how many other packages' folders were left unopened.
    pub unopened: usize,
    /// Whether large property values were dropped from documents (never written back).
    pub summarised: bool,
}

/// The root's state: absent (an empty catalog), or a folder.
fn open_root(root: &Path) -> Result<bool, CatalogError> {
    match std::fs::metadata(root) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(CatalogError::io(root, e)),
        Ok(m) if !m.is_dir() => Err(CatalogError::NotAFolder { path: root.into() }),
        Ok(_) => Ok(true),
    }
}

/// Drops the large property values of the bundle documents of `catalog` from index `from` on.
fn summarise(catalog: &mut Catalog, from: usize) {
    for b in &mut catalog.bundles[from..] {
        for p in &mut b.properties {
            if p.type_ == PROPERTY_BUNDLE_OBJECT || p.type_ == PROPERTY_CSV_METADATA {
                p.value = Value::Null;
            }
        }
    }
}

/// The package a document belongs to (its `package`, or its `name` for `olm.package`).
fn package_of(value: &Value) -> &str {
    let field = |k: &str| value.get(k).and_then(Value::as_str).unwrap_or_default();
    if field("schema") == "olm.package" {
        field("name")
    } else {
        field("package")
    }
}

/// Reads `files` under `root` into `loaded`: documents of `keep` (or all, with `None` and
/// `!summary`) in full, others summarised; records what each file held.
fn read_files(
    root: &Path,
    files: Vec<String>,
    keep: Option<&str>,
    summary: bool,
    loaded: &mut Loaded,
) -> Result<(), CatalogError> {
    let mut holding = BTreeMap::new();
    for rel in &files {
        let bytes = file::checked(root, rel)?;
        let mut held = Holding::default();
        file::documents(rel, &bytes, |value, origin| {
            let ours = keep.is_some_and(|k| package_of(&value) == k);
            held.package |= ours;
            held.other |= !ours;
            let from = loaded.catalog.bundles.len();
            parse::add_doc(&mut loaded.catalog, value, origin)?;
            if summary || (keep.is_some() && !ours) {
                summarise(&mut loaded.catalog, from);
            }
            Ok(())
        })?;
        holding.insert(rel.clone(), held);
    }
    // A file holding the package's documents and others' is rewritten: read it again in full.
    if let Some(k) = keep {
        for (rel, held) in &holding {
            if held.package && held.other {
                refill(root, rel, k, &mut loaded.catalog)?;
            }
        }
        loaded.package = Some((k.to_string(), holding));
    }
    loaded.files = files;
    loaded.summarised = summary;
    Ok(())
}

/// Replaces the summarised documents read from `rel` by their full reading.
fn refill(root: &Path, rel: &str, keep: &str, catalog: &mut Catalog) -> Result<(), CatalogError> {
    let bytes = file::checked(root, rel)?;
    let mut full = Catalog::default();
    file::documents(rel, &bytes, |value, origin| {
        if package_of(&value) == keep {
            return Ok(()); // already in full
        }
        parse::add_doc(&mut full, value, origin)
    })?;
    for b in full.bundles {
        if let Some(slot) = catalog.bundles.iter_mut().find(|x| x.origin == b.origin) {
            *slot = b;
        }
    }
    Ok(())
}

/// Reads every document under `root` in full (a missing root is an empty catalog).
pub fn read(root: &Path) -> Result<Loaded, CatalogError> {
    let mut loaded = Loaded::default();
    if !open_root(root)? {
        return Ok(loaded);
    }
    let mut files = Vec::new();
    walk::files(root, "", Links::Follow, &mut files)?;
    read_files(root, files, None, false, &mut loaded)?;
    Ok(loaded)
}

/// Reads every document under `root`, dropping large property values as they are read.
pub fn read_summary(root: &Path) -> Result<Loaded, CatalogError> {
    let mut loaded = Loaded::default();
    if !open_root(root)? {
        return Ok(loaded);
    }
    let mut files = Vec::new();
    walk::files(root, "", Links::Follow, &mut files)?;
    read_files(root, files, None, true, &mut loaded)?;
    Ok(loaded)
}

/// Reads the part of the catalog at `root` that `package`'s release needs (see the module doc).
///
/// The catalog is one the release writes back, so no symbolic link is followed: the root being
/// a link, or a link among the root's entries or under the package's folder, is refused
/// ([`CatalogError::Link`]) before anything is read through it.
pub fn read_package(root: &Path, package: &str) -> Result<Loaded, CatalogError> {
    let mut loaded = Loaded::default();
    olm_release_base::links::no_link(root, root).map_err(CatalogError::Link)?;
    if !open_root(root)? {
        return Ok(loaded);
    }
    let top = walk::entries(root, "", Links::Refuse)?;
    let per_package = top
        .iter()
        .all(|(name, is_dir)| *is_dir || !walk::is_catalog_file(name));
    let mut files = Vec::new();
    if per_package {
        for (name, _) in &top {
            if name == package {
                walk::files(root, name, Links::Refuse, &mut files)?;
            } else {
                loaded.unopened += 1;
            }
        }
    } else {
        walk::files(root, "", Links::Refuse, &mut files)?;
    }
    read_files(root, files, Some(package), false, &mut loaded)?;
    Ok(loaded)
}
