//! The re-assembly of our release after releases landed concurrently below it: the same
//! decision and merge as fetch-previous, against the highest release below ours, the other
//! missing releases' CSVs spliced in, packaged and verified by the plan's own steps, and our
//! release overwritten by a forced push (proven by pulling it back).

use semver::Version;

use super::Context;
use crate::error::Result;
use crate::exec::outputs::{Basis, Verified};
use crate::exec::push_release::Push;
use crate::exec::{fetch_previous, package, verify};
use crate::plan::FetchStep;
use olm_release_appregistry::ReleaseInfo;
use olm_release_olm::archive::Contents;
use olm_release_olm::decision::race;
use olm_release_olm::decision::{self, Decided, Decision, Published, ReadFrom};
use olm_release_olm::{Bundle, PackageManifest};

/// Of the releases below ours that our bundle (its package file `ours`, its CSV versions
/// `carried`) does not carry, those `race::is_missing` says must be taken in, each with its
/// bundle; `None` when none.
pub(super) async fn missing_in_channel(
    cx: &Context<'_>,
    fetch: &FetchStep,
    (ours, carried): (&PackageManifest, &[Version]),
    candidates: &[&ReleaseInfo],
) -> Result<Option<Vec<(ReleaseInfo, Bundle)>>> {
    let mut out = Vec::new();
    for r in candidates {
        let at = cx.at();
        let bundle = match fetch_previous::pull_bundle(
            cx.registry,
            &cx.push.namespace,
            &fetch.package,
            r,
            &at,
            &fetch.limits,
        )
        .await
        {
            Ok(b) => b,
            Err(e) => {
                cx.report.warn(&format!(
                    "release {} is not carried by {} and cannot be read to take it in: {e}",
                    r.release, cx.push.release
                ));
                continue;
            }
        };
        if race::is_missing(&bundle, r.version(), &fetch.channels, ours, carried) {
            out.push(((*r).clone(), bundle));
        }
    }
    Ok((!out.is_empty()).then_some(out))
}

/// Re-assembles our release on the highest release below it, with the other missing releases'
/// CSVs spliced in, packages and verifies it as the plan does, and overwrites our release.
pub(super) async fn rebase(
    cx: &Context<'_>,
    v: Verified,
    basis: &Basis,
    base: &ReleaseInfo,
    mut missing: Vec<(ReleaseInfo, Bundle)>,
    now: &[ReleaseInfo],
) -> Result<Verified> {
    let (fetch, pack, check) = cx.steps.expect("converge runs only with fetch-previous");
    let at = cx.at();
    let previous = match missing.iter().position(|(r, _)| r == base) {
        Some(i) => missing.remove(i).1,
        None => {
            fetch_previous::pull_bundle(
                cx.registry,
                &cx.push.namespace,
                &fetch.package,
                base,
                &at,
                &fetch.limits,
            )
            .await?
        }
    };
    let published = Published {
        bundle: previous,
        release: &base.release,
        releases: now.iter().map(|r| r.release.as_str()).collect(),
        from: ReadFrom::Registry,
    };
    let Decided {
        mut bundle,
        decision,
        notes,
    } = decision::decide(
        basis.rendered.clone(),
        &fetch.channels,
        published,
        fetch.older,
    )?;
    for n in &notes {
        cx.report.note(n);
    }
    // Every other release below ours that the re-based bundle lacks, lowest first: those
    // pulled already, and any the new base dropped (a base that raced the others).
    let ours = (cx.push.release.to_string(), &cx.push.release);
    for r in race::lower_releases(now, base, (&ours.0, ours.1)) {
        let version = r.version();
        if race::carries(&bundle, version.as_ref()) {
            continue;
        }
        let carried = race::carried(&bundle);
        let other = match missing.iter().position(|(m, _)| m == r) {
            Some(i) => missing.remove(i).1,
            None => match missing_in_channel(cx, fetch, (&bundle.package, &carried), &[r]).await? {
                Some(mut found) => found.remove(0).1,
                None => continue,
            },
        };
        let taken = race::take_in(&mut bundle, &fetch.channel, &other, version.as_ref());
        for c in &taken.channels {
            cx.report
                .detail(&format!("took in channel {c} of release {}", r.release));
        }
        if taken.csv {
            cx.report
                .detail(&format!("took in the CSV of release {}", r.release));
        }
    }
    if let Decision::Replaces { head, head_release } = &decision {
        // The summary's decision is the one finally published.
        cx.report.decided(
            &decision,
            &format!(
                "{} now replaces {head}, head of {} in release {head_release}; bundle carries {} CSVs",
                cx.push.release,
                fetch.channel,
                bundle.csvs.len()
            ),
        );
    }
    let files = v
        .files
        .clone()
        .ok_or_else(|| crate::error::Error::internal("a re-assembly without the rendered files"))?;
    let input = package::Input::Pipeline {
        files,
        contents: Contents {
            bundle,
            objects: v.objects.clone(),
        },
        decision: Some(decision),
        basis: Some(Basis {
            seen: now.to_vec(),
            ..basis.clone()
        }),
    };
    // A rebase is one release of a pipeline, never of a history: nothing to share.
    let cache = crate::exec::context::HistoryCache::default();
    let packed = package::run(pack, cx.report, input, &cache)?;
    let verified = verify::run(check, cx.report, packed, &cache)?;
    let p = Push {
        registry: cx.registry,
        report: cx.report,
        step: cx.push,
    };
    let (ns, pkg, release) = (
        &cx.push.namespace,
        &cx.push.package,
        &cx.push.release.to_string(),
    );
    let packed = &verified.packed;
    let w = p.write(packed.gz.len(), &packed.digest, true);
    if cx.gate.allow(&w) {
        cx.registry
            .push(ns, pkg, release, &packed.gz, true)
            .await
            .map_err(crate::error::step::PushError::from)?;
        p.prove(release, &packed.digest, packed.tar_size).await?;
        cx.gate.done(w);
    }
    Ok(verified)
}
