//! `olm-release init`: scaffolds an operator repository for olm-release, as `cargo dist init`
//! does for a Rust project. It scans the repository ([`scan`]), works out the layout of its OLM
//! manifests and the operator it releases ([`detect`]), and plans one pipeline file with its
//! variants ([`pipeline`]), templates where the repository has none to render in place
//! ([`starter`]), and CI configurations ([`ci`]) — every file computed before any is written
//! ([`plan`]). Writing ([`write`]) is safe to repeat: a file already as `init` would write it
//! is left alone, a missing one is written, and one that differs is replaced only with
//! `--force`; a rerun over its own output says that nothing changed.

pub(crate) mod base_csv;
pub(crate) mod bundles;
pub(crate) mod choices;
pub(crate) mod ci;
pub(crate) mod detect;
pub(crate) mod error;
pub(crate) mod found;
pub(crate) mod images;
pub(crate) mod kustomize;
pub(crate) mod operators;
pub(crate) mod parts;
pub(crate) mod pipeline;
pub(crate) mod plain;
pub(crate) mod plan;
pub(crate) mod rbac;
pub(crate) mod report;
pub(crate) mod scan;
pub(crate) mod starter;
pub(crate) mod templates;
pub(crate) mod vars;
pub(crate) mod write;

use crate::cli::InitArgs;
use crate::error::Result;

/// `init`.
pub(crate) fn run(args: &InitArgs) -> Result<()> {
    let plan = plan::plan(args)?;
    write::write(args, &plan)?;
    Ok(())
}
