//! The push stage: publish the verified bundle to the app registry, idempotently, and prove it.
//!
//! The rule: a release already published with the same digest → nothing to do (a re-run after
//! success, or after a later stage failed); with a different digest → refused unless `--force`,
//! naming both digests. A dry-run or a forced run looks the release up first; a normal run sends
//! the push straight away (the one write, behind [`Ctx::may_write`]) and applies the same rule
//! to a 409 answer, which saves a round trip on every first publication. A dry-run stops before
//! the write and prints the exact request: URL, release, media type, size and digest, and which
//! credentials would be sent, never their value. After pushing, the release is read back *by
//! release name*, as consumers do, and its digest compared with what was sent.
//!
//! A push is a single request that the server stores whole or not at all, so nothing is ever
//! half-published. When the request fails (after the client's retries), the stage looks again
//! and says exactly where things stand: not published, published with our digest (the answer
//! was lost; continue), or published with another digest.
//!
//! Stage order (fact sheet §1.8, §1.11 item 9): KubeVirt's Travis deploy pushed to Quay before
//! the GitHub release until #2592 moved the push last, "so it can't break the release
//! anymore". Here the default order is render → fetch-previous → package → verify → push →
//! release: the bundle is never pushed unverified, and because a push is idempotent, a run
//! whose release stage failed is simply run again: push finds its own digest and does nothing,
//! and the release stage completes.

use super::Ctx;
use crate::error::{Error, Result};
use crate::olm::PackageManifest;
use crate::olm::archive::{self, Packed};
use crate::registry::{PushOutcome, Registry, ReleaseInfo};
use crate::report::{Reporter, Write};
use crate::settings::Settings;

/// What one push publishes and where. The push stage fills it from the pipeline's settings;
/// `olm-release publish` fills it from its arguments, so both go through the same code below.
#[derive(Debug, Clone)]
pub struct Job {
    pub namespace: String,
    pub package: String,
    /// The OLM channel whose head the summary names.
    pub channel: String,
    pub release: String,
    pub force: bool,
    pub dry_run: bool,
}

impl Job {
    pub fn from_settings(s: &Settings) -> Self {
        Job {
            namespace: s.registry.namespace.clone(),
            package: s.pipeline.package.clone(),
            channel: s.pipeline.channel.clone(),
            release: s.version.to_string(),
            force: s.force,
            dry_run: s.dry_run,
        }
    }
}

/// The registry, the reporter and the job: everything one push uses.
struct Push<'a> {
    registry: &'a Registry,
    report: &'a Reporter,
    job: &'a Job,
}

/// The push stage: the pipeline's settings as a [`Job`], then [`push`].
pub async fn run(ctx: &mut Ctx<'_>) -> Result<()> {
    if let Some(why) = &ctx.state.nothing_to_publish {
        ctx.report.info(&format!("nothing to push: {why}"));
        return Ok(());
    }
    let job = Job::from_settings(ctx.settings);
    let packaged = ctx.packaged()?;
    push(
        &ctx.registry,
        ctx.report,
        &job,
        &packaged.bundle.package,
        &packaged.packed,
    )
    .await
}

/// Publishes `packed` (whose package file is `package`) as `job` says, idempotently, and
/// proves it by pulling it back.
pub async fn push(
    registry: &Registry,
    report: &Reporter,
    job: &Job,
    package: &PackageManifest,
    packed: &Packed,
) -> Result<()> {
    let p = Push {
        registry,
        report,
        job,
    };
    let (ns, pkg, channel) = (&job.namespace, &job.package, &job.channel);
    // The release is a parsed SemVer upstream; check the text once more before anything is sent.
    let release = job.release.clone();
    semver::Version::parse(&release).map_err(|e| {
        Error::input(format!(
            "release '{release}' is not strict SemVer ({e}); nothing was sent"
        ))
    })?;
    let head = package
        .channel(channel)
        .map(|c| c.current_csv.clone())
        .unwrap_or_else(|| "(none)".into());
    let summary = format!(
        "{ns}/{pkg} release {release}, channel {channel} head {head}, sha256:{}",
        packed.digest
    );

    // Look the release up first only when the answer changes what is sent: a dry-run says what
    // it would do, and --force must not overwrite an identical release. Otherwise the push goes
    // straight out and a 409 answer is resolved by the same digest rule below, which saves a
    // round trip on every first publication.
    let existing = if job.dry_run || job.force {
        p.find(&release).await?
    } else {
        None
    };
    if let Some(e) = &existing {
        if e.digest == packed.digest {
            report.kept(p.write(&release, packed.gz.len(), &packed.digest, false));
            report.info(&format!("already published: {summary}; nothing to do"));
            return Ok(());
        }
        if !job.force {
            return Err(conflict(&release, ns, pkg, &e.digest, &packed.digest));
        }
        report.warn(&format!(
            "--force: overwriting release {release} of {ns}/{pkg} (published sha256:{}) with sha256:{}",
            e.digest, packed.digest
        ));
    }
    let force = existing.is_some() && job.force;
    let w = p.write(&release, packed.gz.len(), &packed.digest, force);
    let creds = registry.push_request(ns, pkg, force).credentials;
    if !super::may_write(report, job.dry_run, w.clone()) {
        report.info(&format!("dry-run: credentials: {creds}"));
        return Ok(());
    }
    let spinner = report.activity(&format!("pushing {} bytes to {ns}/{pkg}", packed.gz.len()));
    let pushed = registry.push(ns, pkg, &release, &packed.gz, force).await;
    drop(spinner);
    p.notes();
    match pushed {
        Ok(PushOutcome::Pushed) => {}
        Ok(PushOutcome::Exists) => {
            // The release exists: a re-run after success, someone else's push, or an earlier
            // attempt of ours that landed before its answer was lost.
            match p.find(&release).await? {
                Some(e) if e.digest == packed.digest => {
                    report.kept(p.write(&release, packed.gz.len(), &packed.digest, false));
                    report.info(&format!(
                        "already published: {summary}; the registry already had this release with this digest (409), nothing to do"
                    ));
                    return Ok(());
                }
                Some(e) => return Err(conflict(&release, ns, pkg, &e.digest, &packed.digest)),
                None => {
                    return Err(Error::stage(format!(
                        "the registry refused release {release} of {ns}/{pkg} as existing (409), but does not list it"
                    )));
                }
            }
        }
        Err(e) => p.after_failure(e, &release, &packed.digest).await?,
    }
    p.prove(&release, &packed.digest).await?;
    report.published(w);
    report.info(&format!("published {summary}"));
    Ok(())
}

