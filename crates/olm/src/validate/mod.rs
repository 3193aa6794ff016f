//! Bundle validation: every rule of the catalogue ([`rules`]), each finding naming file, object
//! and field, the tools that enforce the rule and how to fix it.
//!
//! One entry point per input: [`verify_path`] (a folder, a flattened `bundle.yaml` or a
//! `.tar.gz`, used by `olm-release verify`), [`verify_tarball`] (a blob), [`verify_packed`] (the
//! verify stage, on the bundle it has just packed), [`verify_contents`] (a rendered bundle and
//! its objects, as `plan` checks them) and [`validate_with`] (an in-memory bundle).
//! All of them end in the same two passes: the checks of one bundle (each CSV alone in [`csv`],
//! `examples`, [`present`], [`install`], `deployment` (the install strategy's Deployments as the
//! API server reads them) and `types`; CRDs and what the CSVs own in [`crd`];
//! other objects in `objects`) run on every bundle folder, and the checks across the package
//! ([`package`], [`graph`]) run once on all its CSVs. [`load`] turns files into bundle folders;
//! string checks are hand-written in [`text`] (no regular expressions to compile per CSV).

pub mod accept;
mod checks;
mod conversion;
pub mod crd;
pub mod csv;
mod deployment;
mod examples;
pub mod graph;
pub mod install;
pub mod load;
mod model;
mod objects;
pub(crate) mod olm_v1;
pub mod package;
mod pods;
pub mod present;
mod report;
pub mod rules;
mod sink;
pub mod streamed;
pub mod text;
mod types;

pub use checks::{
    check, check_across, check_csv, check_loaded, check_size_streamed, check_unit, skeleton,
    validate, validate_with,
};
pub use model::{Categories, Options, Profile, Unit, VerifyError, check_provided, read_categories};
pub use report::{
    Report, verify_contents, verify_history_release, verify_packed, verify_packed_streamed,
    verify_path, verify_path_with, verify_tarball,
};
pub use sink::{At, Sink};
