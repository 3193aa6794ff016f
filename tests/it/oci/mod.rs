//! The bundle image as the pipeline publishes it: KubeVirt's v0.22.0 bundle image, and a rerun on
//! a broken `oci:` layout. Pushing the image (the real registry, the layout, the Bearer token
//! flow and read-back faults) is the OCI crate's tests (crates/oci/tests/it); its in-process
//! registry fake and the OLM crate's sample bundle are included here for the application's
//! network tests.

#[path = "../../../crates/oci/tests/it/fake.rs"]
pub mod fake;
mod kubevirt;
mod layout_checks;

#[allow(dead_code)]
#[path = "../../../crates/olm/tests/it/bundle_image/sample.rs"]
mod sample;

pub use olm_release_testsupport::{run, umoci_unpack};
pub use sample::{folder_files, image};

/// A repository name no other test uses (the real registry is shared by the whole run).
pub fn repo(test: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!("olm-test/{test}-{}-{nanos}", std::process::id())
}
