//! olm-release: the release pipeline of a Kubernetes operator published through the Operator
//! Lifecycle Manager's app registries.
//!
//! The layers, in the order a command passes through them: [`cli`] (arguments) → [`settings`]
//! (arguments + environment + pipeline file, resolved once) → [`plan`] (printable steps) →
//! [`stages`] (render, fetch-previous, package, verify, push, release) → clients ([`registry`],
//! [`target`], built on [`http`]). The domain lives in [`olm`] (manifests, bundles, validation)
//! and [`template`] (Go `text/template` rendering).

pub mod app;
mod atomic;
pub mod ci;
pub mod cli;
pub mod commands;
pub mod diff;
pub mod error;
mod events;
pub mod exec;
pub mod http;
pub mod olm;
mod out;
pub mod pipeline;
pub mod plan;
pub mod registry;
mod report;
pub mod retry;
pub mod secret;
pub mod settings;
pub mod target;
pub mod template;

/// `--version` output: the crate version and the commit it was built from.
pub const VERSION_LINE: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("OLM_RELEASE_COMMIT"),
    ")"
);

pub use exec::Rendered;

/// Renders a pipeline's templates into `into`, as `olm-release render PIPELINE --out INTO`
/// does: the settings resolved from `args` and `env`, the plan's render step, and the step run.
pub fn render(
    args: &cli::PipelineArgs,
    env: &settings::Env,
    into: &std::path::Path,
) -> error::Result<Rendered> {
    let s = settings::resolve(args, settings::RunMode::default(), env)?;
    let step = plan::render_only(&s, into.to_path_buf())?;
    exec::render::render(&step)
}
