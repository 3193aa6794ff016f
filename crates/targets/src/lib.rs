//! Release targets: where the chosen artifacts of a release are attached — a local folder
//! ([`dir`]) or a GitHub release ([`github`]).
//!
//! Targets take plain data: the [`Asset`]s (name, bytes, sha256) and a request naming the
//! release; they report progress through [`olm_release_http::events::Events`] and ask
//! [`olm_release_http::events::Gate`] before every write. Which files the assets are is the
//! application's release step's business.
#![deny(missing_docs)]

mod asset;
pub mod dir;
pub mod github;

pub use asset::{Asset, TargetError};
