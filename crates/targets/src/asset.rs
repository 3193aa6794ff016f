//! One file attached to a release, and what can go wrong attaching files to a folder.

use olm_release_base::Class;
use olm_release_base::digest::sha256_hex;

/// What can go wrong attaching assets to a folder.
#[derive(Debug, thiserror::Error)]
pub enum TargetError {
    #[error("release.tag '{tag}' cannot name a folder")]
    Tag { tag: String },
    #[error(
        "an asset is named NOTES.md, where a dir: target writes the release notes; rename the asset or set release.notes: none"
    )]
    NotesClash,
    #[error("{}: {source}", path.display())]
    Write {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl olm_release_base::Classified for TargetError {
    fn class(&self) -> Class {
        match self {
            TargetError::Tag { .. } | TargetError::NotesClash => Class::Input,
            TargetError::Write { .. } => Class::Stage,
        }
    }
}

/// One file to attach.
#[derive(Debug, Clone)]
pub struct Asset {
    pub name: String,
    pub bytes: Vec<u8>,
    /// Hex sha256 of `bytes`.
    pub sha256: String,
}

impl Asset {
    pub fn new(name: impl Into<String>, bytes: Vec<u8>) -> Self {
        let sha256 = sha256_hex(&bytes);
        Asset {
            name: name.into(),
            bytes,
            sha256,
        }
    }
}
