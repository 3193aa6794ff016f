//! The folder release target: assets land in `<root>/<tag>/`, each written atomically; an asset
//! already there with the same sha256 is kept, a different one replaced.

use std::path::Path;

use super::Asset;
use crate::error::{Error, Result};
use crate::olm::archive::sha256_hex;
use crate::registry::dir::write_atomic;
use crate::report::Write;
use crate::stages::Ctx;

pub fn publish(ctx: &Ctx<'_>, root: &Path, tag: &str, assets: &[Asset]) -> Result<()> {
    if tag.is_empty() || tag.contains(['/', '\\']) || tag == "." || tag == ".." {
        return Err(Error::input(format!(
            "release.tag '{tag}' cannot name a folder"
        )));
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
            ctx.report.kept(write);
            continue;
        }
        if ctx.may_write(write.clone()) {
            write_atomic(&path, &asset.bytes)?;
            ctx.report.published(write);
        }
    }
    Ok(())
}
