//! The verify stage: validates the exact tarball the push stage will send, with the same code
//! as `olm-release verify` ([`crate::olm::validate::verify_tarball`]), and stops the pipeline
//! (before push and release) on any error finding, naming the first one. Render's own error
//! findings stop it here too.

use super::Ctx;
use crate::error::{Error, Result};
use crate::olm::validate::{self, Options};
use crate::olm::{Finding, Level};

pub async fn run(ctx: &mut Ctx<'_>) -> Result<()> {
    let packaged = ctx.packaged()?;
    let shown = packaged.tarball.display().to_string();
    let opts = Options::default();
    let report = validate::verify_tarball(&shown, &packaged.packed.gz, &opts);
    ctx.report.findings(&report.findings);
    let rendered = ctx.state.rendered.iter().flat_map(|r| r.findings.iter());
    let errors: Vec<&Finding> = report
        .findings
        .iter()
        .chain(rendered)
        .filter(|f| f.level == Level::Error)
        .collect();
    if let Some(first) = errors.first() {
        return Err(Error::stage(format!(
            "the bundle has {} error(s) and {} warning(s) under profile {}; nothing was pushed or released. First: {first}",
            errors.len(),
            report.warnings,
            opts.profile.as_str()
        )));
    }
    ctx.report.info(&format!(
        "bundle valid under profile {} ({} warning(s)); bundle folder {}",
        opts.profile.as_str(),
        report.warnings,
        packaged.dir.display()
    ));
    Ok(())
}
