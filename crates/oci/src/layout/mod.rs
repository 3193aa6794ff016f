//! The embedded target `oci:PATH`: an OCI image layout folder (image-spec `image-layout.md`),
//! readable by `skopeo … oci:PATH:TAG` and `umoci unpack --image PATH:TAG`, so a release runs
//! offline on a fresh clone and the result can be copied to any registry later.
//!
//! Layout: `oci-layout` (`{"imageLayoutVersion":"1.0.0"}`), `index.json` (an image index
//! whose manifests carry `org.opencontainers.image.ref.name` = the tag) and
//! `blobs/sha256/<hex>`. Blobs are written to a temporary file and renamed, and a blob already
//! present is kept only if it is a regular file whose bytes hash to its name; `index.json` is
//! rewritten atomically under an exclusive lock on `PATH/.lock`, so concurrent runs cannot lose
//! a tag.
//!
//! Inputs are checked before they are trusted ([`blobs`]): an existing folder must be a layout
//! (`oci-layout` present and 1.0.0), and an image is reported at a tag only when its manifest and
//! every blob it names are present, regular and of the right digest. `index.json` is read as a
//! stream ([`index`]), costing its bytes and little more. No symbolic link is followed: the
//! layout folder, `blobs`, `blobs/sha256`, `index.json`, `oci-layout` or `.lock` that is one is
//! refused, naming it and where it points ([`OciError::Link`]); a blob that is one is a bad
//! blob, replaced by a push with `--force`.

mod blobs;
mod index;

use olm_release_base::input;
use std::path::{Path, PathBuf};

use serde_json::json;
use serde_json::value::RawValue;

use super::OciError;
use blobs::BlobState;
use olm_release_olm::bundle_image::Blob;

/// The largest blob read back from a layout (regular files only, see [`input`]): the cap on
/// a blob a registry serves ([`olm_release_http::HttpOptions`]).
const MAX_BLOB: u64 = 256 * 1024 * 1024;

