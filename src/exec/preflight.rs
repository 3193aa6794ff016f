//! The preflight step: one cheap authenticated read of each server the plan writes to, before
//! anything is written — the package's releases on the app registry (a login first, when the
//! credentials are a username and password), the repository's release list on GitHub. The
//! checks run together and every failure is listed at once; a server that said no is a stage
//! failure (exit 1). Missing or unsendable credentials never get here: the plan builder
//! reports them (exit 2).

use super::context::Exec;
use crate::error::step::PreflightError;
use crate::error::{Error, Result};
use crate::plan::{Check, PreflightStep};

/// The preflight step.
pub(crate) async fn run(step: &PreflightStep, exec: &Exec<'_>) -> Result<()> {
    let checks = step.checks.iter().map(|c| one(c, exec));
    let results = futures_util::future::join_all(checks).await;
    let mut failed = Vec::new();
    for r in results {
        match r {
            Ok(()) => {}
            Err(CheckFailure::Failed(e)) => failed.push(e),
            Err(CheckFailure::Other(e)) => return Err(e),
        }
    }
    match failed.len() {
        0 => Ok(()),
        1 => Err(failed.remove(0).into()),
        _ => Err(PreflightError::All(failed).into()),
    }
}

/// Why a check did not pass: the server said no, or the check could not be made.
enum CheckFailure {
    Failed(PreflightError),
    Other(Error),
}

async fn one(check: &Check, exec: &Exec<'_>) -> Result<(), CheckFailure> {
    match check {
        Check::Registry {
            registry,
            namespace,
            package,
        } => {
            let r = exec.registry(registry).map_err(CheckFailure::Other)?;
            let releases = r.releases(namespace, package).await.map_err(|source| {
                CheckFailure::Failed(PreflightError::Registry {
                    namespace: namespace.clone(),
                    package: package.clone(),
                    location: registry.location.to_string(),
                    source,
                })
            })?;
            exec.report.detail(&format!(
                "preflight: {} answers; {namespace}/{package} has {}",
                registry.location,
                olm_release_base::words::count(releases.len(), "release")
            ));
            Ok(())
        }
        Check::Image { image, tag } => {
            let fail = |source| {
                CheckFailure::Failed(PreflightError::Image {
                    target: image.target.describe(),
                    tag: tag.clone(),
                    source,
                })
            };
            let store = exec.image(image).map_err(fail)?;
            let at = store
                .resolve(tag, &olm_release_oci::NoEvents)
                .await
                .map_err(fail)?;
            exec.report.detail(&format!(
                "preflight: {} answers; the tag {tag} holds {}",
                image.target.describe(),
                at.as_deref().unwrap_or("nothing")
            ));
            Ok(())
        }
        Check::GitHub(job) => {
            let client = exec.github(job).map_err(CheckFailure::Other)?;
            client.check().await.map_err(|e| {
                CheckFailure::Failed(PreflightError::GitHub {
                    owner: job.owner.clone(),
                    repo: job.repo.clone(),
                    source: e.into(),
                })
            })?;
            exec.report.detail(&format!(
                "preflight: {} answers; the token may read the releases of {}/{}",
                job.api, job.owner, job.repo
            ));
            Ok(())
        }
    }
}
