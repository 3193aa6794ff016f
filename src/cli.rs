//! The command line: clap types only, a doc line on every argument. Nothing here runs anything;
//! `settings` turns these into resolved settings and `app` runs the command.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::olm::validate::Profile;

/// Run the release pipeline of an operator published through OLM app registries.
#[derive(Debug, Parser)]
#[command(name = "olm-release", version = crate::VERSION_LINE, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// More detail (repeat for more).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// Only errors and the final summary.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Output format: human lines on stderr, or a JSON summary on stdout.
    #[arg(long, global = true, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Human,
    Json,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the pipeline's stages.
    Run(RunArgs),
    /// Print the resolved steps (inputs, versions, targets) without touching anything.
    Plan(PipelineArgs),
    /// Render the manifests only, into --out.
    Render(PipelineArgs),
    /// Validate a bundle folder, a flattened bundle.yaml or a .tar.gz.
    Verify(VerifyArgs),
}

/// Arguments shared by every command that reads a pipeline file.
#[derive(Debug, Args)]
pub struct PipelineArgs {
    /// The pipeline file (YAML), e.g. pipelines/sample.yaml.
    pub pipeline: PathBuf,
    /// Set a variable, overriding the environment (repeatable), e.g. --var VERSION=0.2.0.
    #[arg(long = "var", value_name = "KEY=VALUE", value_parser = parse_var)]
    pub vars: Vec<(String, String)>,
    /// The operator's source folder; relative paths in the pipeline resolve against it.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub source: PathBuf,
    /// The output folder for rendered files and the bundle (default: _out/<pipeline name>).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Allow http:// registry or GitHub URLs on hosts other than loopback.
    #[arg(long)]
    pub insecure: bool,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub common: PipelineArgs,
    /// Do everything except the writes to the registry and the release target; print each
    /// skipped write.
    #[arg(long)]
    pub dry_run: bool,
    /// Overwrite a release already published with different content.
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// A bundle folder, a flattened bundle.yaml, or a bundle .tar.gz.
    pub path: PathBuf,
    /// Which era's rules apply.
    #[arg(long, value_enum, default_value_t = Profile::Appregistry2019)]
    pub profile: Profile,
    /// Also enforce OperatorHub's rules as errors, like `operator-courier verify --ui_validate_io`.
    #[arg(long)]
    pub operatorhub: bool,
}

fn parse_var(s: &str) -> Result<(String, String), String> {
    let (k, v) = s
        .split_once('=')
        .ok_or_else(|| format!("'{s}' is not KEY=VALUE"))?;
    if k.is_empty() || !k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!(
            "'{k}' is not a variable name (letters, digits, '_')"
        ));
    }
    Ok((k.to_string(), v.to_string()))
}
