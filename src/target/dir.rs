//! The folder release target: assets land in `<root>/<tag>/`, each written atomically; an asset
//! already there with the same sha256 is kept, a different one replaced.

use std::path::Path;

use super::{Asset, TargetError};
use crate::atomic::write_atomic;
use crate::events::{Gate, Write};
use crate::olm::archive::sha256_hex;

/// Attaches `assets` under `<root>/<tag>/`, asking `gate` before each file it writes.
pub(crate) fn publish(
    root: &Path,
    tag: &str,
    assets: &[Asset],
    gate: &dyn Gate,
) -> Result<(), TargetError> {
    if tag.is_empty() || tag.contains(['/', '\\']) || tag == "." || tag == ".." {
        return Err(TargetError::Tag { tag: tag.into() });
    }
    let dir = root.join(tag);
    for asset in assets {
        let path = dir.join(&asset.name);
        let write = Write {
            what: format!("asset {} ({} bytes)", asset.name, asset.bytes.len()),
            target: format!("dir:{}", dir.display()),
            digest: Some(asset.sha256.clone()),
        };
        if std::fs::read(&path)
            .ok()
            .is_some_and(|b| sha256_hex(&b) == asset.sha256)
        {
            gate.kept(write);
            continue;
        }
        if gate.allow(&write) {
            write_atomic(&path, &asset.bytes)
                .map_err(|source| TargetError::Write { path, source })?;
            gate.done(write);
        }
    }
    Ok(())
}
