//! Verify as the application runs it: the `verify` command and the pipeline's verify stage, the
//! objects beside the CSV given the same verdict all three ways, the install strategy, and
//! `scripts/courier_local.py`. The validation itself, against the corpus and operator-courier,
//! is the OLM crate's (crates/olm/tests/it/verify); its helpers are included below so other
//! tests (e.g. KubeVirt's rendered bundles) can put any bundle folder through both tools.

mod cli;
mod courier_local;
mod install_strategy;
mod objects;
mod pipeline;

#[allow(dead_code)]
#[path = "../../crates/olm/tests/it/verify/validators.rs"]
mod validators;

pub use validators::{assert_valid_for_both, corpus_dir, courier_verify, ours, show};
