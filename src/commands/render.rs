//! `olm-release render PIPELINE`: the pipeline's render step alone, into `--out` (default
//! `<out>/render`), printing the findings on stderr and the rendered files on stdout.

use std::path::Path;

use crate::cli::PipelineArgs;
use crate::error::Result;
use crate::exec::{self, Rendered};
use crate::pipeline::Uses;
use crate::plan;
use crate::report::Reporter;
use crate::settings::{self, Env, RunMode};

/// Renders a pipeline's templates into `into`, as `olm-release render PIPELINE --out INTO`
/// does: the settings resolved from `args` and `env`, the plan's render step, and the step run.
pub fn render(args: &PipelineArgs, env: &Env, into: &Path) -> Result<Rendered> {
    let s = settings::resolve(args, RunMode::default(), env, Uses::Render)?;
    let step = plan::render_only(&s, into.to_path_buf())?;
    exec::render::render(&step)
}

/// The command: rendering sends nothing, so a plain `http://` URL in the pipeline is no reason
/// to refuse it. It warns as `run` does (a `--var` the file never reads).
pub(crate) fn run(mut args: PipelineArgs, env: &Env, report: &Reporter) -> Result<()> {
    args.insecure = true;
    let s = settings::resolve(&args, RunMode::default(), env, Uses::Render)?;
    for w in &s.warnings {
        report.warn(w);
    }
    let into = args.out.clone().unwrap_or_else(|| s.out.join("render"));
    let step = plan::render_only(&s, into)?;
    let rendered = exec::render::render(&step)?;
    for f in &rendered.findings {
        crate::out::stderr(&format!("{f}\n"));
    }
    for f in &rendered.files {
        crate::out::stdout(&format!("{}\n", rendered.dir.join(&f.path).display()));
    }
    Ok(())
}
