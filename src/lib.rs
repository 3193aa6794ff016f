//! olm-release: the release pipeline of a Kubernetes operator published through the Operator
//! Lifecycle Manager — bundle images and file-based catalogs, and the app registries of 2019.
//!
//! This crate is the application: `cli` (clap types) → `settings` (arguments + environment +
//! pipeline file, resolved once, secrets typed) → `plan` (typed steps, every static problem
//! found) → `exec` (the executor and one module per step) → the clients
//! (`olm_release_appregistry`, `olm_release_oci`, `olm_release_github`, on `olm_release_http`)
//! → the domain (`olm_release_olm`, `olm_release_gotemplate`), all on `olm_release_base`.
//!
//! The public surface is what the binary and the integration tests use: [`app::main`], [`render`]
//! with [`PipelineArgs`] and [`Rendered`] (a pipeline rendered in-process), and [`pipeline`]
//! (the pipeline-file parser, fuzzed). Everything else is `pub(crate)`.

pub mod app;
mod ci;
mod cli;
mod commands;
mod error;
mod exec;
mod out;
pub mod pipeline;
mod plan;
mod report;
mod settings;

pub use cli::PipelineArgs;
pub use commands::render::render;
pub use error::Error;
pub use exec::{Rendered, RenderedFile};
pub use settings::Env;
