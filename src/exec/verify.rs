//! The verify step: validates the packaged bundle with the same rules as `olm-release verify`
//! ([`olm_release_olm::validate::verify_packed`]: the in-memory bundle with the objects released
//! beside it — render's, or those `publish` read beside the CSVs — as one unit, as `verify DIR`
//! checks a bundle folder, and proof that the tarball the
//! push step will send is exactly its packing), and stops the plan (before push and release)
//! on any error finding, naming the first one. Render's own error findings stop it here too.
//! A bundle read one CSV at a time (`publish`) is checked from its per-CSV findings and
//! skeletons ([`validate::verify_packed_streamed`], proven equal to the whole-bundle check).
//! A release of `publish --history` is checked as `verify TREE` checks its version folder
//! ([`validate::verify_history_release`]). An entry of `verify.accept` that accepted nothing in
//! this release is a warning.

use super::outputs::{Packaged, Verified};
use crate::error::Result;
use crate::error::step::{PackageError, VerifyError};
use crate::plan::VerifyStep;
use crate::report::Reporter;
use olm_release_olm::cluster;
use olm_release_olm::validate;
use olm_release_olm::{Finding, Level};

/// The verify step.
pub(crate) fn run(
    step: &VerifyStep,
    report: &Reporter,
    p: Packaged,
    cache: &super::context::HistoryCache,
) -> Result<Verified> {
    let opts = step.options();
    let earlier: Vec<&Finding> = p.files.iter().flat_map(|f| f.findings.iter()).collect();
    let verified = match (p.per_csv, &p.history) {
        (_, Some(h)) => {
            let failed = |e: String| PackageError::History(format!("{}: {e}", h.tree.display()));
            // The tree is verified once for every release; a community version folder (a
            // registry+v1 bundle) on its own.
            let (whole, folder) = match h.community {
                true => {
                    let dir = h.tree.join(&h.folder);
                    let r = validate::verify_path_with(&dir, &opts, &h.limits)
                        .map_err(|e| failed(e.to_string()))?;
                    (std::sync::Arc::new(r), "")
                }
                false => (
                    cache.whole(&h.tree, &opts, &h.limits).map_err(failed)?,
                    h.folder.as_str(),
                ),
            };
            validate::verify_history_release(
                &p.shown,
                &whole,
                folder,
                h.first,
                &h.headless,
                &p.packed,
                &opts,
            )
        }
        (None, None) => validate::verify_packed(&p.shown, &p.contents, &p.packed, &opts),
        (Some(per_csv), None) => {
            validate::verify_packed_streamed(&p.shown, &p.contents, per_csv, &p.packed, &opts)
        }
    };
    report.findings(&verified.findings);
    if p.history.is_none() {
        for a in validate::accept::unused(&opts.accepted, &verified.findings) {
            report.warn(&format!(
                "verify.accept names {}, but no finding of this release is accepted by it: remove the entry once what it was written for is gone",
                a.shown()
            ));
        }
    }
    let errors: Vec<&Finding> = verified
        .findings
        .iter()
        .chain(earlier.iter().copied())
        .filter(|f| f.level == Level::Error)
        .collect();
    if p.history.is_none()
        && let Some(installable) = cluster::installable_contents(&p.contents, &errors)
    {
        report.installable(&installable);
    }
    if let Some(first) = errors.first() {
        return Err(VerifyError {
            errors: errors.len(),
            warnings: verified.warnings,
            profile: opts.profile.as_str(),
            first: first.to_string(),
        }
        .into());
    }
    report.info(&format!(
        "bundle valid under profile {} ({}){}",
        opts.profile.as_str(),
        olm_release_base::words::count(verified.warnings, "warning"),
        p.folder
            .as_ref()
            .map(|f| format!("; bundle folder {}", f.display()))
            .unwrap_or_default()
    ));
    let bundle = p.contents.bundle;
    let newest = p.files.as_ref().and_then(|_| {
        let csv = bundle.csvs.first()?.clone();
        let crds = olm_release_olm::fbc::properties::owned_crds(&csv, &bundle.crds);
        Some((csv, crds))
    });
    Ok(Verified {
        newest,
        objects: p.contents.objects,
        olm_v1_install: None,
        files: p.files,
        decision: p.decision,
        basis: p.basis.map(|b| b.carrying(&bundle)),
        package: bundle.package,
        folder: p.folder,
        packed: p.packed,
    })
}
