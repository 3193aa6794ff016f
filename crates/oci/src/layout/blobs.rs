//! Checking a layout's blobs before trusting them: a blob an image names must be present under
//! `blobs/sha256/<hex>`, a regular file (not a symbolic link, which could point at anything,
//! nor a device or a folder), and hash to its digest. An image is "unchanged" in a layout, or
//! pinned in a catalog, only when its manifest and every blob the manifest names (its config and
//! layers; for an index, each manifest it lists, recursively) pass, so a layout whose blobs were
//! removed or replaced is never reported as holding the image (image-spec `image-layout.md`:
//! "blobs MUST be addressed by their content").

use std::io::Read;
use std::path::Path;

use serde_json::Value;

use olm_release_base::input;

/// What a blob's file is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum BlobState {
    /// Present, a regular file, with the right bytes.
    Good,
    /// No file.
    Missing,
    /// Something other than a regular file, or bytes of another digest: what it is.
    Bad(String),
}

/// The state of the blob `digest` at `path`, reading it at most once (streamed through sha256).
pub(crate) fn state(path: &Path, digest: &str, max: u64) -> std::io::Result<BlobState> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BlobState::Missing),
        Err(e) => return Err(e),
    };
    if meta.file_type().is_symlink() {
        return Ok(BlobState::Bad(
            "is a symbolic link; a layout's blobs are regular files".into(),
        ));
    }
    if let Err(e) = input::regular(&meta) {
        return Ok(BlobState::Bad(e.to_string()));
    }
    if meta.len() > max {
        return Ok(BlobState::Bad(format!(
            "is larger than the limit of {max} bytes"
        )));
    }
    let file = std::fs::File::open(path)?;
    let mut hasher = olm_release_base::digest::Sha256Writer::default();
    std::io::copy(&mut file.take(max + 1), &mut hasher)?;
    let actual = format!("sha256:{}", hasher.hex());
    Ok(if actual == digest {
        BlobState::Good
    } else {
        BlobState::Bad(format!("holds content of {actual}, not of its name"))
    })
}

/// The digests a manifest or index (as JSON) names, each with whether it is itself a manifest
/// (an index's `manifests`) rather than a config or layer.
pub(crate) fn named(manifest: &[u8]) -> Vec<(String, bool)> {
    let Ok(v) = serde_json::from_slice::<Value>(manifest) else {
        return Vec::new();
    };
    let digest = |d: &Value| d.get("digest").and_then(Value::as_str).map(str::to_string);
    let list = |key: &str| {
        v.get(key)
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(digest).collect::<Vec<_>>())
            .unwrap_or_default()
    };
    let mut out: Vec<(String, bool)> = v
        .get("config")
        .and_then(digest)
        .into_iter()
        .chain(list("layers"))
        .map(|d| (d, false))
        .collect();
    out.extend(list("manifests").into_iter().map(|d| (d, true)));
    out
}
