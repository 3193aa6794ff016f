//! Publishing OCI images: a small client for the OCI distribution API, the embedded OCI image
//! layout target (`oci:PATH`), and the push operation that ties either to a built image.
//!
//! Requests come in as plain data ([`Target`], [`StoreOptions`], [`PushRequest`]); results go
//! out typed ([`PushOutcome`], [`Decision`]); progress and retries are reported through an
//! [`Events`] callback, so the caller decides what the user sees. The transport is the
//! project's reqwest 0.12 through [`olm_release_http`] (timeouts, capped bodies, no automatic
//! redirects) with [`olm_release_http::retry::RetryPolicy`]; there is one HTTP stack in the binary.
//!
//! Targets: `oci:PATH` is an OCI image layout folder (image-spec `image-layout.md`);
//! `[http://|https://|docker://]HOST[:PORT]/REPOSITORY` is a registry repository. Without a
//! scheme a registry is reached over https, except a loopback host (`localhost`,
//! `127.0.0.0/8`, `::1`), which is reached over plain http as Docker treats it; plain http
//! to any other host is refused unless the caller sets `insecure`.
#![deny(missing_docs)]

pub mod catalog_image;
pub mod distribution;
mod error;
pub mod layout;
pub mod push;
mod target;

pub use distribution::{Credentials, RegistryClient};
pub use error::OciError;
pub use layout::Layout;
pub use push::{Decision, PushOutcome, PushRequest, Store, StoreOptions, check, push};
pub use target::{Event, Events, NoEvents, RegistryRef, Target, check_tag, tag_for_version};
