//! `olm-release init`: the command line of [`olm_release_init`], which adopts an operator
//! repository (one pipeline file with its variants, the templates it lacks, CI
//! configurations). Here the arguments become its request, with the installer of this
//! version that the CI configurations pin, and its outcome is said on stderr.

use olm_release_init::{CiService, InstallerPin, Request};

use std::path::Path;

use crate::cli::{CiKind, InitArgs, PipelineArgs};
use crate::error::Result;
use crate::exec::preview::{self, Preview};
use crate::settings::{Env, RunMode};

/// The installer script released with this version (`scripts/install.sh`).
const INSTALLER: &str = include_str!("../../scripts/install.sh");

/// `https://github.com/OWNER/REPO` of olm-release itself.
const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// This version as the CI configurations install it: its installer at this version's tag
/// (raw.githubusercontent.com serves a file of a tag), and the installer's sha256.
fn installer() -> InstallerPin {
    let raw = REPOSITORY.replacen(
        "https://github.com/",
        "https://raw.githubusercontent.com/",
        1,
    );
    InstallerPin {
        version: VERSION.into(),
        url: format!("{raw}/v{VERSION}/scripts/install.sh"),
        sha256: olm_release_base::digest::sha256_hex(INSTALLER.as_bytes()),
    }
}

/// The request `args` make: `--ci` unset writes the CI configurations of the CI the
/// repository uses, `--ci none` none; `--channel a,b` is a list.
fn request(args: &InitArgs) -> Request {
    let mut request = Request::new(args.source.clone(), installer());
    if !args.ci.is_empty() {
        request.ci = Some(
            args.ci
                .iter()
                .filter_map(|kind| match kind {
                    CiKind::Travis => Some(CiService::Travis),
                    CiKind::Github => Some(CiService::Github),
                    CiKind::Gitlab => Some(CiService::Gitlab),
                    CiKind::None => None,
                })
                .collect(),
        );
    }
    Request {
        out: args.out.clone(),
        force: args.force,
        package: args.package.clone(),
        channels: args
            .channel
            .iter()
            .flat_map(|list| list.split(','))
            .map(|c| c.trim().to_string())
            .filter(|c| !c.is_empty())
            .collect(),
        default_channel: args.default_channel.clone(),
        namespace: args.namespace.clone(),
        github: args.github.clone(),
        operator: args.operator.clone(),
        app_registry: args.app_registry,
        ..request
    }
}

/// `init`: what it found, each file it wrote and what is left to do, on stderr; a write that
/// failed part-way says what was done before it, above the error.
pub(crate) fn run(args: &InitArgs, env: &Env) -> Result<()> {
    match olm_release_init::init(&request(args)) {
        Ok(outcome) => {
            say(&outcome.lines());
            if args.out.is_none() {
                say(&check(&args.source, env));
            }
            Ok(())
        }
        Err(e) => {
            if let Some(so_far) = e.outcome_so_far() {
                say(&so_far.progress_lines());
            }
            Err(e.into())
        }
    }
}

fn say(lines: &[String]) {
    for line in lines {
        eprintln!("{line}");
    }
}

/// The version the check renders, as the closing line's `try it` runs it.
const CHECK_VERSION: &str = "0.0.1";

/// What the first release of the pipeline `init` wrote would make of the bundle, as `plan`
/// says it: its local variant planned (nothing read from the network), the bundle rendered in
/// memory and checked as the verify step will check it. A verify error shows up here rather
/// than at the first release; a pipeline that cannot be planned yet (a variable to set) says
/// why. The lines are said after the outcome's.
fn check(source: &Path, env: &Env) -> Vec<String> {
    let pipeline = source.join(olm_release_init::PIPELINE_PATH);
    let args = PipelineArgs {
        pipeline,
        variant: Some("local".into()),
        vars: vec![("VERSION".into(), CHECK_VERSION.into())],
        source: source.to_path_buf(),
        out: None,
        insecure: false,
    };
    let mode = RunMode {
        dry_run: true,
        force: false,
    };
    let planned = crate::settings::resolve(&args, mode, env, crate::pipeline::Uses::Stages)
        .and_then(|s| Ok(crate::plan::build(&s)?));
    let plan = match planned {
        Ok(plan) => plan,
        Err(e) => {
            let why = e.to_string();
            let first = why.lines().next().unwrap_or_default();
            return vec![format!(
                "check: the local variant cannot be planned yet ({first}); `olm-release plan` says more once it can"
            )];
        }
    };
    let how = format!(
        "olm-release plan {} --variant local --var VERSION={CHECK_VERSION}",
        olm_release_init::PIPELINE_PATH
    );
    match preview::installable(&plan) {
        Some(Preview::Checked(i)) => {
            let mut out = vec![
                format!(
                    "check: the first release, rendered and checked as verify will ({how}): OLM v0 installs it: {}",
                    i.olm_v0.to_line()
                ),
                format!("check: OLM v1 installs it: {}", i.olm_v1.to_line()),
            ];
            if !i.olm_v0.installs {
                out.push(
                    "check: verify will stop the release there: fix what it names, or, for an error only olm-release gives that the project ships knowingly, accept it with the reason in verify.accept"
                        .into(),
                );
            }
            out
        }
        Some(Preview::Fails(why)) => vec![format!(
            "check: the bundle does not render yet ({why}); `{how}` says the same"
        )],
        None => Vec::new(),
    }
}
