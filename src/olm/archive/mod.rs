//! The bundle tarball: writing it reproducibly and reading it defensively.
//!
//! Writing follows what the app registry's consumers read (operator-courier's `bundle.yaml` format,
//! read by the appr server and OLM's app-registry loader): by default one flattened `bundle.yaml`
//! whose `data.customResourceDefinitions`, `data.clusterServiceVersions` and `data.packages` are
//! YAML strings holding lists; optionally the nested tree (the package file plus one folder per CSV
//! version). The tar is reproducible: entries sorted, modes fixed, owner 0, mtime from
//! `SOURCE_DATE_EPOCH` (or 0), and the gzip header carries no name or time. The registry's digest
//! is the sha256 of the *uncompressed* tar.
//!
//! Reading treats the blob as untrusted: non-gzip or truncated data, entries with `..` or an
//! absolute path, links, devices, too many entries, too many bytes or too high a compression
//! ratio are refused with an error naming the entry. Nothing is written to disk while reading.

mod read;
mod release;
mod write;

pub use read::{
    parse_flattened_list, parse_flattened_top, parse_single, read_bundle, read_dir_with,
    read_flattened, read_path, tar_digest, unpack,
};
pub use release::{unpack_release, write_folder};
pub use write::{bundle_files, csv_list_item, flatten, flatten_parts, pack};

use sha2::{Digest, Sha256};

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
    pub gz: Vec<u8>,
    /// sha256 (hex) of the uncompressed tar: what the app registry calls the digest.
    pub digest: String,
    /// sha256 (hex) of the `.tar.gz` file.
    pub gz_digest: String,
    /// Size of the uncompressed tar in bytes.
    pub tar_size: u64,
}

/// Limits applied when reading an untrusted blob.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_entries: usize,
    pub max_bytes: u64,
    /// Uncompressed bytes per compressed byte, above which the blob is refused.
    pub max_ratio: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_entries: 10_000,
            max_bytes: 512 * 1024 * 1024,
            max_ratio: 1_000,
        }
    }
}

/// Files of a bundle as (path inside the tar, content).
pub type Files = Vec<(String, Vec<u8>)>;

/// Hex sha256 of some bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}
