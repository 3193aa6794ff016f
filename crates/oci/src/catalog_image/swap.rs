//! Publishing a catalog image with a compare-and-swap on its tag.
//!
//! The blobs go first: the base's layers (present, mounted from the base's repository when
//! both are on one registry, else copied blob by blob), the catalog layer and the configs; then
//! the manifests by digest (so nothing is tagged yet). Right before the tag moves it is read
//! again: if it no longer names the digest the catalog was read at, nothing is tagged and the
//! caller decides again ([`Swapped::Moved`]). The distribution API has no conditional tag
//! `PUT`, so between that read and the `PUT` another job's `PUT` can still land, and overwrite
//! this one with an image built on the catalog before it. So the tag is read again `settle`
//! after the `PUT` (a pause far longer than one job's read and `PUT`): a tag that names
//! another image then is reported too ([`Swapped::Overwritten`]), and the caller decides again
//! on what is there (which either holds this release already, or lacks it and gets it added
//! again). What remains is a job whose own read and `PUT` are more than `settle` apart. An
//! `oci:` layout swaps exactly: the read and the write happen under the layout's lock.

use super::build::CatalogImage;
use crate::{Event, Events, OciError, Store};

/// What publishing did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Swapped {
    /// The tag names the new image.
    Tagged {
        /// Blobs uploaded (the others were there or mounted).
        uploaded: Vec<String>,
        /// Base layers mounted from the base's repository.
        mounted: Vec<String>,
    },
    /// The tag already named this image: nothing written.
    Unchanged,
    /// The tag moved since it was read (`now`: what it names); the new image is pushed by
    /// digest but not tagged.
    Moved {
        /// The tag's digest now.
        now: Option<String>,
    },
    /// The tag was moved to the new image, and another job moved it again within `settle`.
    Overwritten {
        /// The tag's digest now.
        now: Option<String>,
    },
}

/// Pushes `image` to `store` and moves `tag` to it if the tag still names `expected` (`None`:
/// no such tag). `base` is where the base image is (its layers are mounted or copied from
/// it).
pub async fn publish(
    store: &Store,
    base: &Store,
    image: &CatalogImage,
    tag: &str,
    expected: Option<&str>,
    settle: std::time::Duration,
    events: &dyn Events,
) -> Result<Swapped, OciError> {
    crate::check_tag(tag)?;
    if expected == Some(image.digest()) {
        return Ok(Swapped::Unchanged);
    }
    let mut uploaded = Vec::new();
    let mut mounted = Vec::new();
    for (digest, size) in &image.base_layers {
        match carry(store, base, digest, *size, events).await? {
            Carried::Present => {}
            Carried::Mounted => mounted.push(digest.clone()),
            Carried::Copied => uploaded.push(digest.clone()),
        }
    }
    for blob in std::iter::once(&image.layer).chain(&image.configs) {
        if store.put_blob(blob, events).await? {
            uploaded.push(blob.digest.clone());
        }
    }
    let by_digest: Vec<_> = if image.manifests.is_empty() {
        vec![&image.root]
    } else {
        image.manifests.iter().chain([&image.root]).collect()
    };
    for m in by_digest {
        match store {
            Store::Remote(c) => {
                c.put_manifest(&m.digest, m, events).await?;
            }
            Store::Layout(l) => l.put_blob(m)?,
        }
    }
    match store {
        Store::Layout(l) => {
            if !l.swap_tag(tag, &image.root, Some(expected))? {
                return Ok(Swapped::Moved {
                    now: l.resolve(tag)?,
                });
            }
        }
        Store::Remote(c) => {
            let now = c.manifest_digest(tag, events).await?;
            if now.as_deref() != expected {
                return Ok(Swapped::Moved { now });
            }
            c.put_manifest(tag, &image.root, events).await?;
            tokio::time::sleep(settle).await;
            let now = c.manifest_digest(tag, events).await?;
            if now.as_deref() != Some(image.digest()) {
                return Ok(Swapped::Overwritten { now });
            }
        }
    }
    Ok(Swapped::Tagged { uploaded, mounted })
}

enum Carried {
    Present,
    Mounted,
    Copied,
}

