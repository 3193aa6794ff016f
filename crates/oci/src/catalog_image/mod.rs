//! Catalog images: an opm base image plus one layer holding a file-based catalog under
//! `/configs`, as `opm generate dockerfile` describes it (operator-registry,
//! `alpha/action/generate_dockerfile.go`), built without a container daemon.
//!
//! - [`read_base`] reads the base by digest: its manifest, or its index and one manifest per
//!   platform, and each platform's config; [`read_base_within`] then checks every blob it
//!   names against its descriptor and the base against [`BaseLimits`] (`base_check`).
//! - [`build`] adds the catalog layer to every platform: a reproducible gzip tar of
//!   `configs/…` (sorted entries, owner 0:0, fixed modes, every mtime the given epoch), a
//!   config that keeps the base's own and adds the label
//!   `operators.operatorframework.io.index.configs.v1=/configs`, `Entrypoint ["/bin/opm"]` and
//!   `Cmd ["serve", "/configs", "--cache-dir=/tmp/cache"]`, and a new manifest (and index).
//!   The same catalog on the same base at the same epoch is the same digest.
//! - [`read_head`] reads the catalog a tag holds now: the tag's digest and the `configs/`
//!   files of its top layer.
//! - [`publish`] pushes the blobs (the base's layers mounted from the base's repository on the
//!   same registry, else copied blob by blob), the manifests by digest, and moves the tag as a
//!   compare-and-swap: only if it still names the digest the catalog was read at.

mod base_check;
pub(crate) mod build;
pub(crate) mod read;
mod swap;

pub use base_check::BaseLimits;
pub use build::{
    BaseImage, CMD, CatalogImage, ENTRYPOINT, INDEX_LABEL, build, catalog_path_of, config_lines,
};
pub use read::{Head, read_base, read_base_within, read_head};
pub use swap::{Swapped, publish};
