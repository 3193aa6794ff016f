//! Reading a registry+v1 bundle image back into its files: the image a tag or digest names
//! (an index's first image entry, as every platform of a bundle image carries the same
//! files), its layers unpacked in order (a later layer's file replaces an earlier one's), and
//! the files under `manifests/` and `metadata/` kept, as operator-registry's bundle format
//! lays them out (<https://olm.operatorframework.io/docs/tasks/creating-operator-bundle/>).
//! Every manifest and blob is checked against its digest, and the layers are unpacked within
//! the bundle [`Limits`].

use std::collections::BTreeMap;

use crate::catalog_image::build::layers_of;
use crate::catalog_image::read::digest_of;
use crate::{Events, OciError, Store};
use olm_release_olm::archive::{Limits, unpack_as};

/// A bundle image, read.
#[derive(Debug, Clone)]
pub struct BundleRead {
    /// The digest the reference resolved to (a manifest's or an index's).
    pub digest: String,
    /// `manifests/NAME` and `metadata/NAME` with their bytes.
    pub files: BTreeMap<String, Vec<u8>>,
}

/// Reads the bundle image `reference` (a tag, or a `sha256:…` digest) from `store`.
/// `Ok(None)`: no such tag.
pub async fn read_bundle(
    store: &Store,
    reference: &str,
    limits: &Limits,
    events: &dyn Events,
) -> Result<Option<BundleRead>, OciError> {
    let digest = if reference.starts_with("sha256:") {
        reference.to_string()
    } else {
        match store.resolve(reference, events).await? {
            Some(d) => d,
            None => return Ok(None),
        }
    };
    let name = format!("{}@{digest}", store.describe());
    let bad = |detail: &str| OciError::CatalogImage {
        image: name.clone(),
        detail: detail.to_string(),
    };
    let manifest = store.image_manifest(&digest, &name, events).await?;
    let mut files = BTreeMap::new();
    for layer in layers_of(&manifest) {
        let d = digest_of(&layer).ok_or_else(|| bad("a layer has no digest"))?;
        let gz = store
            .blob(d, events)
            .await?
            .ok_or_else(|| bad(&format!("its layer {d} is missing")))?;
        if format!("sha256:{}", olm_release_base::digest::sha256_hex(&gz)) != d {
            return Err(bad(&format!("its layer {d} does not hash to its digest")));
        }
        let (entries, _) = unpack_as(&format!("layer {d} of {name}"), &gz, limits)
            .map_err(|e| bad(&e.to_string()))?;
        for (path, bytes) in entries {
            let path = path.trim_start_matches("./").trim_start_matches('/');
            if path.starts_with("manifests/") || path.starts_with("metadata/") {
                files.insert(path.to_string(), bytes);
            }
        }
    }
    if !files.keys().any(|p| p.starts_with("manifests/")) {
        return Err(bad(
            "its layers hold no manifests/ folder, so it is not a registry+v1 bundle image",
        ));
    }
    Ok(Some(BundleRead { digest, files }))
}

/// An image reference split into where the image is and which one: `LOCATION@sha256:…`,
/// `LOCATION:TAG` (the last `:` after the last `/`, so a registry's port is not a tag), or
/// `LOCATION` alone, which means the tag `latest` as Docker reads it.
pub fn split_reference(text: &str) -> Result<(crate::ImageLocation, String), OciError> {
    let (location, reference) = if let Some((l, d)) = text.rsplit_once('@') {
        (l, d.to_string())
    } else {
        let slash = text.rfind('/').map_or(0, |i| i + 1);
        let start = if text.starts_with("oci:") {
            slash.max(4)
        } else {
            slash
        };
        match text[start..].rfind(':') {
            Some(i) => (&text[..start + i], text[start + i + 1..].to_string()),
            None => (text, "latest".to_string()),
        }
    };
    let parsed = crate::ImageLocation::parse(location)?;
    let bad = |why: String| OciError::ImageLocation {
        target: text.to_string(),
        why,
    };
    if let Some(hex) = reference.strip_prefix("sha256:") {
        if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad(format!("{reference} is not a sha256 digest")));
        }
    } else {
        crate::check_tag(&reference).map_err(|e| bad(e.to_string()))?;
    }
    Ok((parsed, reference))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ImageLocation;

    #[test]
    fn references_split_at_the_tag_or_digest_never_at_a_port() {
        let digest = format!("sha256:{}", "a".repeat(64));
        let cases = [
            ("oci:out/oci:v1.2.0", "oci:out/oci", "v1.2.0"),
            ("oci:out/oci", "oci:out/oci", "latest"),
            (
                "localhost:5000/op/bundle:v1",
                "localhost:5000/op/bundle",
                "v1",
            ),
            (
                "localhost:5000/op/bundle",
                "localhost:5000/op/bundle",
                "latest",
            ),
        ];
        for (text, location, reference) in cases {
            let (l, r) = split_reference(text).unwrap();
            assert_eq!((l.describe().as_str(), r.as_str()), (location, reference));
        }
        let (l, r) = split_reference(&format!("quay.io/op/bundle@{digest}")).unwrap();
        assert!(matches!(l, ImageLocation::Remote(_)));
        assert_eq!(r, digest);
        assert!(split_reference("quay.io/op/bundle@sha256:zz").is_err());
    }
}