/// Makes the base layer `digest` of `size` bytes present in `store`: a blob already there, or
/// mounted, must be `size` bytes; a copied one is checked (size and digest) before it is
/// written.
async fn carry(
    store: &Store,
    base: &Store,
    digest: &str,
    size: u64,
    events: &dyn Events,
) -> Result<Carried, OciError> {
    let wrong = |held: u64, there: &str| OciError::CatalogImage {
        image: base.describe(),
        detail: format!(
            "its manifest says the layer {digest} is {size} bytes, the blob {there} is {held}; a manifest that lies about a blob is never pushed"
        ),
    };
    let present = match store.blob_size(digest, events).await? {
        Some(held) if held != size => return Err(wrong(held, "in the target")),
        held => held.is_some(),
    };
    if present {
        events.event(Event::BlobPresent {
            digest: digest.to_string(),
        });
        return Ok(Carried::Present);
    }
    if let (Store::Remote(to), Store::Remote(from)) = (store, base)
        && to.reference().base == from.reference().base
        && to
            .mount_blob(digest, &from.reference().repository, events)
            .await?
    {
        if let Some(held) = store.blob_size(digest, events).await?
            && held != size
        {
            return Err(wrong(held, "mounted"));
        }
        return Ok(Carried::Mounted);
    }
    let bytes = base
        .blob(digest, events)
        .await?
        .ok_or_else(|| OciError::CatalogImage {
            image: base.describe(),
            detail: format!("its layer {digest} is missing"),
        })?;
    let hashed = format!("sha256:{}", olm_release_base::digest::sha256_hex(&bytes));
    if bytes.len() as u64 != size || hashed != digest {
        return Err(wrong(bytes.len() as u64, &format!("read (of {hashed})")));
    }
    let blob = olm_release_olm::bundle_image::Blob {
        media_type: "application/octet-stream".into(),
        digest: digest.to_string(),
        bytes,
    };
    store.put_blob(&blob, events).await?;
    Ok(Carried::Copied)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog_image::{build, read_base, read_head};
    use crate::{Layout, NoEvents};
    use serde_json::json;

    /// A one-layer base in a layout folder; its store and digest.
    fn base_in(dir: &std::path::Path) -> (Store, String) {
        let layout = Layout::new(dir);
        let packed =
            olm_release_olm::archive::pack(&[("bin/opm".into(), b"opm".to_vec())], 0).unwrap();
        let layer =
            super::super::build::blob("application/vnd.oci.image.layer.v1.tar+gzip", packed.gz);
        let config = super::super::build::blob(
            "application/vnd.oci.image.config.v1+json",
            serde_json::to_vec(&json!({
                "architecture": "amd64", "os": "linux", "config": {},
                "rootfs": {"type": "layers", "diff_ids": [format!("sha256:{}", packed.digest)]},
            }))
            .unwrap(),
        );
        let d = |b: &olm_release_olm::bundle_image::Blob| json!({"mediaType": b.media_type, "digest": b.digest, "size": b.size()});
        let manifest = super::super::build::blob(
            "application/vnd.oci.image.manifest.v1+json",
            serde_json::to_vec(&json!({
                "schemaVersion": 2, "config": d(&config), "layers": [d(&layer)],
            }))
            .unwrap(),
        );
        layout.put_blob(&layer).unwrap();
        layout.put_blob(&config).unwrap();
        layout.tag_manifest("base", &manifest).unwrap();
        (Store::Layout(layout), manifest.digest.clone())
    }

    #[tokio::test]
    async fn a_layout_tag_moves_only_from_the_digest_read_and_reads_back_as_the_catalog() {
        let tmp = tempfile::tempdir().unwrap();
        let (base_store, digest) = base_in(&tmp.path().join("base"));
        let base = read_base(&base_store, &digest, &NoEvents).await.unwrap();
        let store = Store::Layout(Layout::new(tmp.path().join("catalog")));
        let one = build(&base, &[("p/a.yaml".into(), b"a: 1\n".to_vec())], 0).unwrap();
        let two = build(&base, &[("p/a.yaml".into(), b"a: 2\n".to_vec())], 0).unwrap();
        let zero = std::time::Duration::ZERO;

        let first = publish(&store, &base_store, &one, "latest", None, zero, &NoEvents);
        assert!(matches!(first.await.unwrap(), Swapped::Tagged { .. }));
        // A job that read no tag (before the first) loses the swap and leaves the tag alone.
        let stale = publish(&store, &base_store, &two, "latest", None, zero, &NoEvents).await;
        assert_eq!(
            stale.unwrap(),
            Swapped::Moved {
                now: Some(one.digest().to_string())
            }
        );
        let head = read_head(&store, "latest", &NoEvents)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(head.digest, one.digest());
        assert_eq!(
            head.files,
            vec![("p/a.yaml".to_string(), b"a: 1\n".to_vec())]
        );
        // Read at the right digest: moved.
        let moved = publish(
            &store,
            &base_store,
            &two,
            "latest",
            Some(one.digest()),
            zero,
            &NoEvents,
        );
        assert!(matches!(moved.await.unwrap(), Swapped::Tagged { .. }));
        assert_eq!(
            store.resolve("latest", &NoEvents).await.unwrap().as_deref(),
            Some(two.digest())
        );
    }
}
