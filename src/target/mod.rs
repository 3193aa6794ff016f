//! Release targets: where the chosen artifacts of a release are attached.
//!
//! The pipeline names its assets exactly (`{csv}` for this release's CSV, or a rendered file's
//! name); each name must match exactly one file, checked before any request, so no glob can
//! match nothing or every old CSV (fact sheet §1.10). A `SHA256SUMS` asset lists them all. The
//! targets are a local folder ([`dir`]) and a GitHub release ([`github`]).

pub mod dir;
pub mod github;

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::error::{Class, Error, Result};
use crate::olm::archive::sha256_hex;
use crate::stages::Ctx;

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

/// Resolves the pipeline's asset names to files, and appends `SHA256SUMS`.
pub fn resolve_assets(ctx: &Ctx<'_>, names: &[String]) -> Result<Vec<Asset>> {
    let rendered = ctx.rendered()?;
    // Candidate files by base name: the packaged bundle folder first (it holds the final CSV,
    // with `replaces`), then every rendered file outside the bundle folder.
    let mut by_name: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    let mut add = |path: PathBuf| {
        let base = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        by_name.entry(base).or_default().push(path);
    };
    let bundle_dir = ctx.state.packaged.as_ref().map(|p| p.dir.clone());
    if let Some(dir) = &bundle_dir {
        for entry in std::fs::read_dir(dir)
            .map_err(|e| Error::io(Class::Stage, dir, e))?
            .flatten()
        {
            add(entry.path());
        }
    }
    for f in &rendered.files {
        if !(f.in_bundle && bundle_dir.is_some()) {
            add(rendered.dir.join(&f.path));
        }
    }
    let csv_file = crate::olm::csv_file_name(&rendered.csv_name);
    let mut assets = Vec::new();
    for name in names {
        let wanted = if name == "{csv}" {
            csv_file.as_str()
        } else {
            name.as_str()
        };
        let path = match by_name.get(wanted).map(Vec::as_slice) {
            Some([one]) => one,
            Some(many) => {
                return Err(Error::input(format!(
                    "release.assets: '{name}' matches {} files ({}); name exactly one",
                    many.len(),
                    many.iter()
                        .map(|p| p.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
            None => {
                return Err(Error::input(format!(
                    "release.assets: '{name}' matches no rendered file; available: {}",
                    by_name.keys().cloned().collect::<Vec<_>>().join(", ")
                )));
            }
        };
        let bytes = std::fs::read(path).map_err(|e| Error::io(Class::Stage, path, e))?;
        if assets.iter().any(|a: &Asset| a.name == wanted) {
            return Err(Error::input(format!(
                "release.assets: '{name}' is listed twice"
            )));
        }
        assets.push(Asset::new(wanted, bytes));
    }
    if !assets.is_empty() {
        let sums: String = assets
            .iter()
            .map(|a| format!("{}  {}\n", a.sha256, a.name))
            .collect();
        assets.push(Asset::new("SHA256SUMS", sums.into_bytes()));
    }
    Ok(assets)
}