impl Push<'_> {
    /// What is written, for the report and the dry-run line: the exact request.
    fn write(&self, release: &str, size: usize, digest: &str, force: bool) -> Write {
        let req = self
            .registry
            .push_request(&self.job.namespace, &self.job.package, force);
        Write {
            what: format!("bundle release {release} (media_type helm, {size}-byte .tar.gz)"),
            target: req.target,
            digest: Some(digest.to_string()),
        }
    }

    /// Reports the client's retries.
    fn notes(&self) {
        for n in self.registry.take_notes() {
            self.report.warn(&n);
        }
    }

    async fn find(&self, release: &str) -> Result<Option<ReleaseInfo>> {
        let found = self
            .registry
            .release(&self.job.namespace, &self.job.package, release)
            .await;
        self.notes();
        found
    }

    /// After a failed push: look again and say where things stand. `Ok` when the release did
    /// land with this bundle's digest (only the answer was lost); otherwise the error to report.
    async fn after_failure(&self, e: Error, release: &str, digest: &str) -> Result<()> {
        let (ns, pkg) = (&self.job.namespace, &self.job.package);
        let failed = e.context(format!("pushing release {release} of {ns}/{pkg}"));
        let state = match self.find(release).await {
            Ok(None) => {
                format!("release {release} is not on the registry: nothing was published")
            }
            Ok(Some(r)) if r.digest == digest => {
                self.report.warn(&format!(
                    "{failed}; but release {release} is published with this bundle's digest, so the push landed"
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
        Err(Error {
            message: format!("{}; {state}", failed.message),
            ..failed
        })
    }

    /// Reads the release back as a consumer would (by release name) and checks the registry
    /// reports and serves exactly what was sent.
    async fn prove(&self, release: &str, digest: &str) -> Result<()> {
        let (ns, pkg) = (&self.job.namespace, &self.job.package);
        let listed = self.find(release).await?.ok_or_else(|| {
            Error::stage(format!(
                "pushed release {release} of {ns}/{pkg}, but the registry does not list it"
            ))
        })?;
        if listed.digest != digest {
            return Err(Error::stage(format!(
                "pushed release {release} of {ns}/{pkg}, but the registry reports sha256:{} instead of sha256:{digest}",
                listed.digest
            )));
        }
        let gz = self.registry.pull_release(ns, pkg, release).await;
        self.notes();
        let gz = gz.map_err(|e| e.context(format!("pulling release {release} back")))?;
        let pulled = archive::tar_digest(&gz, Default::default())
            .map_err(|e| Error::stage(format!("pulled release {release} back: {e}")))?;
        if pulled != digest {
            return Err(Error::stage(format!(
                "pulled release {release} of {ns}/{pkg} back, but its digest is sha256:{pulled}, not sha256:{digest}"
            )));
        }
        self.report.detail(&format!(
            "proof: pulled release {release} back, sha256:{pulled}"
        ));
        Ok(())
    }
}

fn conflict(release: &str, ns: &str, pkg: &str, published: &str, ours: &str) -> Error {
    Error::stage(format!(
        "release {release} of {ns}/{pkg} is already published with different content (published sha256:{published}, \
         this bundle sha256:{ours}); nothing was pushed. Bump the version, or pass --force to overwrite it"
    ))
}
