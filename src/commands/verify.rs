//! `olm-release verify PATH`: validates a bundle folder (flat, or a package tree with one folder
//! per version), a flattened bundle.yaml or a .tar.gz with the same code the verify stage runs
//! ([`crate::olm::validate`]). Findings go to stdout, one line each (or one JSON document with
//! `--format json`); the closing line goes to stderr. Any error finding fails the command
//! (exit 1); an unreadable path or categories file is an input error (exit 2). `-q` shows
//! errors only (the closing line still counts the warnings).
//! `verify --list-rules` prints the rule catalogue instead.

use crate::cli::VerifyArgs;
use crate::error::{Error, Result};
use crate::olm::Level;
use crate::olm::validate::{self, Options, rules};

/// `verify PATH` or `verify --list-rules`; `quiet` leaves warnings out of the output.
pub fn run(args: &VerifyArgs, json: bool, quiet: bool) -> Result<()> {
    if args.list_rules {
        if json {
            println!(
                "{}",
                serde_json::to_string_pretty(&rules::table()).expect("the rule table serialises")
            );
        } else {
            print!("{}", rules::table_text());
        }
        return Ok(());
    }
    let Some(path) = &args.path else {
        return Err(Error::input("verify needs a PATH (or --list-rules)"));
    };
    let categories = match &args.categories {
        Some(file) => {
            Some(validate::read_categories(file).map_err(|e| Error::input(e.to_string()))?)
        }
        None => None,
    };
    let opts = Options {
        profile: args.profile,
        operatorhub: args.operatorhub,
        categories,
    };
    let mut report = validate::verify_path(path, &opts).map_err(|e| Error::input(e.to_string()))?;
    if quiet {
        report.findings.retain(|f| f.level == Level::Error);
    }
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).expect("a report serialises")
        );
    } else {
        for f in &report.findings {
            println!("{f}");
        }
        if let (Some(d), Some(g)) = (&report.digest, &report.gz_digest) {
            eprintln!("digest sha256:{d} (tar), sha256:{g} (.tar.gz)");
        }
    }
    let shown = path.display();
    let profile = opts.profile.as_str();
    if !report.is_valid() {
        return Err(Error::stage(format!(
            "{shown}: {} error(s), {} warning(s) (profile {profile})",
            report.errors, report.warnings
        )));
    }
    if !json {
        eprintln!(
            "{shown}: valid, {} warning(s) (profile {profile})",
            report.warnings
        );
    }
    Ok(())
}
