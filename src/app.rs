//! Commands: each resolves its settings, builds its plan or request, and runs it. `main` only
//! parses arguments, captures the environment and maps errors to exit codes.

use std::sync::Arc;

use crate::cli::{Cli, Command, Format, PipelineArgs};
use crate::commands;
use crate::commands::CommandError;
use crate::error::{Problems, Result};
use crate::exec;
use crate::plan::{self, Plan};
use crate::report::{Fold, Reporter, Verbosity};
use crate::settings::{self, Env, RunMode};

/// The whole program: parses the arguments, captures the environment once, runs the command on
/// an async runtime, prints the error (if any) and returns the exit code.
pub fn main() -> i32 {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let cli = match <Cli as clap::Parser>::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => return argument_error(&e, &args),
    };
    let env = std::env::vars().collect();
    // One thread: the work is a sequence of steps and a few requests at a time (uploads run
    // concurrently on it); CPU-heavy reading of a bundle folder uses its own threads. No worker
    // threads to start keeps the fixed cost of a short command low.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("the async runtime starts");
    match runtime.block_on(run(cli, env)) {
        Ok(()) => 0,
        Err(e) => {
            crate::out::line(&format!("error: {e}"));
            e.exit_code()
        }
    }
}

/// A command line clap refused (exit 2), or `--help`/`--version` (exit 0). With `--format
/// json` a refused command line still gets its summary document on stdout.
fn argument_error(e: &clap::Error, args: &[std::ffi::OsString]) -> i32 {
    if !e.use_stderr() {
        crate::out::stdout(&e.render().to_string());
        return 0;
    }
    crate::out::stderr(&e.render().to_string());
    let words: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let json = words
        .windows(2)
        .any(|w| w[0] == "--format" && w[1] == "json")
        || words.iter().any(|w| w == "--format=json");
    if json {
        let report = Reporter::new(Verbosity::Quiet, true);
        report.command(words.get(1).map(String::as_str).unwrap_or("olm-release"));
        let message = e.kind().as_str().unwrap_or("invalid arguments").to_string();
        report.fail(&CommandError::Arguments(message).into());
        report.finish();
    }
    2
}

/// Runs the command the user asked for.
pub(crate) async fn run(cli: Cli, env: Env) -> Result<()> {
    let verbosity = if cli.quiet {
        Verbosity::Quiet
    } else if cli.verbose > 0 {
        Verbosity::Verbose
    } else {
        Verbosity::Normal
    };
    let json = cli.format == Format::Json;
    // Dot and Mermaid reach here from `graph --format` only: the global `--format` takes
    // human or json (see `cli::format_parser`).
    let ci = crate::ci::CiContext::from_env(&env);
    let network = olm_release_http::Network::load(&settings::network(&env));
    let interactive = std::io::IsTerminal::is_terminal(&std::io::stderr())
        && ci.provider.is_none()
        && !env.contains_key("CI");
    let mut reporter = Reporter::new(verbosity, json)
        .with_fold(Fold::for_provider(ci.provider.as_deref()))
        .with_interactive(interactive);
    if let Some(files) = ci.github_files.clone() {
        reporter = reporter.with_github(files);
    }
    let report = Arc::new(reporter);
    let name = command_name(&cli.command);
    let summarised = matches!(cli.command, Command::Run(_) | Command::Publish(_));
    report.command(name);
    let result = match network {
        Ok(network) => {
            olm_release_http::configure(network);
            dispatch(
                cli.command,
                cli.format,
                cli.quiet,
                cli.max_bundle_bytes,
                &env,
                &report,
            )
            .await
        }
        Err(e) => Err(e.into()),
    };
    if let Err(e) = &result
        && !report.finished()
    {
        if json && (summarised || !crate::out::stdout_used()) {
            // A program reading JSON gets one document for every outcome, even when the
            // failure came before a plan existed (a bad pipeline file, a missing credential).
            report.fail(e);
            report.finish();
        } else {
            report.failed_in_ci(e, summarised);
        }
    }
    result
}

