//! Reading images for catalogs: a base by digest (its manifest or index, each platform's
//! manifest and config), and the catalog a tag holds now (the `configs/` files of its top
//! layer). Every manifest and blob read by digest is checked against its digest.

use bytes::Bytes;
use serde_json::Value;

use super::base_check::BaseLimits;
use super::build::{BaseImage, BasePlatform, layers_of};
use crate::{Events, OciError, Store};
use olm_release_base::digest::sha256_hex;
use olm_release_olm::archive::{Limits, unpack_as};

/// The largest blob read (a base's config, a catalog layer).
pub(crate) const MAX_BLOB: u64 = 256 * 1024 * 1024;
/// The largest catalog read back from an image (uncompressed).
const MAX_CATALOG: u64 = 256 * 1024 * 1024;
/// Layers looked at from the top for `configs/` (an image built by opm may carry its cache in
/// a layer above the catalog).
const TOP_LAYERS: usize = 3;

/// The catalog a tag holds.
#[derive(Debug, Clone)]
pub struct Head {
    /// The tag's digest (a manifest's or an index's).
    pub digest: String,
    /// The catalog files: paths relative to `/configs`, with their bytes.
    pub files: Vec<(String, Vec<u8>)>,
}

impl Store {
    /// The blob `digest` (checked), `None` when absent.
    pub(crate) async fn blob(
        &self,
        digest: &str,
        events: &dyn Events,
    ) -> Result<Option<Bytes>, OciError> {
        let bytes = match self {
            Store::Remote(c) => c.get_blob(digest, MAX_BLOB, events).await?,
            Store::Layout(l) => l.get_blob(digest)?.map(Bytes::from),
        };
        Ok(bytes)
    }

    /// The size of the blob `digest` as the store holds it, `None` when absent: a layout's
    /// file (hashed: a file of other bytes is an error), a registry's `HEAD` `Content-Length`.
    pub(crate) async fn blob_size(
        &self,
        digest: &str,
        events: &dyn Events,
    ) -> Result<Option<u64>, OciError> {
        match self {
            Store::Remote(c) => c.blob_size(digest, events).await,
            Store::Layout(l) => l.blob_size(digest),
        }
    }

    /// The manifest (or index) `digest`, parsed after its bytes are checked against it.
    pub(crate) async fn manifest_json(
        &self,
        digest: &str,
        events: &dyn Events,
    ) -> Result<Value, OciError> {
        let name = format!("{}@{digest}", self.describe());
        let bad = |detail: String| OciError::CatalogImage {
            image: name.clone(),
            detail,
        };
        let bytes = self
            .manifest_bytes(digest, events)
            .await?
            .ok_or_else(|| bad("no such manifest".into()))?;
        if format!("sha256:{}", sha256_hex(&bytes)) != digest {
            return Err(bad("the manifest's bytes do not hash to its digest".into()));
        }
        serde_json::from_slice(&bytes).map_err(|e| bad(format!("the manifest is not JSON: {e}")))
    }

    /// The image manifest `digest` names: the manifest itself, or, for an index, the manifest
    /// of its first entry (every platform of a catalog or bundle image carries the same
    /// layers). `image` names the image in errors.
    pub(crate) async fn image_manifest(
        &self,
        digest: &str,
        image: &str,
        events: &dyn Events,
    ) -> Result<Value, OciError> {
        let bad = |detail: &str| OciError::CatalogImage {
            image: image.to_string(),
            detail: detail.to_string(),
        };
        let manifest = self.manifest_json(digest, events).await?;
        if !is_index(&manifest) {
            return Ok(manifest);
        }
        let first = image_entries(&manifest)
            .into_iter()
            .next()
            .ok_or_else(|| bad("the index lists no image"))?;
        let d = digest_of(&first).ok_or_else(|| bad("an index entry has no digest"))?;
        self.manifest_json(d, events).await
    }

    async fn blob_json(&self, digest: &str, events: &dyn Events) -> Result<Value, OciError> {
        let name = format!("{}@{digest}", self.describe());
        let bytes = self
            .blob(digest, events)
            .await?
            .ok_or_else(|| OciError::CatalogImage {
                image: name.clone(),
                detail: "no such blob".into(),
            })?;
        serde_json::from_slice(&bytes).map_err(|e| OciError::CatalogImage {
            image: name,
            detail: format!("not JSON: {e}"),
        })
    }
}

