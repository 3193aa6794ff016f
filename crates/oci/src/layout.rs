//! The embedded target `oci:PATH`: an OCI image layout folder (image-spec `image-layout.md`),
//! readable by `skopeo … oci:PATH:TAG` and `umoci unpack --image PATH:TAG`, so a release runs
//! offline on a fresh clone and the result can be copied to any registry later.
//!
//! Layout: `oci-layout` (`{"imageLayoutVersion":"1.0.0"}`), `index.json` (an image index
//! whose manifests carry `org.opencontainers.image.ref.name` = the tag) and
//! `blobs/sha256/<hex>`. Blobs are written to a temporary file and renamed, and a blob already
//! present is kept only if its bytes hash to its name; `index.json` is rewritten atomically
//! under an exclusive lock on `PATH/.lock`, so concurrent runs cannot lose a tag.

use olm_release_base::input;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::OciError;
use olm_release_base::digest::sha256_hex;
use olm_release_olm::bundle_image::Blob;

/// The largest blob read back from a layout (regular files only, see [`input`]): the cap on
/// a blob a registry serves ([`olm_release_http::HttpOptions`]).
const MAX_BLOB: u64 = 256 * 1024 * 1024;

/// The annotation that names a tag in `index.json`.
pub(crate) const REF_NAME: &str = "org.opencontainers.image.ref.name";
const INDEX_MEDIA_TYPE: &str = "application/vnd.oci.image.index.v1+json";

/// An OCI image layout folder.
#[derive(Debug, Clone)]
pub struct Layout {
    root: PathBuf,
}

impl Layout {
    pub(crate) fn new(root: impl Into<PathBuf>) -> Self {
        Layout { root: root.into() }
    }

    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    fn blob_path(&self, digest: &str) -> Result<PathBuf, OciError> {
        let hex = digest
            .strip_prefix("sha256:")
            .filter(|h| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| OciError::Layout {
                path: self.root.clone(),
                detail: format!("'{digest}' is not a sha256 digest"),
            })?;
        Ok(self.root.join("blobs/sha256").join(hex))
    }

    /// The `index.json` entries, `[]` when the folder is new.
    fn read_index(&self) -> Result<Vec<Value>, OciError> {
        let path = self.root.join("index.json");
        let bytes = match input::read(&path, input::MAX_FILE_BYTES) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(OciError::io(&path, e)),
        };
        let corrupt = |detail: String| OciError::Layout {
            path: path.clone(),
            detail,
        };
        let index: Value =
            serde_json::from_slice(&bytes).map_err(|e| corrupt(format!("not JSON: {e}")))?;
        match index.get("manifests") {
            Some(Value::Array(m)) => Ok(m.clone()),
            _ => Err(corrupt(
                "no \"manifests\" list; not an OCI image index".into(),
            )),
        }
    }

    /// The manifest digest tagged `tag`, if any.
    pub(crate) fn resolve(&self, tag: &str) -> Result<Option<String>, OciError> {
        Ok(self
            .read_index()?
            .iter()
            .find(|m| ref_name(m) == Some(tag))
            .and_then(|m| m.get("digest").and_then(Value::as_str).map(str::to_string)))
    }

    /// Whether the blob is present with the right bytes.
    pub(crate) fn has_blob(&self, digest: &str) -> Result<bool, OciError> {
        let path = self.blob_path(digest)?;
        match input::read(&path, MAX_BLOB) {
            Ok(bytes) => Ok(format!("sha256:{}", sha256_hex(&bytes)) == digest),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(OciError::io(&path, e)),
        }
    }

    /// Stores a blob (atomically); creates `oci-layout` on first use.
    pub(crate) fn put_blob(&self, blob: &Blob) -> Result<(), OciError> {
        self.ensure_layout_file()?;
        if self.has_blob(&blob.digest)? {
            return Ok(());
        }
        write(&self.blob_path(&blob.digest)?, &blob.bytes)
    }

    /// The bytes of a blob (a manifest, for the read-back), `None` if absent.
    pub(crate) fn get_blob(&self, digest: &str) -> Result<Option<Vec<u8>>, OciError> {
        let path = self.blob_path(digest)?;
        match input::read(&path, MAX_BLOB) {
            Ok(b) => Ok(Some(b)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(OciError::io(&path, e)),
        }
    }

    /// Stores the manifest blob and points `tag` at it in `index.json` (replacing the tag's
    /// previous entry). Entries stay sorted by tag, so the index is reproducible too.
    pub(crate) fn tag_manifest(&self, tag: &str, manifest: &Blob) -> Result<(), OciError> {
        self.swap_tag(tag, manifest, None).map(|_| ())
    }

    /// [`Layout::tag_manifest`] as a compare-and-swap: with `expected` given, the tag is moved
    /// only if it still names `expected.0` (`None`: no tag) under the layout's lock; whether
    /// it was moved.
    pub(crate) fn swap_tag(
        &self,
        tag: &str,
        manifest: &Blob,
        expected: Option<Option<&str>>,
    ) -> Result<bool, OciError> {
        self.put_blob(manifest)?;
        let lock = self.root.join(".lock");
        let _lock = olm_release_base::lock::lock_file(&lock).map_err(|e| OciError::Layout {
            path: self.root.clone(),
            detail: format!("locking the layout: {}: {e}", lock.display()),
        })?;
        let index = self.read_index()?;
        if let Some(expected) = expected {
            let now = index
                .iter()
                .find(|m| ref_name(m) == Some(tag))
                .and_then(|m| m.get("digest").and_then(Value::as_str));
            if now != expected {
                return Ok(false);
            }
        }
        let mut entries: Vec<Value> = index
            .into_iter()
            .filter(|m| ref_name(m) != Some(tag))
            .collect();
        entries.push(json!({
            "mediaType": manifest.media_type,
            "digest": manifest.digest,
            "size": manifest.size(),
            "annotations": { REF_NAME: tag },
        }));
        entries.sort_by(|a, b| ref_name(a).cmp(&ref_name(b)));
        let index = json!({
            "schemaVersion": 2,
            "mediaType": INDEX_MEDIA_TYPE,
            "manifests": entries,
        });
        let bytes = serde_json::to_vec(&index).map_err(|e| OciError::Layout {
            path: self.root.clone(),
            detail: e.to_string(),
        })?;
        write(&self.root.join("index.json"), &bytes)?;
        Ok(true)
    }

    fn ensure_layout_file(&self) -> Result<(), OciError> {
        let path = self.root.join("oci-layout");
        match input::read(&path, input::MAX_FILE_BYTES) {
            Ok(b) => {
                let v: Value = serde_json::from_slice(&b).unwrap_or(Value::Null);
                if v.get("imageLayoutVersion").and_then(Value::as_str) == Some("1.0.0") {
                    Ok(())
                } else {
                    Err(OciError::Layout {
                        path,
                        detail: "not an OCI image layout version 1.0.0 folder; choose an empty or OCI layout folder".into(),
                    })
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                write(&path, br#"{"imageLayoutVersion":"1.0.0"}"#)
            }
            Err(e) => Err(OciError::io(&path, e)),
        }
    }
}

/// The tag of an `index.json` entry.
fn ref_name(entry: &Value) -> Option<&str> {
    entry.get("annotations")?.get(REF_NAME)?.as_str()
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), OciError> {
    olm_release_base::atomic::write_atomic(path, bytes).map_err(|e| OciError::Layout {
        path: path.to_path_buf(),
        detail: e.to_string(),
    })
}
