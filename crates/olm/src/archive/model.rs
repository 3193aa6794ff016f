//! What a bundle archive is: how it is laid out, what packing it gives, the limits it is read
//! within, and what reading one gives besides the bundle.

use crate::Bundle;

/// How the bundle is laid out inside the tarball.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    /// One `bundle.yaml` with string-valued `data.*` (what courier pushes for a flat folder).
    #[default]
    Flat,
    /// `<package>.package.yaml` plus one folder per CSV version.
    Nested,
}

/// A packed bundle: the `.tar.gz` bytes and both digests.
#[derive(Debug, Clone)]
pub struct Packed {
    /// The `.tar.gz` file's bytes.
    pub gz: Vec<u8>,
    /// sha256 (hex) of the uncompressed tar: what the app registry calls the digest.
    pub digest: String,
    /// sha256 (hex) of the `.tar.gz` file.
    pub gz_digest: String,
    /// Size of the uncompressed tar in bytes.
    pub tar_size: u64,
}

/// Limits applied when reading a bundle: a `.tar.gz` (from a registry or a file), a flattened
/// `bundle.yaml` or a folder. The book lists them for users (docs/src/limits.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest bundle in bytes: the uncompressed tar of a `.tar.gz`, a `bundle.yaml`, or a
    /// folder's YAML files together (`--max-bundle-bytes`). Also the cap on the bytes YAML
    /// aliases may add, and the source of the value budget ([`Limits::max_nodes`]).
    pub max_bytes: u64,
    /// Most entries in a tarball, files in a folder, or items in one `data.*` list of a
    /// flattened bundle.
    pub max_entries: usize,
    /// Most uncompressed bytes per compressed byte, checked while streaming once past
    /// [`Limits::RATIO_GRACE`]: real bundles compress 2–10:1, a deflate bomb about 1000:1.
    pub max_ratio: u64,
    /// Deepest nesting of YAML collections. Real manifests stay under 45 (the deepest CRD
    /// schemas of operator-framework/api nest 40 levels); the YAML parser stops at 128.
    pub max_depth: usize,
}

impl Limits {
    /// Default of `max_bytes` (64 MiB): a cumulative bundle of 500 KubeVirt-sized CSVs is
    /// 18 MiB; the app registry and modern bundle images are far smaller.
    pub(crate) const DEFAULT_MAX_BYTES: u64 = 64 << 20;
    /// Bytes of `max_bytes` per YAML value of the budget: real manifests hold one value per
    /// 10–70 bytes (KubeVirt's CSV: 34; a list entry counts beside its content), a list of
    /// tiny items one per 2 bytes. Parsing costs about 250 bytes per value, so the budget keeps
    /// a bundle's parse under about 300 MiB.
    pub(crate) const BYTES_PER_NODE: u64 = 64;
    /// Uncompressed bytes read before the ratio is checked (small files compress very well).
    pub(crate) const RATIO_GRACE: u64 = 1 << 20;

    /// The defaults with `max_bytes` replaced when given (`--max-bundle-bytes`).
    pub fn with_max_bytes(max_bytes: Option<u64>) -> Self {
        let d = Limits::default();
        Limits {
            max_bytes: max_bytes.unwrap_or(d.max_bytes),
            ..d
        }
    }

    /// Limits for re-reading a tarball this process packed: its known tar size, any ratio.
    pub fn for_packed(tar_size: u64) -> Self {
        Limits {
            max_bytes: tar_size,
            max_ratio: u64::MAX,
            ..Limits::default()
        }
    }

    /// Most YAML values (scalars, collections, alias expansions) one bundle may parse into:
    /// one per [`Limits::BYTES_PER_NODE`] bytes of `max_bytes` (1 Mi at the default).
    pub fn max_nodes(&self) -> u64 {
        (self.max_bytes / Self::BYTES_PER_NODE).max(1024)
    }

    /// Most bytes YAML aliases may add to a bundle when expanded: `max_bytes`.
    pub(crate) fn max_alias_bytes(&self) -> u64 {
        self.max_bytes
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: Self::DEFAULT_MAX_BYTES,
            max_entries: 10_000,
            max_ratio: 100,
            max_depth: 100,
        }
    }
}

/// What a bundle folder or tarball holds: the bundle (the package file, CSVs and CRDs: what the
/// app registry publishes) and the other objects beside its CSVs (RBAC, ConfigMaps, …, each
/// document once), which the app registry's bundle cannot hold but validation checks, so
/// `publish DIR` checks what `verify DIR` checks.
#[derive(Debug, Clone, PartialEq)]
pub struct Contents {
    /// The package file, CSVs and CRDs.
    pub bundle: Bundle,
    /// The other objects beside the CSVs (RBAC, ConfigMaps, …), each document once; empty for a
    /// flattened `bundle.yaml`.
    pub objects: Vec<crate::Manifest>,
}

impl Contents {
    /// A bundle with no other objects (a flattened `bundle.yaml` holds none).
    pub(crate) fn bare(bundle: Bundle) -> Self {
        Contents {
            bundle,
            objects: Vec::new(),
        }
    }
}

/// Whether `bytes` start with the gzip magic number.
pub fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1f, 0x8b])
}

/// Files of a bundle as (path inside the tar, content).
pub type Files = Vec<(String, Vec<u8>)>;
