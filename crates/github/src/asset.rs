//! One file attached to a release, and what can go wrong attaching files to a folder.

use olm_release_base::Class;
use olm_release_base::digest::sha256_hex;

/// What can go wrong attaching assets to a folder.
#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    /// `release.tag` is empty, `.` or `..`, or holds `/` or `\`, so it cannot name the folder the
    /// assets go in.
    #[error("release.tag '{tag}' cannot name a folder")]
    Tag {
        /// The tag as given.
        tag: String,
    },
    /// An asset is named `NOTES.md`, the file the release notes are written to.
    #[error(
        "an asset is named NOTES.md, where a dir: target writes the release notes; rename the asset or set release.notes: none"
    )]
    NotesClash,
    /// An asset (or the release notes) could not be written.
    #[error("{}: {source}", path.display())]
    Write {
        /// The file being written: `<root>/<tag>/<name>`.
        path: std::path::PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
}

impl olm_release_base::Classified for FolderError {
    fn class(&self) -> Class {
        match self {
            FolderError::Tag { .. } | FolderError::NotesClash => Class::Input,
            FolderError::Write { .. } => Class::Stage,
        }
    }
}

/// One file to attach.
#[derive(Debug, Clone)]
pub struct Asset {
    /// The name it is attached under: the GitHub asset's name, or the file's in the folder.
    pub name: String,
    /// The file's content.
    pub bytes: Vec<u8>,
    /// Hex sha256 of `bytes`.
    pub sha256: String,
}

impl Asset {
    /// The asset `name` holding `bytes`, its sha256 computed.
    pub fn new(name: impl Into<String>, bytes: Vec<u8>) -> Self {
        let sha256 = sha256_hex(&bytes);
        Asset {
            name: name.into(),
            bytes,
            sha256,
        }
    }
}
