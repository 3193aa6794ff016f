//! `olm-release verify PATH`: validates a bundle folder (flat, or a package tree with one folder
//! per version), a flattened bundle.yaml or a .tar.gz with the same code the verify stage runs
//! ([`olm_release_olm::validate`]). Findings go to stdout, one line each (or one JSON document with
//! `--format json`); the closing line goes to stderr. Any error finding fails the command
//! (exit 1); an unreadable path or categories file, or a path that cannot be read as a bundle
//! within the limits (see [`validate::verify_path_with`]), is an input error (exit 2). `-q` shows
//! errors only (the closing line still counts the warnings).
//! A registry+v1 bundle folder (`manifests/` and `metadata/`) is verified under the modern
//! profile unless `--profile` says otherwise; the others under appregistry-2019.
//! `verify --list-rules` prints the rule catalogue instead. A file-based catalog folder is read
//! through the catalog loader `graph` and the catalog stage use (the same refusals, exit 2) and
//! checked with `opm validate`'s rules (any error: exit 1).

use super::CommandError;
use crate::cli::VerifyArgs;
use crate::error::{Error, Result};
use crate::report::Reporter;
use olm_release_olm::archive::Limits;
use olm_release_olm::validate::{self, Options, Profile, VerifyError, accept, rules};
use olm_release_olm::{Level, fbc};

/// `verify PATH` or `verify --list-rules`; `quiet` leaves warnings out of the output. In GitHub
/// Actions `reporter` adds each finding as an annotation.
pub(crate) fn run(
    args: &VerifyArgs,
    json: bool,
    quiet: bool,
    limits: &Limits,
    reporter: &Reporter,
) -> Result<()> {
    if args.list_rules {
        if json {
            crate::out::stdout(&format!(
                "{}\n",
                serde_json::to_string_pretty(&rules::table()).expect("the rule table serialises")
            ));
        } else {
            crate::out::stdout(&rules::table_text());
        }
        return Ok(());
    }
    let Some(path) = &args.path else {
        return Err(CommandError::Arguments("verify needs a PATH (or --list-rules)".into()).into());
    };
    if path.is_dir() && fbc::load::is_catalog(path) {
        return catalog(path, json, quiet);
    }
    let categories = match &args.categories {
        Some(file) => Some(
            validate::read_categories(file).map_err(|e| CommandError::Unreadable(e.to_string()))?,
        ),
        None => None,
    };
    let profile = args.profile.unwrap_or(if is_registry_v1_folder(path) {
        Profile::Modern
    } else {
        Profile::Appregistry2019
    });
    let refused: Vec<String> = args
        .accept
        .iter()
        .filter_map(|a| accept::check(&a.rule, profile).err())
        .map(|e| format!("--accept: {e}"))
        .collect();
    if !refused.is_empty() {
        return Err(CommandError::Arguments(refused.join("\n")).into());
    }
    let opts = Options {
        profile,
        operatorhub: args.operatorhub,
        categories,
        provided: args.provided.clone().into(),
        accepted: args.accept.clone().into(),
    };
    let mut report = validate::verify_path_with(path, &opts, limits).map_err(|e| match e {
        VerifyError::Bundle(e) => Error::from(e),
        e => CommandError::Unreadable(e.to_string()).into(),
    })?;
    for a in accept::unused(&opts.accepted, &report.findings) {
        reporter.warn(&format!(
            "--accept {} matched no finding of {}: nothing was accepted by it",
            a.shown(),
            path.display()
        ));
    }
    if quiet {
        report.findings.retain(|f| f.level == Level::Error);
    }
    reporter.annotate(&report.findings, Some(path));
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
    let shown = path.display();
    let profile = opts.profile.as_str();
    if !report.is_valid() {
        return Err(CommandError::Invalid(format!(
            "{shown}: {}, {} (profile {profile})",
            olm_release_base::words::count(report.errors, "error"),
            olm_release_base::words::count(report.warnings, "warning")
        ))
        .into());
    }
    if !json {
        crate::out::line(&format!(
            "{shown}: valid, {} (profile {profile})",
            olm_release_base::words::count(report.warnings, "warning")
        ));
    }
    Ok(())
}

/// A registry+v1 bundle folder (`manifests/` and `metadata/annotations.yaml`): a modern
/// bundle, which no app-registry tool reads, so `modern` is its default profile.
fn is_registry_v1_folder(path: &std::path::Path) -> bool {
    path.join("manifests").is_dir() && path.join("metadata/annotations.yaml").is_file()
}

/// `verify CATALOG_DIR`: every document through the catalog loader, then `opm validate`'s rules
/// on the whole catalog.
fn catalog(path: &std::path::Path, json: bool, quiet: bool) -> Result<()> {
    let loaded = fbc::disk::read_summary(path)?;
    let mut findings = fbc::validate(&loaded.catalog);
    let errors = findings.iter().filter(|f| f.level == Level::Error).count();
    let warnings = findings.len() - errors;
    if quiet {
        findings.retain(|f| f.level == Level::Error);
    }
    let shown = path.display();
    if json {
        let doc = serde_json::json!({
            "source": shown.to_string(),
            "catalog": true,
            "packages": loaded.catalog.package_names(),
            "errors": errors,
            "warnings": warnings,
            "findings": findings,
        });
        crate::out::stdout(&format!(
            "{}\n",
            serde_json::to_string_pretty(&doc).expect("a report serialises")
        ));
    } else {
        for f in &findings {
            crate::out::stdout(&format!("{f}\n"));
        }
    }
    let counted = format!(
        "{}, {}",
        olm_release_base::words::count(errors, "error"),
        olm_release_base::words::count(warnings, "warning")
    );
    if errors > 0 {
        return Err(CommandError::Invalid(format!(
            "{shown}: file-based catalog with {counted} (opm validate rules)"
        ))
        .into());
    }
    if !json {
        crate::out::line(&format!(
            "{shown}: valid file-based catalog, {} (opm validate rules)",
            olm_release_base::words::count(warnings, "warning")
        ));
    }
    Ok(())
}
