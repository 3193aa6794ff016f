//! The preflight step: one cheap authenticated read of each server the plan writes to, before
//! anything is written — the package's releases on the app registry (a login first, when the
//! credentials are a username and password), the repository's release list on GitHub. The
//! checks run together and every failure is listed at once; a server that said no is a stage
//! failure (exit 1). Missing or unsendable credentials never get here: the plan builder
//! reports them (exit 2).

use super::Exec;
use crate::error::{Class, Error, Result};
use crate::plan::{Check, PreflightStep};

/// The preflight step.
pub(crate) async fn run(step: &PreflightStep, exec: &Exec<'_>) -> Result<()> {
    let checks = step.checks.iter().map(|c| one(c, exec));
    let results = futures_util::future::join_all(checks).await;
    let failed: Vec<Error> = results.into_iter().filter_map(|r| r.err()).collect();
    match failed.len() {
        0 => Ok(()),
        1 => Err(failed.into_iter().next().expect("one failure")),
        n => {
            let class = if failed.iter().any(|e| e.class() == Class::Stage) {
                Class::Stage
            } else {
                Class::Input
            };
            let list: Vec<String> = failed.iter().map(|e| format!("\n  - {e}")).collect();
            Err(Error::Message {
                class,
                message: format!("{n} checks failed; nothing was written:{}", list.concat()),
            })
        }
    }
}

async fn one(check: &Check, exec: &Exec<'_>) -> Result<()> {
    match check {
        Check::Registry {
            registry,
            namespace,
            package,
        } => {
            let r = exec.registry(registry)?;
            let releases = r.releases(namespace, package).await.map_err(|e| {
                e.context(format!(
                    "the registry check (reading the releases of {namespace}/{package} at {})",
                    registry.location
                ))
            })?;
            exec.report.detail(&format!(
                "preflight: {} answers; {namespace}/{package} has {} release(s)",
                registry.location,
                releases.len()
            ));
            Ok(())
        }
        Check::GitHub(job) => {
            let client = exec.github(job)?;
            client.check().await.map_err(|e| {
                Error::from(e).context(format!(
                    "the GitHub check (reading the releases of {}/{})",
                    job.owner, job.repo
                ))
            })?;
            exec.report.detail(&format!(
                "preflight: {} answers; the token may read the releases of {}/{}",
                job.api, job.owner, job.repo
            ));
            Ok(())
        }
    }
}
