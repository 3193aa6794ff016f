//! The bundle image and its publishing: reproducible bytes, the real distribution registry
//! (scripts/peers/oci-registry.sh) with skopeo and umoci as independent readers, the
//! `oci:PATH` layout, and an in-process fake for the Bearer token flow and read-back faults.

mod bearer;
pub mod fake;
mod kubevirt;
mod layout;
mod layout_checks;
mod real_registry;
mod rules;

use std::sync::Mutex;

use olm_release_oci::{Event, Events};

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

/// Records every event.
#[derive(Default)]
pub struct Recorder(pub Mutex<Vec<Event>>);

impl Events for Recorder {
    fn event(&self, e: Event) {
        self.0.lock().unwrap().push(e);
    }
}

impl Recorder {
    pub fn take(&self) -> Vec<Event> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}
