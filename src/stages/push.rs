//! The push stage: publish the verified bundle to the app registry, idempotently, and prove it.
//!
//! Before pushing, the release is looked up: published with the same digest → nothing to do;
//! with a different digest → refused unless `--force`, naming both digests. A 409 during the
//! push (someone else pushed meanwhile) is resolved the same way. After pushing, the release is
//! read back and its digest compared with what was sent. The push itself is the one write,
//! behind [`Ctx::may_write`].

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
    let (ns, pkg) = (&s.registry.namespace, &s.pipeline.package);
    let release = s.version.to_string();
    let packed = &ctx.packaged()?.packed;
    let write = Write {
        what: format!("bundle {release}"),
        target: format!("{} {ns}/{pkg}", ctx.registry.describe()),
        digest: Some(packed.digest.clone()),
    };
    let existing = find(ctx, &release).await?;
    if let Some(e) = &existing {
        if e.digest == packed.digest {
            ctx.report.kept(write);
            return Ok(());
        }
        if !s.force {
            return Err(conflict(&release, ns, pkg, &e.digest, &packed.digest));
        }
        ctx.report.warn(&format!(
            "--force: overwriting release {release} (sha256:{}) with sha256:{}",
            e.digest, packed.digest
        ));
    }
    if !ctx.may_write(write.clone()) {
        return Ok(());
    }
    let force = existing.is_some() && s.force;
    match ctx
        .registry
        .push(ns, pkg, &release, &packed.gz, force)
        .await?
    {
        PushOutcome::Pushed => {}
        PushOutcome::Exists => {
            // Someone published this release between our look-up and our push.
            let now = find(ctx, &release).await?;
            match now {
                Some(e) if e.digest == packed.digest => {
                    ctx.report.kept(write);
                    return Ok(());
                }
                Some(e) => return Err(conflict(&release, ns, pkg, &e.digest, &packed.digest)),
                None => {
                    return Err(Error::stage(format!(
                        "the registry refused release {release} as existing, but does not list it"
                    )));
                }
            }
        }
    }
    prove(ctx, &release, &packed.digest).await?;
    ctx.report.published(write);
    Ok(())
}

async fn find(ctx: &Ctx<'_>, release: &str) -> Result<Option<ReleaseInfo>> {
    let s = ctx.settings;
    let releases = ctx
        .registry
        .releases(&s.registry.namespace, &s.pipeline.package)
        .await?;
    Ok(releases.into_iter().find(|r| r.release == release))
}

fn conflict(release: &str, ns: &str, pkg: &str, published: &str, ours: &str) -> Error {
    Error::stage(format!(
        "release {release} of {ns}/{pkg} is already published with different content (published sha256:{published}, \
         this bundle sha256:{ours}); bump the version, or pass --force to overwrite it"
    ))
}

/// Reads the release back and checks the registry serves exactly what was sent.
async fn prove(ctx: &Ctx<'_>, release: &str, digest: &str) -> Result<()> {
    let s = ctx.settings;
    let (ns, pkg) = (&s.registry.namespace, &s.pipeline.package);
    let listed = find(ctx, release).await?.ok_or_else(|| {
        Error::stage(format!(
            "pushed release {release}, but the registry does not list it"
        ))
    })?;
    if listed.digest != digest {
        return Err(Error::stage(format!(
            "pushed release {release}, but the registry reports sha256:{} instead of sha256:{digest}",
            listed.digest
        )));
    }
    let gz = ctx.registry.pull(ns, pkg, digest).await?;
    let (_, pulled) = archive::unpack(&gz, Default::default()).map_err(Error::stage)?;
    if pulled != digest {
        return Err(Error::stage(format!(
            "pulled release {release} back, but its digest is sha256:{pulled}, not sha256:{digest}"
        )));
    }
    Ok(())
}
