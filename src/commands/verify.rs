//! `olm-release verify PATH`: validates a bundle folder, a flattened bundle.yaml or a .tar.gz
//! with the same code the verify stage runs ([`crate::olm::validate`]). Findings go to stdout,
//! one line each (or one JSON document with `--format json`); the closing line goes to stderr.
//! Any error finding fails the command (exit 1); an unreadable path is an input error (exit 2).

use super::CommandError;
use crate::cli::VerifyArgs;
use crate::error::Result;
use crate::olm::validate::{self, Options};

/// `verify PATH`.
pub(crate) fn run(args: &VerifyArgs, json: bool) -> Result<()> {
    let opts = Options {
        profile: args.profile,
        operatorhub: args.operatorhub,
    };
    let report = validate::verify_path(&args.path, &opts).map_err(CommandError::Unreadable)?;
    if json {
        crate::out::stdout(&format!(
            "{}\n",
            serde_json::to_string_pretty(&report).expect("a report serialises")
        ));
    } else {
        for f in &report.findings {
            crate::out::stdout(&format!("{f}\n"));
        }
        if let (Some(d), Some(g)) = (&report.digest, &report.gz_digest) {
            crate::out::line(&format!("digest sha256:{d} (tar), sha256:{g} (.tar.gz)"));
        }
    }
    let shown = args.path.display();
    let profile = opts.profile.as_str();
    if !report.is_valid() {
        return Err(CommandError::Invalid(format!(
            "{shown}: {} error(s), {} warning(s) (profile {profile})",
            report.errors, report.warnings
        ))
        .into());
    }
    if !json {
        crate::out::line(&format!(
            "{shown}: valid, {} warning(s) (profile {profile})",
            report.warnings
        ));
    }
    Ok(())
}
