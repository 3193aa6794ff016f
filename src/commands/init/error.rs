//! Why `init` could not scaffold: all input errors (exit 2) but a failed write (exit 1).

use std::path::PathBuf;

/// Why `init` could not scaffold.
#[derive(Debug, thiserror::Error)]
pub(crate) enum InitError {
    #[error("{}: cannot scan the repository: {source}", dir.display())]
    Scan {
        dir: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "{}: no OLM manifests, CRDs or operator Deployment found; run init in the operator's repository (or pass --source)",
        dir.display()
    )]
    Nothing { dir: PathBuf },
    #[error("--github '{0}' is not OWNER/REPO")]
    BadRepo(String),
    #[error(
        "--operator {asked}: no such operator here; the repository holds {}",
        known.join("; ")
    )]
    NoOperator { asked: String, known: Vec<String> },
    #[error(
        "not overwriting {}: {}; pass --force to replace {}, or --out DIR to write elsewhere",
        files.join(", "),
        if files.len() == 1 { "it differs from what init writes now" } else { "they differ from what init writes now" },
        if files.len() == 1 { "it" } else { "them" }
    )]
    Exists { files: Vec<String> },
    #[error("{}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl olm_release_base::Classified for InitError {
    fn class(&self) -> olm_release_base::Class {
        match self {
            InitError::Write { .. } => olm_release_base::Class::Stage,
            _ => olm_release_base::Class::Input,
        }
    }
}
