//! `olm-release diff A B`: two registry+v1 bundle folders compared as data
//! ([`olm_release_olm::semdiff::compare_folders`]), object by object, matched by kind and name,
//! never by file name. The differences go to stdout (one JSON document with `--format json`).
//! Exit 0 when the bundles are equal, 1 when they differ (as `diff` and `cmp` do, and as
//! `verify` fails on a finding), 2 when a folder cannot be read as a bundle.

use super::CommandError;
use crate::cli::DiffArgs;
use crate::error::Result;
use olm_release_olm::bundle_image::BundleFolder;
use olm_release_olm::semdiff::{Ignore, compare_folders};

/// `diff A B [--ignore-release-fields]`.
pub(crate) fn run(args: &DiffArgs, json: bool) -> Result<()> {
    let read = |path: &std::path::Path| {
        BundleFolder::read(path)
            .map_err(|e| CommandError::Unreadable(format!("{}: {e}", path.display())))
    };
    let (a, b) = (read(&args.a)?, read(&args.b)?);
    let ignore = Ignore {
        release_fields: args.ignore_release_fields,
    };
    let diff = compare_folders(&a, &b, ignore).map_err(CommandError::Unreadable)?;
    if json {
        crate::out::stdout(&format!(
            "{}\n",
            serde_json::to_string_pretty(&diff).expect("a bundle diff serialises")
        ));
    } else {
        crate::out::stdout(&diff.to_string());
    }
    if diff.equal {
        Ok(())
    } else {
        Err(CommandError::Different(format!(
            "{} and {} differ",
            args.a.display(),
            args.b.display()
        ))
        .into())
    }
}
