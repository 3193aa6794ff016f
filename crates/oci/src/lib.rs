//! Publishing OCI images: a small client for the OCI distribution API, the embedded OCI image
//! layout (`oci:PATH`), and the push operation that ties either to a built image.
//!
//! Requests come in as plain data ([`ImageLocation`], [`StoreOptions`], [`PushRequest`]); results go
//! out typed ([`PushOutcome`], [`Decision`]); progress and retries are reported through an
//! [`Events`] callback, so the caller decides what the user sees. The transport is the
//! project's reqwest 0.12 through [`olm_release_http`] (timeouts, capped bodies, no automatic
//! redirects) with [`olm_release_http::retry::RetryPolicy`]; there is one HTTP stack in the binary.
//!
//! [`bundle_read`] reads a registry+v1 bundle image's files back (by tag or digest), for
//! commands that take a bundle as an image.
//!
//! Image locations ([`ImageLocation`]): `oci:PATH` is an OCI image layout folder (image-spec `image-layout.md`);
//! `[http://|https://|docker://]HOST[:PORT]/REPOSITORY` a repository of a remote OCI registry
//! ([`RemoteRepository`], spoken to through the distribution API's [`DistributionClient`]). Without a
//! scheme a registry is reached over https, except a loopback host (`localhost`,
//! `127.0.0.0/8`, `::1`), which is reached over plain http as Docker treats it; plain http
//! to any other host is refused unless the caller sets `insecure`.
#![deny(missing_docs)]

pub mod bundle_read;
pub mod catalog_image;
pub mod distribution;
mod error;
pub mod layout;
mod location;
pub mod push;

pub use distribution::{Credentials, DistributionClient};
pub use error::OciError;
pub use layout::Layout;
pub use location::{
    Event, Events, ImageLocation, NoEvents, RemoteRepository, check_tag, tag_for_version,
};
pub use push::{Decision, PushOutcome, PushRequest, Store, StoreOptions, check, push};
