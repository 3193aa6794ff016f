//! The verify stage: validates the packaged bundle with the same code as `olm-release verify`,
//! and stops the pipeline (before push and release) on any error finding.

use super::Ctx;
use crate::error::{Error, Result};
use crate::olm::{Level, validate};

pub async fn run(ctx: &mut Ctx<'_>) -> Result<()> {
    let packaged = ctx.packaged()?;
    let findings = validate::validate(&packaged.bundle, validate::Profile::default());
    ctx.report.findings(&findings);
    // Render already reported its own findings; its errors stop the pipeline here too.
    let rendered = ctx.state.rendered.iter().flat_map(|r| r.findings.iter());
    let errors: Vec<_> = findings
        .iter()
        .chain(rendered)
        .filter(|f| f.level == Level::Error)
        .collect();
    let warnings = findings
        .iter()
        .filter(|f| f.level == Level::Warning)
        .count();
    if let Some(first) = errors.first() {
        return Err(Error::stage(format!(
            "the bundle has {} error(s) and {warnings} warning(s); nothing was published. First: {first}",
            errors.len()
        )));
    }
    ctx.report
        .info(&format!("bundle valid ({warnings} warning(s))"));
    Ok(())
}
