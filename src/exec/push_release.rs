//! One release written to the app registry: the exact request (what a dry-run prints), the
//! proof that the registry serves what was sent (pulled back by release name, as consumers
//! do), and where things stand after a failed push. The push step and a re-based push during
//! convergence both write through it.

use crate::error::step::PushError;
use crate::plan::PushStep;
use crate::report::Reporter;
use olm_release_appregistry::{Registry, RegistryError, ReleaseInfo};
use olm_release_http::events::Write;
use olm_release_olm::archive;

/// The registry, the reporter and the step: everything one push uses.
pub(super) struct Push<'a> {
    pub(super) registry: &'a Registry,
    pub(super) report: &'a Reporter,
    pub(super) step: &'a PushStep,
}

impl Push<'_> {
    /// What is written, for the report and the dry-run line: the exact request.
    pub(super) fn write(&self, size: usize, digest: &str, force: bool) -> Write {
        let s = self.step;
        let req = self.registry.push_request(&s.namespace, &s.package, force);
        Write {
            what: format!(
                "bundle release {} (media_type helm, {size}-byte .tar.gz)",
                s.release
            ),
            target: req.target,
            digest: Some(digest.to_string()),
        }
    }

    pub(super) async fn find(&self, release: &str) -> Result<Option<ReleaseInfo>, RegistryError> {
        self.registry
            .release(&self.step.namespace, &self.step.package, release)
            .await
    }

    pub(super) fn conflict(&self, published: &str, ours: &str) -> PushError {
        PushError::Conflict {
            release: self.step.release.to_string(),
            namespace: self.step.namespace.clone(),
            package: self.step.package.clone(),
            published: published.into(),
            ours: ours.into(),
        }
    }

    /// After a failed push: look again and say where things stand. `Ok` when the release did
    /// land with this bundle's digest (only the answer was lost); otherwise the error to report.
    pub(super) async fn after_failure(
        &self,
        e: RegistryError,
        release: &str,
        digest: &str,
    ) -> Result<(), PushError> {
        let (ns, pkg) = (&self.step.namespace, &self.step.package);
        let state = match self.find(release).await {
            Ok(None) => {
                format!("release {release} is not on the registry: nothing was published")
            }
            Ok(Some(r)) if r.digest == digest => {
                self.report.warn(&format!(
                    "pushing release {release} of {ns}/{pkg}: {e}; but release {release} is published with this bundle's digest, so the push landed"
                ));
                return Ok(());
            }
            Ok(Some(r)) => format!(
                "release {release} is now published with sha256:{}, not this bundle's sha256:{digest}",
                r.digest
            ),
            Err(look) => format!(
                "looking the release up again failed too ({look}); check {ns}/{pkg} {release} by hand"
            ),
        };
        Err(PushError::Failed {
            release: release.into(),
            namespace: ns.clone(),
            package: pkg.clone(),
            state,
            source: e,
        })
    }

    /// Reads the release back as a consumer would, by release name, and checks the registry
    /// serves exactly what was sent. (The server resolves the name through its index to the
    /// blob's digest, so bytes with our digest also prove the index names our digest; a
    /// separate look at the release list would cost a round trip and prove nothing more.)
    pub(super) async fn prove(
        &self,
        release: &str,
        digest: &str,
        tar_size: u64,
    ) -> Result<(), PushError> {
        let (ns, pkg) = (&self.step.namespace, &self.step.package);
        let gz = self
            .registry
            .pull_release(ns, pkg, release)
            .await
            .map_err(|source| PushError::PullBack {
                release: release.into(),
                source,
            })?;
        // Read no further than the tar that was sent.
        let limits = archive::Limits::for_packed(tar_size);
        let pulled = archive::tar_digest(&gz, limits).map_err(|source| PushError::Unreadable {
            release: release.into(),
            source,
        })?;
        if pulled != digest {
            return Err(PushError::Pulled {
                release: release.into(),
                namespace: ns.clone(),
                package: pkg.clone(),
                pulled,
                digest: digest.into(),
            });
        }
        self.report.detail(&format!(
            "proof: pulled release {release} back, sha256:{pulled}"
        ));
        Ok(())
    }
}
