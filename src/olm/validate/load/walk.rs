//! Reading the folder `verify` is given, within the bundle's limits: every file under it as
//! (relative path with `/`, bytes), sorted by path. Symlinks are followed (a folder reached
//! twice is read once, so a link loop ends); devices, FIFOs and sockets are refused without
//! being opened; more files than `Limits::max_entries`, or YAML files larger together than
//! `Limits::max_bytes`, are refused before they are read. Only `.yaml`/`.yml` files carry
//! their bytes: nothing reads the others, which are listed so they can be reported. Hidden
//! folders are not descended into (a `.git` can be large) but appear as `<path>/` with no
//! bytes, so they can be reported; hidden files are listed like any other.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::olm::archive::{Files, Limits, ReadError};
use crate::olm::input;

/// Every file under `dir` as (relative path with `/`, bytes), sorted by path.
pub fn read_dir(dir: &Path, limits: &Limits) -> Result<Files, ReadError> {
    let shown = dir.display().to_string();
    let mut listed: Vec<(String, Option<PathBuf>)> = Vec::new();
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
            let rel = path.strip_prefix(dir).unwrap_or(&path);
            let rel = rel.to_string_lossy().replace('\\', "/");
            let hidden = path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'));
            if meta.is_dir() && hidden {
                listed.push((format!("{rel}/"), None));
                continue;
            }
            if meta.is_dir() {
                pending.push(path);
                continue;
            }
            input::regular(&meta).map_err(io)?;
            if listed.len() >= limits.max_entries {
                return Err(ReadError::TooManyEntries {
                    what: format!("{shown}: the folder"),
                    limit: limits.max_entries,
                });
            }
            let yaml = rel.ends_with(".yaml") || rel.ends_with(".yml");
            if yaml {
                total = total.saturating_add(meta.len());
            }
            listed.push((rel, yaml.then_some(path)));
        }
    }
    if total > limits.max_bytes {
        return Err(ReadError::TooLarge {
            what: format!("{shown}: the folder's YAML files ({total} bytes)"),
            limit: limits.max_bytes,
        });
    }
    listed.sort_by(|a, b| a.0.cmp(&b.0));
    listed
        .into_iter()
        .map(|(rel, path)| {
            let bytes = match path {
                Some(p) => input::read(&p, limits.max_bytes)
                    .map_err(|e| ReadError::io(p.display().to_string(), e))?,
                None => Vec::new(),
            };
            Ok((rel, bytes))
        })
        .collect()
}
