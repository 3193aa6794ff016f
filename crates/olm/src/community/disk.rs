//! A community package folder read from disk into [`PackageFiles`]: `ci.yaml`,
//! `catalog-templates/*` and each version folder's `manifests/`, `metadata/` and
//! `tests/scorecard/` (nothing else is opened: `bundle.Dockerfile`, the pipeline's
//! `release-config.yaml`), each file through [`olm_release_base::input`] (regular files only,
//! within the bundle size limit), so a link, a FIFO or a device in the folder is refused without
//! being followed or opened.

use std::path::Path;

use super::model::PackageFiles;
use super::top::TEMPLATES_DIR;
use olm_release_base::input;

/// Whether `dir` looks like a community package folder: a `ci.yaml`, or a folder holding
/// `manifests/` and `metadata/`.
pub fn is_package_folder(dir: &Path) -> bool {
    if dir.join("ci.yaml").is_file() {
        return true;
    }
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.filter_map(Result::ok).any(|e| {
            let p = e.path();
            p.join("manifests").is_dir() && p.join("metadata").is_dir()
        })
    })
}

/// The files of the package folder `dir` the layout reader reads, each within `max_bytes` (the
/// version folders' own limit is the reader's) and all of them within
/// [`crate::history::TREE_FACTOR`] times it.
pub fn read_folder(dir: &Path, max_bytes: u64) -> Result<PackageFiles, String> {
    let fail = |path: &Path, e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let whole = max_bytes.saturating_mul(crate::history::TREE_FACTOR);
    let mut files = PackageFiles::new();
    let mut total = 0u64;
    let mut read = |rel: String, path: &Path| -> Result<(), String> {
        let bytes = input::read(path, max_bytes).map_err(|e| fail(path, &e))?;
        total += bytes.len() as u64;
        if total > whole {
            return Err(format!(
                "{}: the package folder's files together pass {} times the bundle size limit, {whole} bytes (at {rel}); raise it with --max-bundle-bytes if the package is really that large",
                dir.display(),
                crate::history::TREE_FACTOR
            ));
        }
        files.insert(rel, bytes);
        Ok(())
    };
    let entries = |d: &Path| -> Result<Vec<(String, std::fs::FileType)>, String> {
        let mut out = Vec::new();
        for e in std::fs::read_dir(d).map_err(|e| fail(d, &e))? {
            let e = e.map_err(|e| fail(d, &e))?;
            let kind = e.file_type().map_err(|err| fail(&e.path(), &err))?;
            out.push((e.file_name().to_string_lossy().into_owned(), kind));
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(out)
    };
    for (name, kind) in entries(dir)? {
        let path = dir.join(&name);
        if name.starts_with('.') {
            continue;
        }
        if name == "ci.yaml" {
            read(name, &path)?;
            continue;
        }
        if !kind.is_dir() {
            continue;
        }
        let mut stack = vec![(name.clone(), path)];
        while let Some((rel, at)) = stack.pop() {
            for (child, kind) in entries(&at)? {
                let (rel, path) = (format!("{rel}/{child}"), at.join(&child));
                let inside = rel.split_once('/').map(|(_, r)| r).unwrap_or_default();
                let wanted = name == TEMPLATES_DIR
                    || ["manifests", "metadata", "tests"]
                        .iter()
                        .any(|w| inside == *w || inside.starts_with(&format!("{w}/")));
                if !wanted {
                    continue;
                }
                if kind.is_dir() {
                    stack.push((rel, path));
                } else {
                    read(rel, &path)?;
                }
            }
        }
    }
    Ok(files)
}
