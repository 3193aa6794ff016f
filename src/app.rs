//! Commands: each resolves its settings, builds its plan or request, and runs it. `main` only
//! parses arguments, captures the environment and maps errors to exit codes.

use std::sync::Arc;

use crate::cli::{Cli, Command, Format, PipelineArgs};
use crate::commands;
use crate::error::{CommandError, Result};
use crate::exec;
use crate::plan::{self, Plan};
use crate::report::{Fold, Reporter, Verbosity};
use crate::settings::{self, Env, RunMode};

/// Runs the command the user asked for.
pub async fn run(cli: Cli, env: Env) -> Result<()> {
    let verbosity = if cli.quiet {
        Verbosity::Quiet
    } else if cli.verbose > 0 {
        Verbosity::Verbose
    } else {
        Verbosity::Normal
    };
    let json = cli.format == Format::Json;
    if matches!(cli.format, Format::Dot | Format::Mermaid)
        && !matches!(cli.command, Command::Graph(_))
    {
        return Err(CommandError::Format.into());
    }
    let ci = crate::ci::CiContext::from_env(&env);
    let interactive = std::io::IsTerminal::is_terminal(&std::io::stderr())
        && ci.provider.is_none()
        && !env.contains_key("CI");
    let report = Arc::new(
        Reporter::new(verbosity, json)
            .with_fold(Fold::for_provider(ci.provider.as_deref()))
            .with_interactive(interactive),
    );
    match cli.command {
        Command::Run(args) => {
            let mode = RunMode {
                dry_run: args.dry_run,
                force: args.force,
            };
            let plan = pipeline_plan(&args.common, mode, &env)?;
            run_plan(&plan, &report).await
        }
        Command::Plan(args) => {
            let mode = RunMode {
                dry_run: args.dry_run,
                force: args.force,
            };
            let plan = pipeline_plan(&args.common, mode, &env)?;
            if json {
                crate::out::stdout(&format!(
                    "{}\n",
                    serde_json::to_string_pretty(&plan).expect("a plan serialises")
                ));
            } else {
                crate::out::stdout(&plan.to_string());
            }
            Ok(())
        }
        Command::Render(args) => {
            let s = settings::resolve(&args, RunMode::default(), &env)?;
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
        Command::Verify(args) => commands::verify::run(&args, json),
        Command::Graph(args) => commands::graph::run(&args, cli.format, &env, &report).await,
        Command::NextVersion(args) => {
            let last = match &args.last {
                Some(t) => t.clone(),
                None => commands::next_version::last_tag(&args.source)?,
            };
            let next = commands::next_version::alpha_after(&last, args.build)?;
            crate::out::stdout(&format!("{next}\n"));
            Ok(())
        }
        Command::Completions(args) => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            let mut buf = Vec::new();
            clap_complete::generate(args.shell, &mut cmd, "olm-release", &mut buf);
            crate::out::stdout(&String::from_utf8_lossy(&buf));
            Ok(())
        }
        Command::Man => {
            let cmd = <Cli as clap::CommandFactory>::command();
            let mut buf = Vec::new();
            clap_mangen::Man::new(cmd)
                .render(&mut buf)
                .map_err(|e| CommandError::Man(e.to_string()))?;
            crate::out::stdout(&String::from_utf8_lossy(&buf));
            Ok(())
        }
        Command::Registry(cmd) => commands::registry::run(cmd, &env, json, &report).await,
        Command::Publish(args) => {
            let plan = commands::publish::plan(&args, &env)?;
            run_plan(&plan, &report).await
        }
    }
}

/// A pipeline file resolved and planned; every problem at once.
fn pipeline_plan(args: &PipelineArgs, mode: RunMode, env: &Env) -> Result<Plan> {
    let s = settings::resolve(args, mode, env)?;
    Ok(plan::build(&s)?)
}

/// `run` and `publish`: the plan (with `-v`), every step, then the summary.
async fn run_plan(plan: &Plan, report: &Arc<Reporter>) -> Result<()> {
    let h = plan.header();
    report.begin(
        &h.pipeline,
        h.package.as_deref().unwrap_or_default(),
        h.channel.as_deref().unwrap_or_default(),
        &h.version,
        h.dry_run,
    );
    for line in plan.to_string().lines() {
        report.detail(line);
    }
    for n in &h.notes {
        report.info(n);
    }
    let result = exec::execute(plan, report).await;
    if let Err(e) = &result {
        report.fail(&e.to_string());
    }
    report.finish();
    result
}
