//! A catalog folder on disk: read it through the one loader ([`super::load`], re-exported here
//! as [`read`], [`read_summary`] and [`read_package`]), work out what writing a model changes,
//! and apply those changes.
//!
//! Writing is split so a dry-run can show exactly what a real run would write: [`plan`] compares
//! the rendered layout ([`super::write::render`]) with the files on disk and returns only the
//! changes (new and changed files, and files of another layout that the chosen one replaces);
//! [`diff`] shows them; [`apply`] performs them, each file written to a temporary name and
//! renamed, so a reader never sees half a file (and the temporary files a killed run left in a
//! folder are removed by the next write there). Nothing changes when nothing differs. No
//! symbolic link is read or written through ([`olm_release_base::links`]): a link on the way to
//! a file is refused, naming it and where it points.

use std::collections::BTreeMap;
use std::path::Path;

use super::error::CatalogError;
use super::model::Catalog;
use olm_release_base::input;

pub use super::load::{Loaded, read, read_package, read_summary};

/// One file to write or remove, relative to the catalog root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileChange {
    /// The file's path relative to the catalog root, with `/`.
    pub path: String,
    /// What is there now (`None`: a new file).
    pub(crate) old: Option<String>,
    /// What it becomes (`None`: the file is removed).
    pub new: Option<String>,
}

/// The changes that make the folder at `root` hold exactly `rendered`: files whose content
/// differs, and the catalog files read before (`read_files`) that the layout no longer has.
pub fn plan(
    root: &Path,
    read_files: &[String],
    rendered: &BTreeMap<String, String>,
) -> Result<Vec<FileChange>, CatalogError> {
    let mut changes = Vec::new();
    for (rel, new) in rendered {
        let path = inside(root, rel)?;
        let old = match input::read(&path, input::MAX_FILE_BYTES) {
            Ok(bytes) => Some(String::from_utf8_lossy(&bytes).into_owned()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(CatalogError::io(&path, e)),
        };
        if old.as_deref() != Some(new.as_str()) {
            changes.push(FileChange {
                path: rel.clone(),
                old,
                new: Some(new.clone()),
            });
        }
    }
    for rel in read_files.iter().filter(|f| !rendered.contains_key(*f)) {
        let path = inside(root, rel)?;
        let old =
            input::read(&path, input::MAX_FILE_BYTES).map_err(|e| CatalogError::io(&path, e))?;
        changes.push(FileChange {
            path: rel.clone(),
            old: Some(String::from_utf8_lossy(&old).into_owned()),
            new: None,
        });
    }
    Ok(changes)
}

/// The changes as one unified diff (`a/…` before, `b/…` after; empty when nothing changes).
pub fn diff(changes: &[FileChange]) -> String {
    let mut out = String::new();
    for c in changes {
        let old_name = match c.old {
            Some(_) => format!("a/{}", c.path),
            None => "/dev/null".into(),
        };
        let new_name = match c.new {
            Some(_) => format!("b/{}", c.path),
            None => "/dev/null".into(),
        };
        let (old, new) = (
            c.old.as_deref().unwrap_or(""),
            c.new.as_deref().unwrap_or(""),
        );
        if old != new {
            let text = similar::TextDiff::from_lines(old, new)
                .unified_diff()
                .context_radius(3)
                .header(&old_name, &new_name)
                .to_string();
            out.push_str(&text);
        }
    }
    out
}

/// Performs `changes` under `root`: writes through a temporary file and a rename; removes
/// files the layout replaced, and folders they leave empty.
pub fn apply(root: &Path, changes: &[FileChange]) -> Result<(), CatalogError> {
    for c in changes {
        let path = inside(root, &c.path)?;
        match &c.new {
            Some(text) => write_atomic(&path, text.as_bytes())?,
            None => {
                std::fs::remove_file(&path).map_err(|e| CatalogError::io(&path, e))?;
                let mut dir = path.parent().map(Path::to_path_buf);
                while let Some(d) = dir.filter(|d| d.starts_with(root) && d != root) {
                    if std::fs::remove_dir(&d).is_err() {
                        break; // not empty
                    }
                    dir = d.parent().map(Path::to_path_buf);
                }
            }
        }
    }
    Ok(())
}

/// `root/rel`, refused when the root or any folder or file on the way is a symbolic link: a
/// write never goes through one (out of the catalog, or replacing a linked catalog file by what
/// it points to), and no file is read through one into the diff.
fn inside(root: &Path, rel: &str) -> Result<std::path::PathBuf, CatalogError> {
    olm_release_base::links::join(root, rel).map_err(CatalogError::Link)
}

/// Checks the catalog folder a `dir:` target names before it is locked or read: no component
/// of a relative path (from the working folder), nor the last one of an absolute path, is a
/// symbolic link.
pub fn check_folder(path: &Path) -> Result<(), CatalogError> {
    olm_release_base::links::no_link_in(path).map_err(CatalogError::Link)
}

/// [`olm_release_base::atomic::write_atomic`]: the temporary `.NAME.tmp-PID` of a killed run is removed
/// by the next write in its folder.
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), CatalogError> {
    olm_release_base::atomic::write_atomic(path, bytes).map_err(|e| CatalogError::io(path, e))
}

/// Renders `catalog` in the chosen layout and writes what changed; returns the changes made.
pub fn write(
    root: &Path,
    catalog: &Catalog,
    read_files: &[String],
) -> Result<Vec<FileChange>, CatalogError> {
    let rendered = super::write::render(catalog)?;
    let changes = plan(root, read_files, &rendered)?;
    apply(root, &changes)?;
    Ok(changes)
}
