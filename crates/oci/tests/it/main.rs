//! The OCI crate's integration tests, through its public API only: pushing the bundle image to
//! the real distribution registry (scripts/peers/oci-registry.sh) with skopeo and umoci as
//! independent readers, to an `oci:PATH` layout, and to an in-process fake for the Bearer
//! token flow and read-back faults. The image pushed is the OLM crate's sample bundle
//! (crates/olm/tests/it/bundle_image/sample.rs, included). Shared helpers come from
//! `olm_release_testsupport`, reached as `support` like the application's tests do.

mod base_checks;
mod bearer;
pub mod fake;
mod layout;
mod layout_checks;
mod real_registry;
mod rules;

use std::sync::Mutex;

use olm_release_oci::{Event, Events, NoEvents, OciError, PushOutcome, PushRequest, Store, push};
use olm_release_testsupport as support;

#[allow(dead_code)]
#[path = "../../../olm/tests/it/bundle_image/sample.rs"]
mod sample;

pub use sample::{folder_files, image};
pub use support::{run, umoci_unpack};

/// A repository name no other test uses (the real registry is shared by the whole run).
pub fn repo(test: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!("olm-test/{test}-{}-{nanos}", std::process::id())
}

/// Pushes `img` to `tag` of `store` without force, ignoring the events.
pub async fn push_tag(
    store: &Store,
    img: &olm_release_olm::bundle_image::OciImage,
    tag: &str,
) -> Result<PushOutcome, OciError> {
    let req = PushRequest {
        image: img,
        tag,
        force: false,
    };
    push(store, &req, &NoEvents).await
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
