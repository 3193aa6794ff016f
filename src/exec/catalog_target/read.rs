//! A target's catalog as one kind of target reads it: the local folder holding the files, how
//! it reads in messages, whether the target held none yet, and what that kind holds on to until
//! the change is published (a lock, a scratch checkout, the digest read).

use std::path::PathBuf;

/// A catalog read from a target, with `H`, what its kind holds on to.
pub(crate) struct Read<H> {
    /// The folder holding the catalog files.
    pub(crate) dir: PathBuf,
    /// How the catalog reads in messages.
    pub(crate) shown: String,
    /// The target holds no catalog yet (no folder, branch or tag).
    pub(crate) fresh: bool,
    /// What the kind holds on to.
    pub(crate) held: H,
}
