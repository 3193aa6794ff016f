//! `olm-release init`: the command line of [`olm_release_init`], which adopts an operator
//! repository (one pipeline file with its variants, the templates it lacks, CI
//! configurations). Here the arguments become its request, with the installer of this
//! version that the CI configurations pin, and its outcome is said on stderr.

use olm_release_init::{CiService, InstallerPin, Request};

use crate::cli::{CiKind, InitArgs};
use crate::error::Result;

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
pub(crate) fn run(args: &InitArgs) -> Result<()> {
    match olm_release_init::init(&request(args)) {
        Ok(outcome) => {
            say(&outcome.lines());
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
