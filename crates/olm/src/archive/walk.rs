//! Walking a folder the user names, within the bundle's limits: every file under it, sorted by
//! relative path (with `/`). Symlinks are followed (a folder reached twice is read once, so a
//! link loop ends); devices, FIFOs and sockets are refused without being opened; more files
//! than `Limits::max_entries`, or YAML files larger together than `Limits::max_bytes`, are
//! refused before any is read. Hidden folders (a `.git`, a `.github`) are not descended into:
//! they are listed as folders, so `verify` can report them, and nothing reads them. Both
//! readers of a bundle folder — `verify`'s loader and the bundle reader of `publish` and the
//! pipeline — walk with this, so they see the same files.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::error::ReadError;
use super::model::Limits;
use olm_release_base::input;

/// A file, or a hidden folder, found under a folder.
#[derive(Debug, Clone)]
pub struct Listed {
    /// Path relative to the folder, with `/`; a hidden folder's ends in `/`.
    pub(crate) rel: String,
    pub(crate) path: PathBuf,
    /// A `.yaml` or `.yml` file.
    pub(crate) yaml: bool,
}

/// Every file under `dir` and every hidden folder, sorted by relative path; refuses devices,
/// FIFOs and sockets, more than `limits.max_entries` files, and YAML files larger together
/// than `limits.max_bytes`.
pub fn list(dir: &Path, limits: &Limits) -> Result<Vec<Listed>, ReadError> {
    let shown = dir.display().to_string();
    let mut out: Vec<Listed> = Vec::new();
    let (mut seen, mut pending) = (HashSet::new(), vec![dir.to_path_buf()]);
    let mut total = 0u64;
    while let Some(folder) = pending.pop() {
        let io = |e| ReadError::io(folder.display().to_string(), e);
        if !seen.insert(std::fs::canonicalize(&folder).map_err(io)?) {
            continue;
        }
        for entry in std::fs::read_dir(&folder).map_err(io)? {
            let path = entry.map_err(io)?.path();
            let io = |e| ReadError::io(path.display().to_string(), e);
            let meta = std::fs::metadata(&path).map_err(io)?;
            let rel = path
                .strip_prefix(dir)
                .unwrap_or(&path)
                .to_string_lossy()
                .replace('\\', "/");
            if meta.is_dir() {
                let hidden = path
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'));
                if hidden {
                    out.push(Listed {
                        rel: format!("{rel}/"),
                        path,
                        yaml: false,
                    });
                } else {
                    pending.push(path);
                }
                continue;
            }
            input::regular(&meta).map_err(io)?;
            if out.len() >= limits.max_entries {
                return Err(ReadError::TooManyEntries {
                    what: format!("{shown}: the folder"),
                    limit: limits.max_entries,
                });
            }
            let yaml = rel.ends_with(".yaml") || rel.ends_with(".yml");
            if yaml {
                total = total.saturating_add(meta.len());
            }
            out.push(Listed { rel, path, yaml });
        }
    }
    if total > limits.max_bytes {
        return Err(ReadError::TooLarge {
            what: format!("{shown}: the folder's YAML files ({total} bytes)"),
            limit: limits.max_bytes,
        });
    }
    out.sort_by(|a, b| a.rel.cmp(&b.rel));
    Ok(out)
}
