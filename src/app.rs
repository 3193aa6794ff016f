//! Commands: each builds its settings and calls the stages or the domain code. `main` only
//! parses arguments, captures the environment and maps errors to exit codes.

use crate::cli::{Cli, Command, Format};
use crate::commands;
use crate::error::{Error, Result};
use crate::plan;
use crate::registry::Registry;
use crate::report::{Reporter, Verbosity};
use crate::settings::{self, Env, RunOptions, Settings};
use crate::stages::{self, Ctx, State};

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
    let report = Reporter::new(verbosity, json);
    match cli.command {
        Command::Run(args) => {
            let opts = RunOptions {
                dry_run: args.dry_run,
                force: args.force,
            };
            let settings = settings::resolve(&args.common, opts, &env)?;
            run_pipeline(&settings, &report).await
        }
        Command::Plan(args) => {
            let settings = settings::resolve(&args, RunOptions::default(), &env)?;
            let plan = plan::build(&settings);
            if json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&plan).expect("plan serialises")
                );
            } else {
                print!("{plan}");
            }
            Ok(())
        }
        Command::Render(args) => {
            let settings = settings::resolve(&args, RunOptions::default(), &env)?;
            let out = args
                .out
                .clone()
                .unwrap_or_else(|| settings.out.join("render"));
            let rendered = stages::render::render(&settings, &out)?;
            for f in &rendered.findings {
                eprintln!("{f}");
            }
            for f in &rendered.files {
                println!("{}", out.join(&f.path).display());
            }
            Ok(())
        }
        Command::Verify(args) => commands::verify::run(&args, json),
        Command::Registry(cmd) => commands::registry::run(cmd, &env, json).await,
    }
}

/// Opens the registry the settings name.
pub fn open_registry(settings: &Settings) -> Result<Registry> {
    let r = &settings.registry;
    Registry::open(&r.location, r.credentials.clone(), r.http, r.retry)
}

/// `run`: the plan, then every stage, then the summary.
pub async fn run_pipeline(settings: &Settings, report: &Reporter) -> Result<()> {
    let p = &settings.pipeline;
    report.begin(
        &p.name,
        &p.package,
        &p.channel,
        &settings.version.to_string(),
        settings.dry_run,
    );
    for line in plan::build(settings).to_string().lines() {
        report.detail(line);
    }
    std::fs::create_dir_all(&settings.out)
        .map_err(|e| Error::io(crate::error::Class::Stage, &settings.out, e))?;
    let mut ctx = Ctx {
        settings,
        report,
        registry: open_registry(settings)?,
        state: State::default(),
    };
    let result = stages::run_all(&mut ctx).await;
    if let Err(e) = &result {
        report.fail(&e.message);
    }
    report.finish();
    result
}
