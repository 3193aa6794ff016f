//! `init`: adopting an operator repository for olm-release, as `cargo dist init` does for a
//! Rust project. It scans the repository (`scan`), works out the layout of its OLM manifests
//! and the operator it releases (`detect`), and computes one pipeline file with its variants
//! (`pipeline_file`), templates where the repository has none to render in place
//! (`starter`), and CI configurations (`ci`) — every file computed before any is written
//! (`scaffold`). A kubebuilder / operator-sdk project whose `make bundle` builds a
//! kustomization is built the same way and turned into the bundle `operator-sdk generate
//! bundle` writes ([`generate_bundle`]), kept as a snapshot each release checks
//! ([`check_kustomize_snapshot`]). Writing (`write`) is safe to repeat: a file already as
//! `init` would write it is left alone, a missing one is written, one still as `init` last
//! wrote it (`written` keeps the digests) is refreshed, and one the user changed is kept and
//! named as a conflict unless [`Request::force`]; a rerun over its own output says that
//! nothing changed.
//!
//! The one entry point is [`init`]: a [`Request`] (plain data: the repository, the options of
//! `olm-release init`, and the [`InstallerPin`] the CI configurations install) in, an
//! [`Outcome`] (what was found, what became of each file, what is left to do) or an
//! [`InitError`] out. Nothing is printed here: the caller says [`Outcome::lines`].
#![deny(missing_docs)]

mod base_csv;
mod bundle_metadata;
mod bundles;
mod channels;
mod choices;
mod ci;
mod ci_used;
mod detect;
mod duplicates;
mod error;
mod flavour_variants;
mod flavours;
mod found;
mod generate_bundle;
mod gitignore;
mod images;
mod kustomize;
mod make_bundle;
mod makefile;
mod messages;
mod operators;
mod outcome;
mod parts;
mod pipeline_file;
mod plain;
mod rbac;
mod request;
mod scaffold;
mod scan;
mod starter;
mod templates;
mod vars;
mod write;
mod written;

pub use error::InitError;
pub use generate_bundle::{GeneratedBundle, generate_bundle};
pub use make_bundle::{StaleSnapshot, check_kustomize_snapshot};
pub use outcome::{Fate, FileFate, Outcome};
pub use request::{CiService, InstallerPin, Request};

/// Where `init` writes the pipeline file, relative to the repository.
pub const PIPELINE_PATH: &str = pipeline_file::PATH;

/// Adopts the repository `request` names: scans it, computes every file, then writes them
/// (under [`Request::out`] when given), replacing none that differs unless
/// [`Request::force`].
pub fn init(request: &Request) -> Result<Outcome, InitError> {
    let scaffold = scaffold::scaffold(request)?;
    let root = request.out.as_deref().unwrap_or(&request.source);
    write::write(root, request.force, scaffold)
}
