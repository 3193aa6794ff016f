//! olm-release: the release pipeline of a Kubernetes operator published through the Operator
//! Lifecycle Manager's app registries.
//!
//! The layers, in the order a command passes through them, with the arrows pointing one way:
//! `cli` (clap types) → `settings` (arguments + environment + pipeline file, resolved once,
//! secrets typed) → `plan` (typed steps, every static problem found) → `exec` (the executor
//! and one module per step) → clients ([`registry`], `target`, [`oci`], on `http`, reporting through
//! the `events` sink) → the domain ([`olm`], [`template`]), which depends on none of the above.
//!
//! The public surface is what the integration tests and benchmarks use, and nothing more:
//! [`app::main`] (the binary), [`render`] with [`PipelineArgs`] and [`Rendered`] (rendering a
//! pipeline in-process), [`pipeline::parse`] (the pipeline-file parser, fuzzed), the registry
//! clients ([`registry::appr::ApprClient`], [`registry::dir::DirRegistry`], tested against
//! real servers), the domain ([`olm`], [`template`]), [`secret::Secret`], [`retry::RetryPolicy`] (tests shorten the OCI client's retries) and the errors
//! ([`error::Error`], opaque, with its [`error::Class`]; [`registry::RegistryError`];
//! [`olm::archive::ReadError`] and [`olm::archive::WriteError`], each with its class).
//! Everything else is `pub(crate)`.

pub mod app;
mod ci;
mod cli;
mod commands;
pub mod error;
mod exec;
mod out;
pub mod pipeline;
mod plan;
mod report;
mod settings;

/// `--version` output: the crate version and the commit it was built from.
pub const VERSION_LINE: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("OLM_RELEASE_COMMIT"),
    ")"
);

pub use cli::PipelineArgs;
pub use exec::{Rendered, RenderedFile};
pub use settings::Env;

/// Renders a pipeline's templates into `into`, as `olm-release render PIPELINE --out INTO`
/// does: the settings resolved from `args` and `env`, the plan's render step, and the step run.
pub fn render(args: &PipelineArgs, env: &Env, into: &std::path::Path) -> error::Result<Rendered> {
    let s = settings::resolve(args, settings::RunMode::default(), env)?;
    let step = plan::render_only(&s, into.to_path_buf())?;
    exec::render::render(&step)
}