fn command_name(c: &Command) -> &'static str {
    match c {
        Command::Run(_) => "run",
        Command::Plan(_) => "plan",
        Command::Render(_) => "render",
        Command::Verify(_) => "verify",
        Command::Diff(_) => "diff",
        Command::Graph(_) => "graph",
        Command::InstallManifests(_) => "install-manifests",
        Command::NextVersion(_) => "next-version",
        Command::Init(_) => "init",
        Command::Completions(_) => "completions",
        Command::Man(_) => "man",
        Command::Registry(_) => "registry",
        Command::Publish(_) => "publish",
        Command::Migrate(_) => "migrate",
        Command::Import(_) => "import",
    }
}

async fn dispatch(
    command: Command,
    format: Format,
    quiet: bool,
    max_bundle_bytes: Option<u64>,
    env: &Env,
    report: &Arc<Reporter>,
) -> Result<()> {
    let json = format == Format::Json;
    // The limits on the bundles a command without a pipeline file reads.
    let limits = || settings::bundle_limits(max_bundle_bytes, env).map_err(|p| Problems(vec![p]));
    match command {
        Command::Run(mut args) => {
            args.common.insecure = args.insecure;
            let mode = RunMode {
                dry_run: args.dry_run,
                force: args.force,
            };
            let plan = pipeline_plan(&args.common, mode, max_bundle_bytes, env)?;
            run_plan(&plan, report).await
        }
        Command::Plan(mut args) => {
            args.common.insecure = args.insecure;
            let mode = RunMode {
                dry_run: args.dry_run,
                force: args.force,
            };
            let plan = pipeline_plan(&args.common, mode, max_bundle_bytes, env)?;
            commands::plan::show(&plan, json, report);
            Ok(())
        }
        Command::Render(args) => commands::render::run(args, env, report),
        Command::Verify(args) => commands::verify::run(&args, json, quiet, &limits()?, report),
        Command::Diff(args) => commands::diff::run(&args, json),
        Command::Graph(args) => commands::graph::run(&args, format, env, &limits()?, report).await,
        Command::InstallManifests(args) => {
            commands::install_manifests::run(&args, json, &limits()?, env).await
        }
        Command::NextVersion(args) => {
            let ci = crate::ci::CiContext::from_env(env);
            Ok(commands::next_version::run(
                &args,
                ci.branch.as_deref(),
                quiet,
            )?)
        }
        Command::Init(args) => commands::init::run(&args, env),
        Command::Completions(args) => {
            crate::out::stdout(&commands::completions::script(args.shell));
            Ok(())
        }
        Command::Man(args) => {
            match &args.dir {
                Some(dir) => {
                    for path in commands::man::write_dir(dir)? {
                        crate::out::stdout(&format!("{}\n", path.display()));
                    }
                }
                None => crate::out::stdout(&commands::man::page(false)?),
            }
            Ok(())
        }
        Command::Registry(cmd) => commands::registry::run(cmd, env, json, &limits()?, report).await,
        Command::Publish(args) => {
            let plan = commands::publish::plan(&args, env, limits()?)?;
            run_plan(&plan, report).await
        }
        Command::Migrate(args) => {
            let plan = commands::migrate::plan(&args, env, limits()?)?;
            run_plan(&plan, report).await
        }
        Command::Import(args) => {
            let plan = commands::import::plan(&args, env, limits()?)?;
            run_plan(&plan, report).await
        }
    }
}

/// A pipeline file resolved and planned; every problem at once.
fn pipeline_plan(
    args: &PipelineArgs,
    mode: RunMode,
    max_bundle_bytes: Option<u64>,
    env: &Env,
) -> Result<Plan> {
    let s = settings::resolve(args, mode, env, crate::pipeline::Uses::Stages)?
        .with_max_bundle_bytes(max_bundle_bytes);
    Ok(plan::build(&s)?)
}

/// `run` and `publish`: the plan (with `-v`), every step, then the summary.
async fn run_plan(plan: &Plan, report: &Arc<Reporter>) -> Result<()> {
    let h = plan.header();
    report.begin(
        &h.pipeline,
        h.package.as_deref(),
        h.channel.as_deref(),
        &h.version,
        h.dry_run,
    );
    for line in plan.to_string().lines() {
        report.detail(line);
    }
    // The plan's notes (a version folder an import leaves out, a preflight skipped) are kept
    // in the JSON summary and the job summary as well as shown.
    for n in &h.notes {
        report.note(n);
    }
    for w in &h.warnings {
        report.warn(w);
    }
    let result = exec::execute(plan, report).await;
    if let Err(e) = &result {
        report.fail(e);
    }
    report.finish();
    result
}
