//! The bundle as a reproducible single-layer OCI image: exact bytes for the layer, the config
//! and the manifest, and their digests.
//!
//! - **Layer** (`application/vnd.oci.image.layer.v1.tar+gzip`): a tar of `manifests/` and
//!   `metadata/` with sorted entries, folders before their files, owner 0:0, modes 0755/0644,
//!   every mtime the given epoch; gzip without a file name or time. Its `diff_id` is the sha256
//!   of the uncompressed tar (OCI image spec, `config.md`, "Layer DiffID").
//! - **Config** (`application/vnd.oci.image.config.v1+json`): the six bundle keys as
//!   `config.Labels`, `created` and one `history` entry with `created` (some readers, umoci
//!   among them, fail on a history entry without it), `rootfs.diff_ids`, and the platform set
//!   explicitly to linux/amd64: oci-spec's `Os`/`Arch` defaults follow the building machine,
//!   which would make the digest depend on where it was built.
//! - **Manifest** (`application/vnd.oci.image.manifest.v1+json`): `schemaVersion` 2 and the
//!   top-level `mediaType` set (oci-spec's builder leaves it out unless asked).
//!
//! The types are oci-spec's; the bytes are canonical JSON — compact, object keys sorted —
//! because oci-spec keeps labels and annotations in `HashMap`s whose order changes from run
//! to run. A registry stores manifests byte for byte, so these bytes are the digest.

use bytes::Bytes;
use oci_spec::image::{
    Arch, ConfigBuilder, Descriptor, Digest, HistoryBuilder, ImageConfigurationBuilder,
    ImageManifestBuilder, MediaType, Os, RootFsBuilder,
};

use super::error::BundleImageError as E;
use super::folder::BundleFolder;
use olm_release_base::digest::sha256_hex;

/// `application/vnd.oci.image.manifest.v1+json`.
pub const MANIFEST_MEDIA_TYPE: &str = "application/vnd.oci.image.manifest.v1+json";
/// `application/vnd.oci.image.config.v1+json`.
pub const CONFIG_MEDIA_TYPE: &str = "application/vnd.oci.image.config.v1+json";
/// `application/vnd.oci.image.layer.v1.tar+gzip`.
pub const LAYER_MEDIA_TYPE: &str = "application/vnd.oci.image.layer.v1.tar+gzip";
/// The `created_by` of the layer's history entry (no version, so the digest survives upgrades
/// of olm-release that do not change the bytes).
pub(crate) const CREATED_BY: &str =
    "olm-release bundle-image: COPY manifests /manifests/, COPY metadata /metadata/";

/// One content-addressed piece of an image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blob {
    /// The blob's media type, such as [`LAYER_MEDIA_TYPE`].
    pub media_type: String,
    /// `sha256:<hex>` of `bytes`.
    pub digest: String,
    /// The blob's exact bytes.
    pub bytes: Bytes,
}

impl Blob {
    /// A blob of `bytes`, its digest computed.
    pub(crate) fn new(media_type: &str, bytes: impl Into<Bytes>) -> Self {
        let bytes = bytes.into();
        Blob {
            media_type: media_type.to_string(),
            digest: format!("sha256:{}", sha256_hex(&bytes)),
            bytes,
        }
    }

    /// The blob's size in bytes, as its descriptor gives it.
    pub fn size(&self) -> u64 {
        self.bytes.len() as u64
    }
}

/// A built image: the manifest (whose digest names the image), the config and the layers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OciImage {
    /// The image manifest (`application/vnd.oci.image.manifest.v1+json`): its bytes are the image's
    /// digest.
    pub manifest: Blob,
    /// The image config (`application/vnd.oci.image.config.v1+json`) with the bundle's labels.
    pub config: Blob,
    /// The layers, in order: the one gzipped tar of `manifests/` and `metadata/`.
    pub layers: Vec<Blob>,
    /// `sha256:<hex>` of each layer's uncompressed tar, in layer order.
    pub(crate) diff_ids: Vec<String>,
}

impl OciImage {
    /// The manifest digest: what a registry reports for the tag, and what a catalog pins.
    pub fn digest(&self) -> &str {
        &self.manifest.digest
    }

    /// The blobs the manifest references (config first, then layers): what a push uploads
    /// before the manifest.
    pub fn blobs(&self) -> impl Iterator<Item = &Blob> {
        std::iter::once(&self.config).chain(&self.layers)
    }
}

/// Builds the image of a bundle folder with every timestamp set to `epoch` (seconds since
/// 1970, from `SOURCE_DATE_EPOCH` or 0).
pub fn build_image(folder: &BundleFolder, epoch: u64) -> Result<OciImage, E> {
    let files: Vec<(String, Vec<u8>)> = folder
        .files()
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let packed = crate::archive::pack(&files, epoch).map_err(|e| E::Build(e.to_string()))?;
    let diff_id = format!("sha256:{}", packed.digest);
    let layer = Blob::new(LAYER_MEDIA_TYPE, packed.gz);
    let created = olm_release_base::time::rfc3339(epoch);

    let labels: std::collections::HashMap<String, String> =
        folder.labels().iter().cloned().collect();
    let config = ImageConfigurationBuilder::default()
        .created(created.clone())
        .architecture(Arch::Amd64)
        .os(Os::Linux)
        .config(
            ConfigBuilder::default()
                .labels(labels)
                .build()
                .map_err(build)?,
        )
        .rootfs(
            RootFsBuilder::default()
                .typ("layers")
                .diff_ids(vec![diff_id.clone()])
                .build()
                .map_err(build)?,
        )
        .history(vec![
            HistoryBuilder::default()
                .created(created)
                .created_by(CREATED_BY)
                .build()
                .map_err(build)?,
        ])
        .build()
        .map_err(build)?;
    let config = Blob::new(CONFIG_MEDIA_TYPE, canonical_json(&config)?);

    let manifest = ImageManifestBuilder::default()
        .schema_version(2u32)
        .media_type(MediaType::ImageManifest)
        .config(descriptor(MediaType::ImageConfig, &config)?)
        .layers(vec![descriptor(MediaType::ImageLayerGzip, &layer)?])
        .build()
        .map_err(build)?;
    let manifest = Blob::new(MANIFEST_MEDIA_TYPE, canonical_json(&manifest)?);
    Ok(OciImage {
        manifest,
        config,
        layers: vec![layer],
        diff_ids: vec![diff_id],
    })
}

fn descriptor(media_type: MediaType, blob: &Blob) -> Result<Descriptor, E> {
    let digest: Digest = blob.digest.parse().map_err(build)?;
    Ok(Descriptor::new(media_type, blob.size(), digest))
}

/// Compact JSON with object keys sorted (serde_json's map is ordered by key), so maps held in
/// `HashMap`s serialise the same way every time.
pub(crate) fn canonical_json<T: serde::Serialize>(value: &T) -> Result<Vec<u8>, E> {
    let value = serde_json::to_value(value).map_err(build)?;
    serde_json::to_vec(&value).map_err(build)
}

fn build(e: impl std::fmt::Display) -> E {
    E::Build(e.to_string())
}
