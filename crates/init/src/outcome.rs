//! What `init` did ([`Outcome`]): what it found in the repository, what became of each file it
//! writes ([`Fate`]), and what is left for the user to do; and the lines `olm-release init`
//! prints for it, in the order it prints them.

use std::path::PathBuf;

/// What became of one file `init` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// It was missing and is written.
    Wrote,
    /// The user changed it since `init` wrote it, and it is replaced (`force`).
    Replaced,
    /// The repository's own file, edited (a line added to `.gitignore`).
    Edited,
    /// It was as `init` last wrote it, and is refreshed with what `init` writes now.
    Refreshed,
    /// The user changed it since `init` wrote it: left as it is (a conflict to resolve).
    Conflict,
    /// `init` wrote it before and writes it no more; the user had not changed it: removed.
    Removed,
    /// It already held what `init` writes.
    Unchanged,
    /// The CSV to start from, already there: the user's to edit, never compared or replaced.
    Kept,
}

/// One file `init` writes and what became of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileFate {
    /// Where it is: under the output folder, else the repository.
    pub path: PathBuf,
    /// What became of it.
    pub fate: Fate,
}

/// What `init` did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    /// What it found, one finding a line (`layout: …`, `package …`, `CRD … in …`).
    pub found: Vec<String>,
    /// Every file it writes, in the order it wrote them.
    pub files: Vec<FileFate>,
    /// What is left to do (variables and secrets to set, the command to try the pipeline).
    pub next_steps: Vec<String>,
}

impl Outcome {
    /// Whether nothing was written or removed (every file as `init` writes it, the user's, or
    /// a conflict left as it is).
    pub fn changed_nothing(&self) -> bool {
        self.files
            .iter()
            .all(|f| matches!(f.fate, Fate::Unchanged | Fate::Kept | Fate::Conflict))
    }

    /// The files the user changed since `init` wrote them, left as they are.
    pub fn conflicts(&self) -> Vec<&FileFate> {
        self.files
            .iter()
            .filter(|f| f.fate == Fate::Conflict)
            .collect()
    }

    /// The lines said while writing: the findings, then one line a file.
    pub fn progress_lines(&self) -> Vec<String> {
        let mut out: Vec<String> = self.found.iter().map(|l| format!("found: {l}")).collect();
        for f in &self.files {
            let path = f.path.display();
            out.push(match f.fate {
                Fate::Wrote => format!("wrote {path}"),
                Fate::Replaced => format!("replaced {path}"),
                Fate::Edited => format!("edited {path} (a line added)"),
                Fate::Refreshed => format!("refreshed {path}"),
                Fate::Removed => format!("removed {path} (init writes it no more)"),
                Fate::Conflict => format!(
                    "conflict: {path} was changed since init wrote it: kept as it is, not refreshed"
                ),
                Fate::Unchanged => format!("unchanged {path}"),
                Fate::Kept => format!("kept {path} (yours to edit)"),
            });
        }
        out
    }

    /// Every line `olm-release init` prints: [`Outcome::progress_lines`], that nothing changed
    /// when nothing did, then the next steps.
    pub fn lines(&self) -> Vec<String> {
        let mut out = self.progress_lines();
        if self.changed_nothing() && self.conflicts().is_empty() {
            out.push(
                "nothing changed: every file init writes is already as it would write it".into(),
            );
        }
        out.extend(self.next_steps.iter().cloned());
        out
    }
}
