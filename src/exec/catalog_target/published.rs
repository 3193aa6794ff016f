//! What publishing a catalog change to a target did: written (or found there), skipped by a
//! dry-run, or refused because another job moved the target since it was read.

/// What publishing did.
#[derive(Debug)]
pub(crate) enum Published {
    /// The target holds the change (written now, or found there); a line saying where (a
    /// commit, a pull request).
    Written(String),
    /// A dry-run: the gate skipped the write.
    Skipped,
    /// Someone else changed the target since it was read; nothing of this run landed.
    Moved { reason: String },
}
