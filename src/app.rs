//! Commands: each builds its settings and calls the stages or the domain code. `main` only
//! parses arguments, captures the environment and maps errors to exit codes.

use crate::cli::{Cli, Command, Format, GraphArgs};
use crate::commands;
use crate::error::{Error, Result};
use crate::olm::archive;
use crate::plan;
use crate::registry::{Location, Registry};
use crate::report::{Fold, Reporter, Verbosity};
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
    if matches!(cli.format, Format::Dot | Format::Mermaid)
        && !matches!(cli.command, Command::Graph(_))
    {
        return Err(Error::input(
            "--format dot and --format mermaid apply to the graph command only",
        ));
    }
    let ci = crate::ci::CiContext::from_env(&env);
    let interactive = std::io::IsTerminal::is_terminal(&std::io::stderr())
        && ci.provider.is_none()
        && !env.contains_key("CI");
    let report = Reporter::new(verbosity, json)
        .with_fold(Fold::for_provider(ci.provider.as_deref()))
        .with_interactive(interactive);
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
        Command::Verify(args) => commands::verify::run(&args, json, cli.quiet),
        Command::Graph(args) => graph(&args, cli.format, &env).await,
        Command::NextVersion(args) => {
            let last = match &args.last {
                Some(t) => t.clone(),
                None => commands::next_version::last_tag(&args.source)?,
            };
            println!(
                "{}",
                commands::next_version::alpha_after(&last, args.build)?
            );
            Ok(())
        }
        Command::Completions(args) => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(args.shell, &mut cmd, "olm-release", &mut std::io::stdout());
            Ok(())
        }
        Command::Man => {
            let cmd = <Cli as clap::CommandFactory>::command();
            clap_mangen::Man::new(cmd)
                .render(&mut std::io::stdout())
                .map_err(|e| Error::stage(format!("writing the man page: {e}")))
        }
        Command::Registry(cmd) => commands::registry::run(cmd, &env, json).await,
        Command::Publish(args) => commands::publish::run(&args, &env, &report).await,
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

/// `graph`: draws the upgrade graph of a bundle file or of a registry's default release.
async fn graph(args: &GraphArgs, format: Format, env: &Env) -> Result<()> {
    use commands::graph::{Style, draw};
    let bundle = match (&args.bundle, &args.registry) {
        (Some(path), _) => archive::read_path(path).map_err(Error::input)?,
        (None, Some(url)) => {
            let (ns, pkg) = (
                args.namespace.as_deref().unwrap_or_default(),
                args.package.as_deref().unwrap_or_default(),
            );
            let location =
                Location::parse(url).map_err(|e| Error::input(format!("--registry: {e}")))?;
            if let Location::Http(u) = &location {
                settings::check_url(u, false)
                    .map_err(|e| Error::input(format!("--registry: {e}")))?;
            }
            let credentials = settings::registry_credentials(env);
            let registry = Registry::open(
                &location,
                credentials,
                Default::default(),
                Default::default(),
            )?;
            let releases = registry.releases(ns, pkg).await?;
            let default = releases.first().ok_or_else(|| {
                Error::stage(format!(
                    "{} {ns}/{pkg} has no releases",
                    registry.describe()
                ))
            })?;
            let gz = registry.pull(ns, pkg, &default.digest).await?;
            stages::fetch_previous::read_previous(&gz, &default.digest).map_err(|e| {
                Error::stage(format!("release {} of {ns}/{pkg}: {e}", default.release))
            })?
        }
        (None, None) => return Err(Error::input("graph needs a bundle path or --registry")),
    };
    let out = match format {
        Format::Human => draw(&bundle, Style::Text),
        Format::Dot => draw(&bundle, Style::Dot),
        Format::Mermaid => draw(&bundle, Style::Mermaid),
        Format::Json => {
            let channels: Vec<_> = bundle
                .package
                .channels
                .iter()
                .map(|c| serde_json::json!({"name": c.name, "head": c.current_csv, "chain": crate::olm::graph::walk(&bundle, &c.current_csv).0}))
                .collect();
            serde_json::to_string_pretty(
                &serde_json::json!({"package": bundle.package.package_name, "channels": channels}),
            )
            .expect("graph serialises")
                + "\n"
        }
    };
    print!("{out}");
    Ok(())
}
