//! All or nothing across targets: what a later step would refuse, asked read-only before the
//! run's first write to any target ([`before_first_write`]): a bundle image whose tag holds
//! another image of this version, a community catalog whose version folder holds other files,
//! and a GitHub release that is published with other assets (a rerun whose OperatorSource
//! changed), which the release step refuses unless `--force`; asked only there, the run would
//! first push to the app registry, the image registry or the catalog and stop half published.
//! The release's assets are known once the bundle is packaged and verified, so the check reads
//! the release (no write) right before the first writing step, with the same rules as the
//! release step ([`olm_release_github::refusal`]). A dry-run skips it: its steps say
//! what they would refuse.

use super::context::Exec;
use super::outputs::{AssetSources, Verified};
use super::release_assets::{request, resolve};
use crate::error::Result;
use crate::plan::{ReleaseTarget, Step};
use olm_release_github as github;

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

/// All or nothing across targets: what a later step would refuse, asked read-only right before
/// `first`, the run's first write to any target. A bundle image whose tag holds another image
/// of this version (the push to the app registry comes first), a community catalog whose
/// version folder holds other files (the `operatorhub` step comes last), and a GitHub release
/// that is published with other assets ([`run`]). A dry-run writes nothing, so it asks
/// nothing here: each step says what it would refuse.
pub(super) async fn before_first_write(
    exec: &Exec<'_>,
    first: &Step,
    verified: Option<(&Verified, bool)>,
    sources: AssetSources<'_>,
) -> Result<()> {
    let image = exec.plan.steps().iter().find_map(|s| match s {
        Step::BundleImage(b) => Some(b),
        _ => None,
    });
    // A version the app registry already serves is the push's to refuse (its own message, and
    // nothing written): the push rewrites nothing, so no half release can follow from it.
    if exec.gate.writes()
        && !matches!(first, Step::BundleImage(_))
        && let (Some(s), Some((v, false))) = (image, verified)
        && !matches!(
            v.decision,
            Some(olm_release_olm::decision::Decision::SameVersion { .. })
        )
    {
        let store = exec.image(&s.image)?;
        super::bundle_image::refusal(s, store, exec.report, v).await?;
    }
    let hub = exec.plan.steps().iter().find_map(|s| match s {
        Step::Operatorhub(o) => Some(o),
        _ => None,
    });
    if exec.gate.writes()
        && !matches!(first, Step::Operatorhub(_))
        && let (Some(s), Some((v, _))) = (hub, verified)
    {
        super::operatorhub::refusal(s, exec, v).await?;
    }
    run(exec, sources).await
}
