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
use olm_release_olm::decision::{self, Decided, Decision, Published, ReadFrom};
use olm_release_olm::{Bundle, PackageManifest};

/// Whether the bundle of `release`, below ours and not carried by it, must be taken in: its CSV
/// heads one of the pipeline's `channels` (a release of other channels only, or with a CSV of
/// another version, is not ours to chain; one that headed only a second channel is, since ours
/// must skip it there), or its package declares a channel that `ours` lacks and whose head
/// ours carries (a release that added a published CSV to a channel, which ours would otherwise
/// drop). `carried`: the CSV versions our bundle carries.
pub(super) fn is_missing(
    bundle: &Bundle,
    release: Option<Version>,
    channels: &[String],
    ours: &PackageManifest,
    carried: &[Version],
) -> bool {
    let version = |name: &str| bundle.csv(name).and_then(|c| c.semver());
    let heads = |channel: &String| {
        bundle
            .package
            .channel(channel)
            .and_then(|c| version(&c.current_csv))
    };
    release.is_some() && channels.iter().any(|c| heads(c) == release)
        || bundle.package.channels.iter().any(|c| {
            ours.channel(&c.name).is_none()
                && version(&c.current_csv).is_some_and(|v| carried.contains(&v))
        })
}

/// Of the releases below ours that our bundle (its package file `ours`, its CSV versions
/// `carried`) does not carry, those [`is_missing`] says must be taken in, each with its
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
        if is_missing(&bundle, r.version(), &fetch.channels, ours, carried) {
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
    let ours = Version::parse(&cx.push.release).ok();
    let mut below: Vec<&ReleaseInfo> = now
        .iter()
        .filter(|r| *r != base && r.release != cx.push.release)
        .filter(|r| r.version() < ours)
        .collect();
    below.reverse();
    for r in below {
        let carried: Vec<Version> = bundle.csvs.iter().filter_map(|c| c.semver()).collect();
        let version = r.version();
        if bundle.csvs.iter().any(|c| c.semver() == version) {
            continue;
        }
        let other = match missing.iter().position(|(m, _)| m == r) {
            Some(i) => missing.remove(i).1,
            None => match missing_in_channel(cx, fetch, (&bundle.package, &carried), &[r]).await? {
                Some(mut found) => found.remove(0).1,
                None => continue,
            },
        };
        // Its channels that the bundle lacks, where the bundle has their head (a release that
        // added a published CSV to a channel).
        for c in &other.package.channels {
            if bundle.package.channel(&c.name).is_none() && bundle.csv(&c.current_csv).is_some() {
                bundle.package.channels.push(c.clone());
                cx.report.detail(&format!(
                    "took in channel {} of release {}",
                    c.name, r.release
                ));
            }
        }
        let head = other
            .package
            .channel(&fetch.channel)
            .map(|c| c.current_csv.clone());
        if let Some(csv) = head.and_then(|h| other.csv(&h).cloned())
            && csv.semver() == version
            && decision::splice(&mut bundle, &fetch.channel, csv, &other.crds)
        {
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
    let verified = verify::run(check, cx.report, package::run(pack, cx.report, input)?)?;
    let p = Push {
        registry: cx.registry,
        report: cx.report,
        step: cx.push,
    };
    let (ns, pkg, release) = (&cx.push.namespace, &cx.push.package, &cx.push.release);
    let packed = &verified.packed;
    let w = p.write(packed.gz.len(), &packed.digest, true);
    if cx.gate.allow(&w) {
        cx.registry
            .push(ns, pkg, release, &packed.gz, true)
            .await
            .map_err(crate::exec::errors::PushError::from)?;
        p.prove(release, &packed.digest, packed.tar_size).await?;
        cx.gate.done(w);
    }
    Ok(verified)
}

#[cfg(test)]
mod tests {
    use super::*;
    use olm_release_olm::Manifest;

    use olm_release_olm::testing::package;

    fn csv(v: &str) -> Manifest {
        olm_release_olm::testing::csv(v, None)
    }

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }

    #[test]
    fn a_lower_release_that_added_a_channel_is_missing_until_ours_has_it() {
        let stable = ["stable".to_string()];
        // Release 0.2.1-0.1 added 0.2.0 to fast; ours (0.3.0) was built on 0.2.0 without fast.
        let added = Bundle {
            package: package(&[("stable", "op.v0.2.0"), ("fast", "op.v0.2.0")]),
            csvs: vec![csv("0.2.0"), csv("0.1.0")],
            crds: Vec::new(),
        };
        let carried = [v("0.3.0"), v("0.2.0"), v("0.1.0")];
        let ours = package(&[("stable", "op.v0.3.0")]);
        let release = Some(v("0.2.1-0.1"));
        assert!(is_missing(
            &added,
            release.clone(),
            &stable,
            &ours,
            &carried
        ));
        // Once ours has fast, it is carried.
        let merged = package(&[("stable", "op.v0.3.0"), ("fast", "op.v0.3.0")]);
        assert!(!is_missing(
            &added,
            release.clone(),
            &stable,
            &merged,
            &carried
        ));
        // A channel whose head ours does not carry is not ours to take in.
        assert!(!is_missing(&added, release, &stable, &ours, &[v("0.3.0")]));
        // The old rule stands: a release whose CSV heads the pipeline's channel.
        let plain = Bundle {
            package: package(&[("stable", "op.v0.2.0")]),
            csvs: vec![csv("0.2.0")],
            crds: Vec::new(),
        };
        assert!(is_missing(&plain, Some(v("0.2.0")), &stable, &ours, &[]));
    }

    #[test]
    fn a_lower_release_heading_only_a_second_channel_is_missing() {
        // Release 0.2.1 went to fast only; ours (0.3.0, on stable and fast) was built on 0.2.0.
        let fast_only = Bundle {
            package: package(&[("stable", "op.v0.2.0"), ("fast", "op.v0.2.1")]),
            csvs: vec![csv("0.2.1"), csv("0.2.0")],
            crds: Vec::new(),
        };
        let ours = package(&[("stable", "op.v0.3.0"), ("fast", "op.v0.3.0")]);
        let carried = [v("0.3.0"), v("0.2.0")];
        let both = ["stable".to_string(), "fast".to_string()];
        assert!(is_missing(
            &fast_only,
            Some(v("0.2.1")),
            &both,
            &ours,
            &carried
        ));
        // A pipeline on stable alone has nothing to chain there.
        let stable = ["stable".to_string()];
        assert!(!is_missing(
            &fast_only,
            Some(v("0.2.1")),
            &stable,
            &ours,
            &carried
        ));
    }
}
