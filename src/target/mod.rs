//! Release targets: where the chosen artifacts of a release are attached — a local folder
//! ([`dir`]) or a GitHub release ([`github`]).
//!
//! Targets take plain data: the [`Asset`]s (name, bytes, sha256) and a request naming the
//! release; they report progress through [`crate::events::Events`] and ask
//! [`crate::events::Gate`] before every write. Which files the assets are is the release step's
//! business ([`crate::exec`]).

pub(crate) mod dir;
pub(crate) mod github;

use crate::olm::archive::sha256_hex;

/// One file to attach.
#[derive(Debug, Clone)]
pub(crate) struct Asset {
    pub(crate) name: String,
    pub(crate) bytes: Vec<u8>,
    /// Hex sha256 of `bytes`.
    pub(crate) sha256: String,
}

impl Asset {
    pub(crate) fn new(name: impl Into<String>, bytes: Vec<u8>) -> Self {
        let sha256 = sha256_hex(&bytes);
        Asset {
            name: name.into(),
            bytes,
            sha256,
        }
    }
}