/// An index's entries that are images (attestations and `unknown` platforms left out).
pub(crate) fn image_entries(index: &Value) -> Vec<Value> {
    index
        .get("manifests")
        .and_then(Value::as_array)
        .map(|m| {
            m.iter()
                .filter(|e| {
                    e.pointer("/annotations/vnd.docker.reference.type")
                        .is_none()
                        && e.pointer("/platform/os").and_then(Value::as_str) != Some("unknown")
                })
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

pub(crate) fn is_index(v: &Value) -> bool {
    v.get("manifests").is_some()
}

pub(crate) fn digest_of(v: &Value) -> Option<&str> {
    v.get("digest").and_then(Value::as_str)
}

/// Reads the base image `digest` from `store` and checks it within the default
/// [`BaseLimits`] ([`read_base_within`]).
pub async fn read_base(
    store: &Store,
    digest: &str,
    events: &dyn Events,
) -> Result<BaseImage, OciError> {
    read_base_within(store, digest, &BaseLimits::DEFAULT, events).await
}

/// Reads the base image `digest` from `store`, then checks every config and layer it names
/// against its blob, and the base against `limits` (see `base_check`).
pub async fn read_base_within(
    store: &Store,
    digest: &str,
    limits: &BaseLimits,
    events: &dyn Events,
) -> Result<BaseImage, OciError> {
    let base = read_unchecked(store, digest, events).await?;
    super::base_check::check(store, &base, limits, events).await?;
    Ok(base)
}

/// Reads the base image `digest` from `store`.
async fn read_unchecked(
    store: &Store,
    digest: &str,
    events: &dyn Events,
) -> Result<BaseImage, OciError> {
    let name = format!("{}@{digest}", store.describe());
    let bad = |detail: &str| OciError::CatalogImage {
        image: name.clone(),
        detail: detail.to_string(),
    };
    let root = store.manifest_json(digest, events).await?;
    let (multi, entries) = if is_index(&root) {
        (true, image_entries(&root))
    } else {
        (false, vec![])
    };
    let mut platforms = Vec::new();
    if multi {
        for e in entries {
            let d = digest_of(&e).ok_or_else(|| bad("an index entry has no digest"))?;
            let manifest = store.manifest_json(d, events).await?;
            platforms.push(platform(store, Some(e), manifest, &bad, events).await?);
        }
    } else {
        platforms.push(platform(store, None, root, &bad, events).await?);
    }
    if platforms.is_empty() {
        return Err(bad(
            "the index lists no image; choose the opm image's digest",
        ));
    }
    Ok(BaseImage {
        name,
        platforms,
        multi,
    })
}

async fn platform(
    store: &Store,
    entry: Option<Value>,
    manifest: Value,
    bad: &(dyn Fn(&str) -> OciError + Sync),
    events: &dyn Events,
) -> Result<BasePlatform, OciError> {
    if manifest.get("schemaVersion").and_then(Value::as_u64) != Some(2) {
        return Err(bad(
            "not an image manifest of schema version 2 (OCI or Docker v2)",
        ));
    }
    let config = manifest
        .pointer("/config/digest")
        .and_then(Value::as_str)
        .ok_or_else(|| bad("the manifest names no config"))?;
    let config = store.blob_json(config, events).await?;
    Ok(BasePlatform {
        entry,
        manifest,
        config,
    })
}

/// The catalog `tag` holds now, `None` when there is no such tag (a first release).
pub async fn read_head(
    store: &Store,
    tag: &str,
    events: &dyn Events,
) -> Result<Option<Head>, OciError> {
    let Some(digest) = store.resolve(tag, events).await? else {
        return Ok(None);
    };
    let name = format!("{}:{tag} ({digest})", store.describe());
    let bad = |detail: &str| OciError::CatalogImage {
        image: name.clone(),
        detail: detail.to_string(),
    };
    let manifest = store.image_manifest(&digest, &name, events).await?;
    let limits = Limits {
        max_bytes: MAX_CATALOG,
        max_entries: 100_000,
        ..Limits::default()
    };
    for layer in layers_of(&manifest).iter().rev().take(TOP_LAYERS) {
        let d = digest_of(layer).ok_or_else(|| bad("a layer has no digest"))?;
        let gz = store
            .blob(d, events)
            .await?
            .ok_or_else(|| bad(&format!("its layer {d} is missing")))?;
        let (files, _) = unpack_as(&format!("layer {d} of {name}"), &gz, &limits)
            .map_err(|e| bad(&e.to_string()))?;
        let catalog: Vec<(String, Vec<u8>)> = files
            .into_iter()
            .filter_map(|(p, c)| {
                let p = p.strip_prefix("./").unwrap_or(&p).to_string();
                p.strip_prefix("configs/").map(|r| (r.to_string(), c))
            })
            .filter(|(p, _)| !p.is_empty())
            .collect();
        if !catalog.is_empty() {
            return Ok(Some(Head {
                digest,
                files: catalog,
            }));
        }
    }
    Err(bad(
        "its top layers hold no configs/ folder, so it is not a catalog image; choose another tag, or delete this one",
    ))
}
