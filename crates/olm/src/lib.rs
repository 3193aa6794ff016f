//! The OLM domain: manifests, the package file, bundles, findings and validation.
//!
//! Manifests are kept as YAML values ([`Manifest`]) rather than fully typed structs, so that
//! everything an author wrote survives a round trip in its original key order; typed accessors
//! read the few fields the pipeline reasons about (name, version, replaces, owned CRDs). The
//! package file is small and fully typed ([`PackageManifest`]). A [`Bundle`] is the package plus
//! every CSV and CRD that is published together; [`archive`] turns it into the app registry's
//! tarball and back, and [`validate`] checks it. [`fbc`] is the modern publishing path's half:
//! file-based catalogs, their validation, and the migration from an app-registry release.
//! [`decision`] decides where a release goes against what is published, and [`render_checks`]
//! reports the defects rendering sees in an operator's inputs; [`rendered_bundle`] finds the
//! bundle's parts among the rendered files.
//! [`community`] reads OperatorHub's community layout (`operators/<package>/`) as data.
//! [`cluster`] renders a registry+v1 bundle into the objects OLM v1 applies for it, and says
//! why OLM v1 would refuse it.
#![deny(missing_docs)]

pub mod archive;
pub mod bundle_image;
pub mod cluster;
pub mod community;
pub mod csv_build;
pub mod decision;
pub mod drawing;
pub mod fbc;
pub mod finding;
pub mod flat_yaml;
pub mod graph;
pub mod history;
mod manifest;
pub mod render_checks;
pub mod rendered_bundle;
pub mod semdiff;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod validate;

pub use finding::{Finding, Level};
pub use manifest::{
    Bundle, Channel, Manifest, PackageManifest, canonical_csv_order, crd_file_name, csv_file_name,
    value_at,
};
pub(crate) use manifest::{DocKind, canonical_crd_order, doc_kind};
