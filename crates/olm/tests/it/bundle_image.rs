//! The bundle image (`olm::bundle_image`): the bundle folder and its image with exact,
//! reproducible bytes, and one bundle per CSV split from an app-registry bundle. Pushing the
//! image is the OCI crate's (crates/oci/tests).

mod build;
pub mod sample;
mod split;

pub use sample::{image, input};