/// The annotation that names a tag in `index.json`.
pub(crate) const REF_NAME: &str = "org.opencontainers.image.ref.name";
const INDEX_MEDIA_TYPE: &str = "application/vnd.oci.image.index.v1+json";
/// How deep a check follows indexes listing indexes.
const MAX_NESTING: usize = 4;

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
        // The blob itself may be a link: `blobs::state` reports it as a bad blob, and a write
        // renames a regular file over it (replacing the link, never writing through it).
        Ok(self.inside("blobs/sha256")?.join(hex))
    }

    /// `root/rel`, refused when the layout folder or any component on the way is a symbolic
    /// link (a layout is content someone else may have filled: a link would send a read or a
    /// write outside it).
    fn inside(&self, rel: &str) -> Result<PathBuf, OciError> {
        olm_release_base::links::join(&self.root, rel).map_err(|source| OciError::Link {
            layout: self.root.clone(),
            source,
        })
    }

    /// The bytes of `index.json` (`None`: the folder is new), after checking that an existing
    /// index sits in a layout (`oci-layout` present and 1.0.0).
    fn index_bytes(&self) -> Result<Option<Vec<u8>>, OciError> {
        let path = self.inside("index.json")?;
        match input::read(&path, input::MAX_FILE_BYTES) {
            Ok(b) => {
                self.check_layout_file(false)?;
                Ok(Some(b))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(OciError::io(&path, e)),
        }
    }

    fn corrupt_index(&self, detail: String) -> OciError {
        OciError::Layout {
            path: self.root.join("index.json"),
            detail,
        }
    }

    /// The manifest digest tagged `tag`, if any.
    pub(crate) fn resolve(&self, tag: &str) -> Result<Option<String>, OciError> {
        match self.index_bytes()? {
            None => Ok(None),
            Some(bytes) => index::find(&bytes, tag).map_err(|d| self.corrupt_index(d)),
        }
    }

    /// Whether the blob is present as a regular file with the right bytes.
    pub(crate) fn has_blob(&self, digest: &str) -> Result<bool, OciError> {
        let path = self.blob_path(digest)?;
        let state = blobs::state(&path, digest, MAX_BLOB).map_err(|e| OciError::io(&path, e))?;
        Ok(state == BlobState::Good)
    }

    /// Checks that the manifest `digest` and every blob it names (recursively through indexes)
    /// are present, regular files, and hash to their digests; the error names the first blob
    /// that is not.
    pub(crate) fn verify(&self, digest: &str) -> Result<(), OciError> {
        self.check_layout_file(false)?;
        self.verify_blob(digest, true, 0)
    }

    fn verify_blob(&self, digest: &str, manifest: bool, depth: usize) -> Result<(), OciError> {
        let path = self.blob_path(digest)?;
        let fail = |problem: String| OciError::Layout {
            path: path.clone(),
            detail: format!(
                "blob {digest} {problem}; the layout does not hold this image intact (push it again with --force, or remove the tag)"
            ),
        };
        match blobs::state(&path, digest, MAX_BLOB).map_err(|e| OciError::io(&path, e))? {
            BlobState::Good => {}
            BlobState::Missing => return Err(fail("is missing".into())),
            BlobState::Bad(why) => return Err(fail(why)),
        }
        // Only manifests and indexes name blobs; a config or layer is not read again.
        if manifest && depth <= MAX_NESTING {
            let bytes = input::read(&path, MAX_BLOB).map_err(|e| OciError::io(&path, e))?;
            for (named, is_manifest) in blobs::named(&bytes) {
                self.verify_blob(&named, is_manifest, depth + 1)?;
            }
        }
        Ok(())
    }

    /// Stores a blob (atomically); creates `oci-layout` on first use.
    pub(crate) fn put_blob(&self, blob: &Blob) -> Result<(), OciError> {
        self.check_layout_file(true)?;
        if self.has_blob(&blob.digest)? {
            return Ok(());
        }
        write(&self.blob_path(&blob.digest)?, &blob.bytes)
    }

    /// The size of the blob `digest`, `None` if absent; a blob that is not a regular file of
    /// the right bytes is an error naming it.
    pub(crate) fn blob_size(&self, digest: &str) -> Result<Option<u64>, OciError> {
        let path = self.blob_path(digest)?;
        match blobs::state(&path, digest, MAX_BLOB).map_err(|e| OciError::io(&path, e))? {
            BlobState::Good => std::fs::metadata(&path)
                .map(|m| Some(m.len()))
                .map_err(|e| OciError::io(&path, e)),
            BlobState::Missing => Ok(None),
            BlobState::Bad(why) => Err(OciError::Layout {
                path,
                detail: format!("blob {digest} {why}"),
            }),
        }
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
        let lock = self.inside(".lock")?;
        let _lock = olm_release_base::lock::lock_file(&lock).map_err(|e| OciError::Layout {
            path: self.root.clone(),
            detail: format!("locking the layout: {}: {e}", lock.display()),
        })?;
        let bytes = self.index_bytes()?.unwrap_or_default();
        if let Some(expected) = expected {
            let now = if bytes.is_empty() {
                None
            } else {
                index::find(&bytes, tag).map_err(|d| self.corrupt_index(d))?
            };
            if now.as_deref() != expected {
                return Ok(false);
            }
        }
        let kept: Vec<&RawValue> = if bytes.is_empty() {
            Vec::new()
        } else {
            index::entries(&bytes).map_err(|d| self.corrupt_index(d))?
        };
        let kept = kept
            .into_iter()
            .filter(|r| index::tag_of(r).as_deref() != Some(tag))
            .collect();
        let entry = json!({
            "mediaType": manifest.media_type,
            "digest": manifest.digest,
            "size": manifest.size(),
            "annotations": { REF_NAME: tag },
        });
        let entry = RawValue::from_string(entry.to_string()).map_err(|e| OciError::Layout {
            path: self.root.clone(),
            detail: e.to_string(),
        })?;
        // Written to the temporary file as it is produced: the index's bytes and one pointer
        // per entry are all this holds, never a second copy of the index.
        let path = self.inside("index.json")?;
        olm_release_base::atomic::write_atomic_with(&path, |out| {
            index::write(out, kept, tag, &entry, INDEX_MEDIA_TYPE)
        })
        .map_err(|e| OciError::io(&path, e))?;
        Ok(true)
    }

    /// Checks `oci-layout`; when it is missing, writes it if `create` (a new layout), else
    /// refuses the folder.
    fn check_layout_file(&self, create: bool) -> Result<(), OciError> {
        let path = self.inside("oci-layout")?;
        match input::read(&path, 4096) {
            Ok(b) => {
                let v: serde_json::Value = serde_json::from_slice(&b).unwrap_or_default();
                if v.get("imageLayoutVersion").and_then(|v| v.as_str()) == Some("1.0.0") {
                    Ok(())
                } else {
                    Err(OciError::Layout {
                        path,
                        detail: "not an OCI image layout version 1.0.0 folder; choose an empty or OCI layout folder".into(),
                    })
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if create && !self.root.join("index.json").exists() {
                    write(&path, br#"{"imageLayoutVersion":"1.0.0"}"#)
                } else {
                    Err(OciError::Layout {
                        path,
                        detail: "is missing, so the folder is not an OCI image layout (image-spec image-layout.md requires it); choose an empty folder or an OCI layout".into(),
                    })
                }
            }
            Err(e) => Err(OciError::io(&path, e)),
        }
    }
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), OciError> {
    olm_release_base::atomic::write_atomic(path, bytes).map_err(|e| OciError::Layout {
        path: path.to_path_buf(),
        detail: e.to_string(),
    })
}

#[cfg(test)]
mod tests;
