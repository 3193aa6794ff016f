//! Writing what [`crate::scaffold`] computed, safe to repeat. Each file is compared with what
//! is there: the same bytes are left alone (`unchanged`), a missing file is written, and a file
//! that differs is replaced only with `force` — without it nothing at all is written and every
//! such file is named. The CSV to start from is the user's once written: it is never compared
//! or replaced; an edit of the repository's own file (`_out/` added to `.gitignore`) is
//! computed from it as it is, so it is written without `force`. A rerun over `init`'s own output therefore writes nothing and says so.

use std::path::Path;

use super::error::InitError;
use super::outcome::{Fate, FileFate, Outcome};
use super::scaffold::Scaffold;

/// What happens to one file before it is written: [`Fate::Wrote`] for a missing one.
fn fate(root: &Path, file: &super::scaffold::ScaffoldFile) -> Fate {
    match std::fs::read(root.join(&file.path)) {
        Err(_) => Fate::Wrote,
        Ok(_) if file.seed => Fate::Kept,
        Ok(bytes) if file.edit && bytes != file.text.as_bytes() => Fate::Edited,
        Ok(bytes) if bytes == file.text.as_bytes() => Fate::Unchanged,
        Ok(_) => Fate::Replaced,
    }
}

/// Writes `scaffold` under `root` (the output folder, else the repository); `force` replaces
/// files that differ. A write that fails part-way returns what was done before it
/// ([`InitError::outcome_so_far`]).
pub(crate) fn write(root: &Path, force: bool, scaffold: Scaffold) -> Result<Outcome, InitError> {
    let fates: Vec<Fate> = scaffold.files.iter().map(|f| fate(root, f)).collect();
    let differ: Vec<String> = scaffold
        .files
        .iter()
        .zip(&fates)
        .filter(|(_, fate)| **fate == Fate::Replaced)
        .map(|(f, _)| f.path.clone())
        .collect();
    if !differ.is_empty() && !force {
        return Err(InitError::Exists { files: differ });
    }
    let mut outcome = Outcome {
        found: scaffold.found_lines,
        files: Vec::new(),
        next_steps: Vec::new(),
    };
    for (f, fate) in scaffold.files.iter().zip(fates) {
        let path = root.join(&f.path);
        if matches!(fate, Fate::Wrote | Fate::Replaced | Fate::Edited) {
            let written = match path.parent() {
                Some(dir) => std::fs::create_dir_all(dir).map_err(|e| (dir.to_path_buf(), e)),
                None => Ok(()),
            }
            .and_then(|()| {
                olm_release_base::atomic::write_atomic(&path, f.text.as_bytes())
                    .map_err(|e| (path.clone(), e))
            });
            if let Err((path, source)) = written {
                return Err(InitError::Write {
                    path,
                    source,
                    so_far: Box::new(outcome),
                });
            }
        }
        outcome.files.push(FileFate { path, fate });
    }
    outcome.next_steps = scaffold.next_steps;
    Ok(outcome)
}
