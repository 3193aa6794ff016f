//! All or nothing across targets: what the release step would refuse, asked before the run's
//! first write to any target. A GitHub release that is published with other assets (a rerun
//! whose OperatorSource changed) is refused by the release step unless `--force`; asked only
//! there, the run would first push to the app registry, the image registry or the catalog and
//! stop half published. The release's assets are known once the bundle is packaged and
//! verified, so the check reads the release (no write) right before the first writing step,
//! with the same rules as the release step ([`olm_release_targets::github::refusal`]). A
//! dry-run skips it: its release step says what it would refuse.

use super::context::Exec;
use super::outputs::AssetSources;
use super::release_assets::{request, resolve};
use crate::error::Result;
use crate::plan::{ReleaseTarget, Step};
use olm_release_targets::github;

/// Whether `step` writes to a target the release step comes after.
pub(super) fn writes(step: &Step) -> bool {
    matches!(
        step,
        Step::Push(_) | Step::BundleImage(_) | Step::Catalog(_) | Step::Operatorhub(_)
    )
}

/// Asks the plan's GitHub release whether it would refuse the assets `sources` make; its
/// refusal is the error, before anything is written.
pub(super) async fn run(exec: &Exec<'_>, sources: AssetSources<'_>) -> Result<()> {
    if !exec.gate.writes() {
        return Ok(());
    }
    let Some(step) = exec.plan.steps().iter().find_map(|s| match s {
        Step::Release(r) => Some(r),
        _ => None,
    }) else {
        return Ok(());
    };
    let ReleaseTarget::GitHub(job) = &step.target else {
        return Ok(());
    };
    if job.token.is_none() {
        return Ok(());
    }
    // Assets that cannot be resolved yet are the release step's to report.
    let Ok(assets) = resolve(step, sources) else {
        return Ok(());
    };
    let client = exec.github(job)?;
    let req = request(step, job, None);
    if let Some(refusal) = github::refusal(&req, client, &assets).await? {
        return Err(refusal.into());
    }
    exec.report.detail(&format!(
        "preflight: the release {} of {}/{} takes these assets; nothing it would refuse",
        step.tag, job.owner, job.repo
    ));
    Ok(())
}
