//! Release targets: where the chosen artifacts of a release are attached — a local folder
//! ([`dir`]) or a GitHub release ([`github`]).
//!
//! Targets take plain data: the [`Asset`]s (name, bytes, sha256) and a request naming the
//! release; they report progress through [`olm_release_http::events::Events`] and ask
//! [`olm_release_http::events::Gate`] before every write. Which files the assets are is the release step's
//! business ([`crate::exec`]).

pub mod dir;
pub mod github;

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
