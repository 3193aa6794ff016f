//! The push stage: publish the verified bundle to the app registry, idempotently, and prove it.
//!
//! The order of a run: look the release up; already published with the same digest → nothing
//! to do (a re-run after success, or after a later stage failed); with a different digest →
//! refused unless `--force`, naming both digests. Then the one write, behind
//! [`Ctx::may_write`] (a dry-run stops here and prints the exact request: URL, release,
//! media type, size and digest, and which credentials would be sent, never their value). A 409
//! during the push (someone pushed meanwhile, or our own earlier attempt landed before its
//! answer was lost) is resolved by the same digest rule. After pushing, the release is pulled
//! back *by release name*, as consumers do, and its digest compared with what was sent.
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
use crate::olm::archive;
use crate::registry::{PushOutcome, ReleaseInfo};
use crate::report::Write;

pub async fn run(ctx: &mut Ctx<'_>) -> Result<()> {
    if let Some(why) = &ctx.state.nothing_to_publish {
        ctx.report.info(&format!("nothing to push: {why}"));
        return Ok(());
    }
    let s = ctx.settings;
    let (ns, pkg, channel) = (
        &s.registry.namespace,
        &s.pipeline.package,
        &s.pipeline.channel,
    );
    // The settings hold a parsed SemVer; check the text once more before anything is sent.
    let release = s.version.to_string();
    semver::Version::parse(&release).map_err(|e| {
        Error::input(format!(
            "release '{release}' is not strict SemVer ({e}); nothing was sent"
        ))
    })?;
    let packaged = ctx.packaged()?;
    let packed = &packaged.packed;
    let head = packaged
        .bundle
        .package
        .channel(channel)
        .map(|c| c.current_csv.clone())
        .unwrap_or_else(|| "(none)".into());
    let summary = format!(
        "{ns}/{pkg} release {release}, channel {channel} head {head}, sha256:{}",
        packed.digest
    );

    let existing = find(ctx, &release).await?;
    if let Some(e) = &existing {
        if e.digest == packed.digest {
            ctx.report
                .kept(write(ctx, &release, packed.gz.len(), &packed.digest, false));
            ctx.report
                .info(&format!("already published: {summary}; nothing to do"));
            return Ok(());
        }
        if !s.force {
            return Err(conflict(&release, ns, pkg, &e.digest, &packed.digest));
        }
        ctx.report.warn(&format!(
            "--force: overwriting release {release} of {ns}/{pkg} (published sha256:{}) with sha256:{}",
            e.digest, packed.digest
        ));
    }
    let force = existing.is_some() && s.force;
    let w = write(ctx, &release, packed.gz.len(), &packed.digest, force);
    let creds = ctx.registry.push_request(ns, pkg, force).credentials;
    if !ctx.may_write(w.clone()) {
        ctx.report.info(&format!("dry-run: credentials: {creds}"));
        return Ok(());
    }
    let spinner = ctx
        .report
        .activity(&format!("pushing {} bytes to {ns}/{pkg}", packed.gz.len()));
    let pushed = ctx
        .registry
        .push(ns, pkg, &release, &packed.gz, force)
        .await;
    drop(spinner);
    notes(ctx);
    match pushed {
        Ok(PushOutcome::Pushed) => {}
        Ok(PushOutcome::Exists) => {
            // Someone published this release between our look-up and our push, or an earlier
            // attempt of ours landed before its answer was lost.
            match find(ctx, &release).await? {
                Some(e) if e.digest == packed.digest => {
                    ctx.report
                        .info("the registry already had this release with this digest (409)");
                }
                Some(e) => return Err(conflict(&release, ns, pkg, &e.digest, &packed.digest)),
                None => {
                    return Err(Error::stage(format!(
                        "the registry refused release {release} of {ns}/{pkg} as existing (409), but does not list it"
                    )));
                }
            }
        }
        Err(e) => after_failure(ctx, e, &release, &packed.digest).await?,
    }
    prove(ctx, &release, &packed.digest).await?;
    ctx.report.published(w);
    ctx.report.info(&format!("published {summary}"));
    Ok(())
}

/// What is written, for the report and the dry-run line: the exact request.
fn write(ctx: &Ctx<'_>, release: &str, size: usize, digest: &str, force: bool) -> Write {
    let s = ctx.settings;
    let req = ctx
        .registry
        .push_request(&s.registry.namespace, &s.pipeline.package, force);
    Write {
        what: format!("bundle release {release} (media_type helm, {size}-byte .tar.gz)"),
        target: req.target,
        digest: Some(digest.to_string()),
    }
}

/// Reports the client's retries.
fn notes(ctx: &Ctx<'_>) {
    for n in ctx.registry.take_notes() {
        ctx.report.warn(&n);
    }
}

async fn find(ctx: &Ctx<'_>, release: &str) -> Result<Option<ReleaseInfo>> {
    let s = ctx.settings;
    let found = ctx
        .registry
        .release(&s.registry.namespace, &s.pipeline.package, release)
        .await;
    notes(ctx);
    found
}

fn conflict(release: &str, ns: &str, pkg: &str, published: &str, ours: &str) -> Error {
    Error::stage(format!(
        "release {release} of {ns}/{pkg} is already published with different content (published sha256:{published}, \
         this bundle sha256:{ours}); nothing was pushed. Bump the version, or pass --force to overwrite it"
    ))
}

/// After a failed push: look again and say where things stand. `Ok` when the release did land
/// with this bundle's digest (only the answer was lost); otherwise the error to report.
async fn after_failure(ctx: &Ctx<'_>, e: Error, release: &str, digest: &str) -> Result<()> {
    let s = ctx.settings;
    let (ns, pkg) = (&s.registry.namespace, &s.pipeline.package);
    let failed = e.context(format!("pushing release {release} of {ns}/{pkg}"));
    let state = match find(ctx, release).await {
        Ok(None) => format!("release {release} is not on the registry: nothing was published"),
        Ok(Some(r)) if r.digest == digest => {
            ctx.report.warn(&format!(
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
async fn prove(ctx: &Ctx<'_>, release: &str, digest: &str) -> Result<()> {
    let s = ctx.settings;
    let (ns, pkg) = (&s.registry.namespace, &s.pipeline.package);
    let listed = find(ctx, release).await?.ok_or_else(|| {
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
    let gz = ctx.registry.pull_release(ns, pkg, release).await;
    notes(ctx);
    let gz = gz.map_err(|e| e.context(format!("pulling release {release} back")))?;
    let (_, pulled) = archive::unpack(&gz, Default::default())
        .map_err(|e| Error::stage(format!("pulled release {release} back: {e}")))?;
    if pulled != digest {
        return Err(Error::stage(format!(
            "pulled release {release} of {ns}/{pkg} back, but its digest is sha256:{pulled}, not sha256:{digest}"
        )));
    }
    ctx.report.detail(&format!(
        "proof: pulled release {release} back, sha256:{pulled}"
    ));
    Ok(())
}
