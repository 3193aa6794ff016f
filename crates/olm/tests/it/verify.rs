//! Validation (`olm::validate`) against the corpus (fixtures/verify), against operator-courier
//! 2.1.11 (`scripts/peers/courier.sh`) and operator-framework's own suites (the `shared` reference folder beside the clone): the
//! rules, package-manifest trees, the reproducible tarball and the upgrade graph. The `verify`
//! command and stage, which run these through the binary, are the application's tests
//! (tests/it/verify).
//!
//! [`validators`] puts any bundle folder through both tools; the application's tests include it.

mod archive;
mod corpus;
mod graph;
mod parity;
mod real_trees;
mod rules;
mod trees;
pub mod validators;

pub use validators::{assert_valid_for_both, corpus_dir, courier_verify, ours, show};
