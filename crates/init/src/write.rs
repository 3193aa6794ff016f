//! Writing what [`crate::scaffold`] computed, safe to repeat. Each file is compared with what
//! is there and with what `init` last wrote there ([`super::written`]): the same bytes are left
//! alone (`unchanged`), a missing file is written, a file still as `init` last wrote it is
//! refreshed, and a file the user changed since is left as it is and named as a conflict
//! (with `force` it is replaced). A file `init` wrote before and writes no more (a manifest
//! gone from a kustomize snapshot) is removed when the user did not change it. The CSV to
//! start from is the user's once written: never compared or replaced. An edit of the
//! repository's own file (`_out/` added to `.gitignore`) is computed from it as it is, so it is
//! written without `force`, and never recorded as `init`'s. A rerun over `init`'s own output
//! therefore writes nothing and says so.

use std::path::Path;

use super::error::InitError;
use super::outcome::{Fate, FileFate, Outcome};
use super::scaffold::{Scaffold, ScaffoldFile};
use super::written::{self, Written};

/// What happens to one file.
fn fate(root: &Path, file: &ScaffoldFile, record: &Written, force: bool) -> Fate {
    match std::fs::read(root.join(&file.path)) {
        Err(_) => Fate::Wrote,
        Ok(_) if file.seed => Fate::Kept,
        Ok(bytes) if bytes == file.text.as_bytes() => Fate::Unchanged,
        Ok(_) if file.edit => Fate::Edited,
        Ok(bytes) if record.is_ours(&file.path, &bytes) => Fate::Refreshed,
        Ok(_) if force => Fate::Replaced,
        Ok(_) => Fate::Conflict,
    }
}

/// Writes `scaffold` under `root` (the output folder, else the repository); `force` replaces
/// files the user changed. A write that fails part-way returns what was done before it
/// ([`InitError::outcome_so_far`]).
pub(crate) fn write(root: &Path, force: bool, scaffold: Scaffold) -> Result<Outcome, InitError> {
    let old = Written::read(root);
    let mut record = Written::default();
    let mut conflicts: Vec<String> = Vec::new();
    let mut outcome = Outcome {
        found: scaffold.found_lines,
        files: Vec::new(),
        next_steps: Vec::new(),
    };
    let fail = |path: &Path, source, outcome: Outcome| InitError::Write {
        path: path.to_path_buf(),
        source,
        so_far: Box::new(outcome),
    };
    for f in &scaffold.files {
        let fate = fate(root, f, &old, force);
        let path = root.join(&f.path);
        if matches!(
            fate,
            Fate::Wrote | Fate::Replaced | Fate::Refreshed | Fate::Edited
        ) && let Err((at, e)) = put(&path, f.text.as_bytes())
        {
            return Err(fail(&at, e, outcome));
        }
        match fate {
            // The CSV to start from is the user's once written, and an edit of the repository's
            // own file (`.gitignore`) stays the repository's: never recorded (so never removed).
            _ if f.seed || f.edit => {}
            // Still the user's: the old digest stays, so the next run says so again.
            Fate::Conflict => record
                .0
                .extend(old.0.get(&f.path).map(|d| (f.path.clone(), d.clone()))),
            _ => record.record(&f.path, f.text.as_bytes()),
        }
        if fate == Fate::Conflict {
            conflicts.push(f.path.clone());
        }
        outcome.files.push(FileFate { path, fate });
    }
    for (rel, _) in old
        .0
        .iter()
        .filter(|(p, _)| !scaffold.files.iter().any(|f| f.path == **p))
    {
        let path = root.join(rel);
        match std::fs::read(&path) {
            Ok(bytes) if old.is_ours(rel, &bytes) || force => {
                if let Err(e) = std::fs::remove_file(&path) {
                    return Err(fail(&path, e, outcome));
                }
                outcome.files.push(FileFate {
                    path,
                    fate: Fate::Removed,
                });
            }
            Ok(_) => {
                record
                    .0
                    .extend(old.0.get(rel).map(|d| (rel.clone(), d.clone())));
                conflicts.push(rel.clone());
                outcome.files.push(FileFate {
                    path,
                    fate: Fate::Conflict,
                });
            }
            Err(_) => {}
        }
    }
    if record != old {
        let path = root.join(written::PATH);
        if let Err((at, e)) = put(&path, record.text().as_bytes()) {
            return Err(fail(&at, e, outcome));
        }
    }
    outcome.next_steps = scaffold.next_steps;
    if !conflicts.is_empty() {
        let first = &conflicts[0];
        outcome.next_steps.insert(
            0,
            format!(
                "resolve the conflict{} ({}): see what init writes now with `olm-release init --out _out/init` (with the options you gave) and `diff -u {first} _out/init/{first}`; `sha256sum -c {}` lists what changed since init wrote it; --force replaces {}",
                if conflicts.len() == 1 { "" } else { "s" },
                conflicts.join(", "),
                written::PATH,
                if conflicts.len() == 1 { "it" } else { "them" },
            ),
        );
    }
    Ok(outcome)
}

/// Writes `bytes` at `path`, creating its folder.
fn put(path: &Path, bytes: &[u8]) -> Result<(), (std::path::PathBuf, std::io::Error)> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| (dir.to_path_buf(), e))?;
    }
    olm_release_base::atomic::write_atomic(path, bytes).map_err(|e| (path.to_path_buf(), e))
}
