//! The verify stage: validates the packaged bundle with the same rules as `olm-release verify`
//! ([`crate::olm::validate::verify_packed`]: the in-memory bundle, and proof that the tarball the
//! push stage will send is exactly its packing), and stops the pipeline (before push and release)
//! on any error finding, naming the first one. Render's own error findings stop it here too.

use super::Ctx;
use crate::error::{Error, Result};
use crate::olm::archive::Packed;
use crate::olm::validate::{self, Options};
use crate::olm::{Bundle, Finding, Level};
use crate::report::Reporter;

pub async fn run(ctx: &mut Ctx<'_>) -> Result<()> {
    let packaged = ctx.packaged()?;
    let shown = packaged.tarball.display().to_string();
    let rendered: Vec<&Finding> = ctx
        .state
        .rendered
        .iter()
        .flat_map(|r| r.findings.iter())
        .collect();
    let warnings = check(
        ctx.report,
        &shown,
        &packaged.bundle,
        &packaged.packed,
        &rendered,
    )?;
    ctx.report.info(&format!(
        "bundle valid under profile {} ({warnings} warning(s)); bundle folder {}",
        Options::default().profile.as_str(),
        packaged.dir.display()
    ));
    Ok(())
}

/// Validates `bundle` and its packing `packed` (shown as `shown`), reports the findings, and
/// fails on any error finding, its own or one of `earlier` (render's). Returns the number of
/// warnings. The `publish` command calls this too, so both verify the same way.
pub fn check(
    report: &Reporter,
    shown: &str,
    bundle: &Bundle,
    packed: &Packed,
    earlier: &[&Finding],
) -> Result<usize> {
    let opts = Options::default();
    conclude(
        report,
        validate::verify_packed(shown, bundle, packed, &opts),
        earlier,
    )
}

/// [`check`] for a bundle read one CSV at a time (`publish` on a large folder): `per_csv` are
/// the findings of each CSV's own checks, `skeletons` the bundle with its CSVs reduced to what
/// the checks across the bundle read.
pub fn check_streamed(
    report: &Reporter,
    shown: &str,
    skeletons: &Bundle,
    per_csv: Vec<Finding>,
    packed: &Packed,
) -> Result<usize> {
    let opts = Options::default();
    let verified = validate::verify_packed_streamed(shown, skeletons, per_csv, packed, &opts);
    conclude(report, verified, &[])
}

/// Reports the findings and fails on any error, its own or one of `earlier`.
fn conclude(report: &Reporter, verified: validate::Report, earlier: &[&Finding]) -> Result<usize> {
    let opts = Options::default();
    report.findings(&verified.findings);
    let errors: Vec<&Finding> = verified
        .findings
        .iter()
        .chain(earlier.iter().copied())
        .filter(|f| f.level == Level::Error)
        .collect();
    if let Some(first) = errors.first() {
        return Err(Error::stage(format!(
            "the bundle has {} error(s) and {} warning(s) under profile {}; nothing was pushed or released. First: {first}",
            errors.len(),
            verified.warnings,
            opts.profile.as_str()
        )));
    }
    Ok(verified.warnings)
}
