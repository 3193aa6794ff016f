//! Which files of a folder are catalog files, as opm's loader decides (olm-docs
//! "file-based-catalogs"): every `.yaml`, `.yml` and `.json` file under the root, hidden files
//! and folders skipped, in sorted order; and whether a folder is a catalog at all
//! ([`is_catalog`]), decided from the first bytes of its files rather than from whether they
//! parse, so a broken catalog file is reported as the catalog file it is.

use std::io::Read;
use std::path::Path;

use super::super::error::CatalogError;

/// What a listing does with a symbolic link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Links {
    /// A link to a folder is walked as a folder, a link to a file read as a file (`graph`,
    /// `verify`: folders the user names).
    Follow,
    /// A link is refused, naming it and where it points ([`CatalogError::Link`]): the catalog
    /// of a target, which the run writes back.
    Refuse,
}

pub(crate) fn is_catalog_file(name: &str) -> bool {
    [".yaml", ".yml", ".json"].iter().any(|e| name.ends_with(e))
}

/// The entries of the folder `rel` under `root`: (name, is a folder), hidden ones left out,
/// sorted by name; `links`: what a link is.
pub(crate) fn entries(
    root: &Path,
    rel: &str,
    links: Links,
) -> Result<Vec<(String, bool)>, CatalogError> {
    let dir = root.join(rel);
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).map_err(|e| CatalogError::io(&dir, e))? {
        let entry = entry.map_err(|e| CatalogError::io(&dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let kind = entry
            .file_type()
            .map_err(|e| CatalogError::io(entry.path(), e))?;
        if kind.is_symlink() && links == Links::Refuse {
            return Err(CatalogError::Link(olm_release_base::links::refused(
                root,
                &entry.path(),
            )));
        }
        // A link to a folder is followed as a folder.
        let is_dir = kind.is_dir() || (kind.is_symlink() && entry.path().is_dir());
        out.push((name, is_dir));
    }
    out.sort();
    Ok(out)
}

fn join(rel: &str, name: &str) -> String {
    if rel.is_empty() {
        name.to_string()
    } else {
        format!("{rel}/{name}")
    }
}

/// Every catalog file under the folder `rel` of `root`, relative to `root`, sorted.
pub(crate) fn files(
    root: &Path,
    rel: &str,
    links: Links,
    out: &mut Vec<String>,
) -> Result<(), CatalogError> {
    for (name, is_dir) in entries(root, rel, links)? {
        let child = join(rel, &name);
        if is_dir {
            files(root, &child, links, out)?;
        } else if is_catalog_file(&name) {
            out.push(child);
        }
    }
    Ok(())
}

/// How many bytes of each file [`is_catalog`] looks at.
const SNIFF_BYTES: u64 = 64 << 10;

/// Whether `dir` is a file-based catalog: one of its catalog files opens with a document that
/// names a `schema` (`schema:` at the start of a line, or a JSON `"schema"` key, within its first
/// 64 KiB). Bundle folders never do: Kubernetes manifests and package files have no top-level
/// `schema`. Only the first bytes of each file are read, and only regular files.
pub fn is_catalog(dir: &Path) -> bool {
    let mut found = Vec::new();
    if files(dir, "", Links::Follow, &mut found).is_err() {
        return false;
    }
    found.iter().any(|rel| {
        let path = dir.join(rel);
        let regular = std::fs::metadata(&path).is_ok_and(|m| m.is_file());
        let mut head = Vec::new();
        let read = regular
            && std::fs::File::open(&path)
                .and_then(|f| f.take(SNIFF_BYTES).read_to_end(&mut head))
                .is_ok();
        read && names_schema(&head, rel.ends_with(".json"))
    })
}

fn names_schema(head: &[u8], json: bool) -> bool {
    let text = String::from_utf8_lossy(head);
    if json {
        return text.contains("\"schema\"");
    }
    text.lines()
        .any(|l| l.starts_with("schema:") || l.starts_with("\"schema\":"))
}
