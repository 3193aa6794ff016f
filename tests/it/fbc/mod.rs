//! File-based catalogs from what the pipeline published: the sample operator's and KubeVirt's
//! releases migrated into a catalog. The catalog model, its validation and the migration
//! itself are the OLM crate's tests (crates/olm/tests/it/fbc), whose checks every migration
//! must pass are included here.

mod migrate;

#[allow(dead_code)]
#[path = "../../../crates/olm/tests/it/fbc/migration_check.rs"]
mod migration_check;

/// An image reference pinned by a digest derived from `seed` (as the OLM crate's tests pin
/// theirs, which [`migration_check`] expects).
pub fn image(seed: &str) -> String {
    format!(
        "quay.io/example/bundle@sha256:{}",
        olm_release_base::digest::sha256_hex(seed.as_bytes())
    )
}
