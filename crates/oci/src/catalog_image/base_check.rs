//! Every byte of a base checked before an image naming it is pushed: the number of layers and
//! their total size within [`BaseLimits`] (counted from the manifests, before any blob is
//! asked for), then each config's and each layer's size and digest against the blob the base's
//! store holds (a layout's file hashed, a registry's `HEAD` size — a registry addresses blobs
//! by the digest of what it stored). A manifest whose descriptor says 1,000,155 bytes for a
//! 155-byte blob, or names a blob the store lacks, would be pushed as an image no runtime can
//! unpack (image-spec `descriptor.md`: `size` "MUST" be the exact byte size of the content); it
//! is refused naming the base, the blob, and both sizes.

use serde_json::Value;

use super::build::{BaseImage, layers_of};
use crate::{Events, OciError, Store};

/// Bounds on a base image, from the manifests alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BaseLimits {
    /// The most distinct layers over all platforms.
    pub max_layers: usize,
    /// The most bytes of layers and configs together, as stored (compressed).
    pub max_bytes: u64,
}

impl BaseLimits {
    /// 128 layers: the opm images carry fewer than 10, and container runtimes stop stacking
    /// layers not far above (Docker refuses an image of more than 125 with "max depth
    /// exceeded"). 2 GiB: the opm images are a few hundred MB at most.
    pub const DEFAULT: BaseLimits = BaseLimits {
        max_layers: 128,
        max_bytes: 2 << 30,
    };
}

impl Default for BaseLimits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// A descriptor's digest and size (`None`: missing or not a size).
fn descriptor(v: &Value) -> (Option<&str>, Option<u64>) {
    (
        v.get("digest").and_then(Value::as_str),
        v.get("size").and_then(Value::as_u64),
    )
}

/// Checks `base` (read from `store`) against `limits` and its blobs.
pub(crate) async fn check(
    store: &Store,
    base: &BaseImage,
    limits: &BaseLimits,
    events: &dyn Events,
) -> Result<(), OciError> {
    let bad = |detail: String| OciError::CatalogImage {
        image: base.name.clone(),
        detail,
    };
    // Every blob once, with the size its descriptors say (all of them alike).
    let mut blobs: Vec<(String, u64, &str)> = Vec::new();
    let mut layers = 0usize;
    for p in &base.platforms {
        let config = p.manifest.get("config").unwrap_or(&Value::Null);
        let layers_named = layers_of(&p.manifest);
        let named =
            std::iter::once((config, "config")).chain(layers_named.iter().map(|l| (l, "layer")));
        for (d, kind) in named {
            let (Some(digest), Some(size)) = descriptor(d) else {
                return Err(bad(format!(
                    "a {kind} descriptor lacks a digest or a size (image-spec descriptor.md requires both)"
                )));
            };
            match blobs.iter().find(|(d, _, _)| d == digest) {
                Some((_, s, _)) if *s != size => {
                    return Err(bad(format!(
                        "its manifests give the {kind} {digest} two sizes, {s} and {size} bytes"
                    )));
                }
                Some(_) => {}
                None => {
                    layers += usize::from(kind == "layer");
                    if layers > limits.max_layers {
                        return Err(bad(format!(
                            "it has more than {} layers (the limit; OLM_RELEASE_MAX_BASE_LAYERS raises it); choose the opm image",
                            limits.max_layers
                        )));
                    }
                    blobs.push((digest.to_string(), size, kind));
                }
            }
        }
    }
    let total: u64 = blobs
        .iter()
        .map(|(_, s, _)| *s)
        .fold(0, u64::saturating_add);
    if total > limits.max_bytes {
        return Err(bad(format!(
            "its layers and configs are {total} bytes, more than the limit of {} (OLM_RELEASE_MAX_BASE_BYTES raises it)",
            limits.max_bytes
        )));
    }
    for (digest, size, kind) in &blobs {
        match store.blob_size(digest, events).await? {
            None => return Err(bad(format!("its {kind} {digest} is missing"))),
            Some(held) if held != *size => {
                return Err(bad(format!(
                    "its manifest says the {kind} {digest} is {size} bytes, the blob is {held}; a manifest that lies about a blob is never pushed"
                )));
            }
            Some(_) => {}
        }
    }
    Ok(())
}
