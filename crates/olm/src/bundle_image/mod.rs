//! The registry+v1 bundle and its reproducible OCI image: the domain half of publishing a
//! bundle image (no I/O beyond reading and writing the bundle folder, no network).
//!
//! A bundle is one operator version: `manifests/` (the CSV, its CRDs and the other objects OLM
//! accepts in a bundle), `metadata/annotations.yaml` (the six
//! `operators.operatorframework.io.bundle.*` keys and the project's other annotations),
//! `tests/scorecard/` where the project has it, and `bundle.Dockerfile`, as operator-registry's
//! `docs/design/operator-bundle.md` describes. [`folder`] builds that folder from plain data
//! ([`BundleInput`]) or reads one from disk; [`image`] turns it into a single-layer OCI image
//! whose bytes depend only on the bundle's files and a timestamp (`SOURCE_DATE_EPOCH` or 0), so
//! the same inputs give the same manifest digest on any machine. Cutting an app-registry
//! bundle into one bundle per CSV, for migrating, is [`crate::fbc::migrate`]'s job.
//! [`release`] labels a release's bundle with channels, and finds the labels a published
//! image of it was built with. Pushing is the `oci` client's job.

pub mod annotations;
mod error;
pub mod folder;
pub mod image;
pub mod metadata;
pub mod names;
pub mod release;

pub use folder::{BundleFolder, BundleInput, BundleSpec};
pub use image::{Blob, OciImage, build_image};
pub use metadata::BundleMetadata;
pub use release::ReleaseBundle;

pub use error::{BundleImageError, LABEL_KEYS};
