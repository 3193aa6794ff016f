//! The folder that stands in for a GitHub release: assets land in `<root>/<tag>/`, each written atomically; an asset
//! already there with the same sha256 is kept, a different one replaced. The release notes, when
//! there are any, are written beside them as `NOTES.md` the same way (no notes leave an existing
//! `NOTES.md` alone, as a GitHub release keeps its body).

use std::path::Path;

use super::{Asset, FolderError};
use olm_release_base::atomic::write_atomic;
use olm_release_base::digest::sha256_hex;
use olm_release_http::events::{Gate, Write};

/// The file the release notes are written to, beside the assets.
pub(crate) const NOTES: &str = "NOTES.md";

/// Attaches `assets` (and `notes` as `NOTES.md`) under `<root>/<tag>/`, asking `gate` before
/// each file it writes.
pub fn publish(
    root: &Path,
    tag: &str,
    assets: &[Asset],
    notes: Option<&str>,
    gate: &dyn Gate,
) -> Result<(), FolderError> {
    if tag.is_empty() || tag.contains(['/', '\\']) || tag == "." || tag == ".." {
        return Err(FolderError::Tag { tag: tag.into() });
    }
    if notes.is_some() && assets.iter().any(|a| a.name == NOTES) {
        return Err(FolderError::NotesClash);
    }
    let dir = root.join(tag);
    let notes = notes.map(|n| Asset::new(NOTES, n.as_bytes().to_vec()));
    for (asset, what) in assets
        .iter()
        .map(|a| (a, "asset"))
        .chain(notes.iter().map(|n| (n, "release notes")))
    {
        let path = dir.join(&asset.name);
        let write = Write {
            what: format!("{what} {} ({} bytes)", asset.name, asset.bytes.len()),
            target: format!("dir:{}", dir.display()),
            digest: Some(asset.sha256.clone()),
        };
        // A file larger than the asset differs from it: read no more than the asset's size.
        if olm_release_base::input::read(&path, asset.bytes.len() as u64)
            .ok()
            .is_some_and(|b| sha256_hex(&b) == asset.sha256)
        {
            gate.kept(write);
            continue;
        }
        if gate.allow(&write) {
            write_atomic(&path, &asset.bytes)
                .map_err(|source| FolderError::Write { path, source })?;
            gate.done(write);
        }
    }
    Ok(())
}
