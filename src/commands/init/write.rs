//! Writing what [`super::plan`] computed, safe to repeat. Each file is compared with what is
//! there: the same bytes are left alone (`unchanged`), a missing file is written, and a file
//! that differs is replaced only with `--force` — without it nothing at all is written and
//! every such file is named. The CSV to start from is the user's once written: it is never
//! compared or replaced. A rerun over `init`'s own output therefore writes nothing and says so.

use super::error::InitError;
use super::plan::Plan;
use crate::cli::InitArgs;

/// What happens to one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
    Write,
    Replace,
    Unchanged,
    /// The user's (a seed already there).
    Kept,
}

/// Writes `plan` under `--out` or the repository.
pub(crate) fn write(args: &InitArgs, plan: &Plan) -> Result<(), InitError> {
    let root = args.out.as_deref().unwrap_or(&args.source);
    let fates: Vec<Fate> = plan
        .files
        .iter()
        .map(|f| match std::fs::read(root.join(&f.path)) {
            Err(_) => Fate::Write,
            Ok(_) if f.seed => Fate::Kept,
            Ok(bytes) if bytes == f.text.as_bytes() => Fate::Unchanged,
            Ok(_) => Fate::Replace,
        })
        .collect();
    let differ: Vec<String> = plan
        .files
        .iter()
        .zip(&fates)
        .filter(|(_, fate)| **fate == Fate::Replace)
        .map(|(f, _)| f.path.clone())
        .collect();
    if !differ.is_empty() && !args.force {
        return Err(InitError::Exists { files: differ });
    }
    for line in &plan.found_lines {
        eprintln!("found: {line}");
    }
    for (f, fate) in plan.files.iter().zip(&fates) {
        let path = root.join(&f.path);
        match fate {
            Fate::Unchanged => {
                eprintln!("unchanged {}", path.display());
                continue;
            }
            Fate::Kept => {
                eprintln!("kept {} (yours to edit)", path.display());
                continue;
            }
            Fate::Write | Fate::Replace => {}
        }
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|source| InitError::Write {
                path: dir.to_path_buf(),
                source,
            })?;
        }
        olm_release_base::atomic::write_atomic(&path, f.text.as_bytes()).map_err(|source| {
            InitError::Write {
                path: path.clone(),
                source,
            }
        })?;
        let verb = if *fate == Fate::Replace {
            "replaced"
        } else {
            "wrote"
        };
        eprintln!("{verb} {}", path.display());
    }
    if fates
        .iter()
        .all(|f| matches!(f, Fate::Unchanged | Fate::Kept))
    {
        eprintln!("nothing changed: every file init writes is already as it would write it");
    }
    for line in &plan.todo {
        eprintln!("{line}");
    }
    Ok(())
}
