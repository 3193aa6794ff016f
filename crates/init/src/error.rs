//! Why `init` could not adopt the repository: all input errors (exit 2) but a failed write
//! (exit 1), which keeps what was done before it.

use std::path::PathBuf;

use crate::outcome::Outcome;

/// Why `init` could not adopt the repository.
#[derive(Debug, thiserror::Error)]
pub enum InitError {
    /// The repository could not be read.
    #[error("{}: cannot scan the repository: {source}", dir.display())]
    Scan {
        /// The repository.
        dir: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Nothing in the repository is an operator's.
    #[error(
        "{}: no OLM manifests, CRDs or operator Deployment found; run init in the operator's repository (or pass --source)",
        dir.display()
    )]
    Nothing {
        /// The repository.
        dir: PathBuf,
    },
    /// The GitHub repository asked for is not OWNER/REPO.
    #[error("--github '{0}' is not OWNER/REPO")]
    BadRepo(String),
    /// The operator asked for is not one of the repository's.
    #[error(
        "--operator {asked}: no such operator here; the repository holds {}",
        known.join("; ")
    )]
    NoOperator {
        /// The name asked for.
        asked: String,
        /// The repository's operators, described.
        known: Vec<String>,
    },
    /// A file or folder could not be written.
    #[error("{}: {source}", path.display())]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
        /// What was found and written before it (no next steps).
        so_far: Box<Outcome>,
    },
}

impl InitError {
    /// For a write that failed part-way, what was found and what became of the files before
    /// it, to say before the error.
    pub fn outcome_so_far(&self) -> Option<&Outcome> {
        match self {
            InitError::Write { so_far, .. } => Some(so_far),
            _ => None,
        }
    }
}

impl olm_release_base::Classified for InitError {
    fn class(&self) -> olm_release_base::Class {
        match self {
            InitError::Write { .. } => olm_release_base::Class::Stage,
            _ => olm_release_base::Class::Input,
        }
    }
}
