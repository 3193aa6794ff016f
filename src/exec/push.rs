//! The push step: publish the verified bundle to the app registry, idempotently, and prove it.
//!
//! The rule: a release already published with the same digest → nothing to do (a re-run after
//! success, or after a later stage failed); with a different digest → refused unless `--force`,
//! naming both digests. A dry-run or a forced run looks the release up first; a normal run sends
//! the push straight away (the one write, behind the executor's gate) and applies the same rule
//! to a 409 answer, which saves a round trip on every first publication. A dry-run stops before
//! the write (the gate records it as skipped) and prints the exact request: URL, release,
//! media type, size and digest, and which credentials would be sent, never their value. After
//! pushing, the release is pulled back *by release name*, as consumers do, and the digest of
//! what the registry serves compared with what was sent.
//!
//! After the proof, [`converge`] reads the release list again: a release another job published
//! meanwhile is taken in (this release re-based and overwritten) or, when it is higher, waited
//! for, so racing jobs never fork the channel. The push step hands on the bundle as finally
//! published, for the release step's `{csv}` asset.
//!
//! A push is a single request that the server stores whole or not at all, so nothing is ever
//! half-published. When the request fails (after the client's retries), the stage looks again
//! and says exactly where things stand: not published, published with our digest (the answer
//! was lost; continue), or published with another digest.
//!
//! Stage order: KubeVirt's Travis deploy pushed to Quay before the GitHub release until
//! kubevirt/kubevirt#2592 moved the push last, "so it can't break the release
//! anymore". Here the default order is render → fetch-previous → package → verify → push →
//! release: the bundle is never pushed unverified, and because a push is idempotent, a run
//! whose release stage failed is simply run again: push finds its own digest and does nothing,
//! and the release stage completes.

use super::converge::{self, Context};
use super::outputs::Verified;
use super::push_release::Push;
use crate::error::Result;
use crate::error::step::PushError;
use crate::plan::PushStep;
use crate::report::Reporter;
use olm_release_appregistry::{PushOutcome, Registry};
use olm_release_http::events::Gate;
use olm_release_olm::archive::Packed;
use olm_release_olm::decision::Decision;

/// The push step: publishes the verified bundle as the step says, idempotently, proves it by
/// pulling it back, and then makes sure a release that landed concurrently does not fork the
/// channel ([`converge`]); returns the bundle as finally published.
pub(crate) async fn run(cx: &Context<'_>, verified: Verified) -> Result<Verified> {
    if let Some(Decision::SkipOlder { head }) = &verified.decision {
        cx.report.info(&format!(
            "nothing to push: the version is older than {head}, the head of the channel; policy 'skip'"
        ));
        return Ok(verified);
    }
    // The decision names the release when it is not the version: re-publishing a CSV that a
    // later release serves, or adding a published CSV to more channels (`fetch_previous::name`).
    let named = match verified.decision.as_ref().and_then(Decision::release) {
        Some(release) if *release != cx.push.release.to_string() => Some(PushStep {
            release: semver::Version::parse(release).map_err(|e| {
                crate::error::Error::internal(format!(
                    "the decision names release {release}, which is not SemVer: {e}"
                ))
            })?,
            ..cx.push.clone()
        }),
        _ => None,
    };
    let cx = &match &named {
        Some(step) => Context { push: step, ..*cx },
        None => Context { ..*cx },
    };
    if push(cx.push, cx.registry, cx.report, cx.gate, &verified).await? {
        converge::run(cx, verified).await
    } else {
        Ok(verified)
    }
}

/// Publishes the verified bundle; `true` when the release is on the registry with its digest
/// (pushed now or before), `false` in a dry-run.
async fn push(
    step: &PushStep,
    registry: &Registry,
    report: &Reporter,
    gate: &dyn Gate,
    verified: &Verified,
) -> Result<bool> {
    let p = Push {
        registry,
        report,
        step,
    };
    let (ns, pkg, release) = (&step.namespace, &step.package, &step.release.to_string());
    let packed: &Packed = &verified.packed;
    let channel = step
        .channel
        .as_deref()
        .or(verified.package.default_channel.as_deref())
        .or_else(|| verified.package.channels.first().map(|c| c.name.as_str()));
    let head = channel
        .and_then(|c| verified.package.channel(c))
        .map(|c| format!("channel {} head {}", c.name, c.current_csv))
        .unwrap_or_else(|| "no channel head".into());
    let summary = format!(
        "{ns}/{pkg} release {release}, {head}, sha256:{}",
        packed.digest
    );

    // Look the release up first only when the answer changes what is sent: a dry-run says what
    // it would do, and --force must not overwrite an identical release. Otherwise the push goes
    // straight out and a 409 answer is resolved by the same digest rule below, which saves a
    // round trip on every first publication.
    let existing = if step.look_up_first {
        p.find(release).await.map_err(PushError::from)?
    } else {
        None
    };
    if let Some(e) = &existing {
        if e.digest == packed.digest {
            gate.kept(p.write(packed.gz.len(), &packed.digest, false));
            report.info(&format!("already published: {summary}; nothing to do"));
            return Ok(true);
        }
        if !step.force {
            return Err(p.conflict(&e.digest, &packed.digest).into());
        }
        report.warn(&format!(
            "--force: overwriting release {release} of {ns}/{pkg} (published sha256:{}) with sha256:{}",
            e.digest, packed.digest
        ));
    }
    let force = existing.is_some() && step.force;
    let w = p.write(packed.gz.len(), &packed.digest, force);
    let creds = registry.push_request(ns, pkg, force).credentials;
    if !gate.allow(&w) {
        report.info(&format!("dry-run: credentials: {creds}"));
        return Ok(false);
    }
    match registry.push(ns, pkg, release, &packed.gz, force).await {
        Ok(PushOutcome::Pushed) => {}
        Ok(PushOutcome::Exists) => {
            // The release exists: a re-run after success, someone else's push, or an earlier
            // attempt of ours that landed before its answer was lost.
            match p.find(release).await.map_err(PushError::from)? {
                Some(e) if e.digest == packed.digest => {
                    gate.kept(p.write(packed.gz.len(), &packed.digest, false));
                    report.info(&format!(
                        "already published: {summary}; the registry already had this release with this digest (409), nothing to do"
                    ));
                    return Ok(true);
                }
                Some(e) => return Err(p.conflict(&e.digest, &packed.digest).into()),
                None => {
                    return Err(PushError::ExistsUnlisted {
                        release: release.clone(),
                        namespace: ns.clone(),
                        package: pkg.clone(),
                    }
                    .into());
                }
            }
        }
        Err(e) => p.after_failure(e, release, &packed.digest).await?,
    }
    p.prove(release, &packed.digest, packed.tar_size).await?;
    gate.done(w);
    report.info(&format!("published {summary}"));
    Ok(true)
}
