//! App registries: the CNR/"appr" HTTP API ([`appr`]) and the embedded directory-backed registry
//! ([`dir`]), behind one type with the same semantics.
//!
//! A registry holds, per namespace and package, releases named by strict SemVer, each pointing at
//! a blob (the bundle `.tar.gz`) by the sha256 of its uncompressed tar. `default` is the highest
//! SemVer release, pre-releases included (SemVer 2.0 §11 precedence). Pushing a release that exists is a
//! conflict unless forced. Stages talk to [`Registry`] only; they never know which kind it is.
#![deny(missing_docs)]

pub mod appr;
pub mod dir;
mod error;
mod registry;
mod release;

pub use error::RegistryError;
pub use registry::{Location, PackageSummary, PushRequest, QUAY_LIST_CAP, Registry};
pub use release::{PushOutcome, ReleaseInfo, Result};
