//! The fetch-previous step: read what the registry already serves for this package, decide
//! what the new CSV `replaces`, and carry the previous bundle's CSVs and CRDs into the new one.
//!
//! This is where KubeVirt's 2019 release flow went wrong most often, so each rule is explicit
//! here:
//! - only the pipeline's own package is read, by name, never "the first in the namespace";
//! - the previous bundle is the package's `default` release (highest SemVer: the one OLM
//!   consumers load), its digest checked against what the registry reported;
//! - the predecessor is the head of the pipeline's *channel* in that bundle, found by name;
//! - versions are compared as SemVer: above the head replaces it; equal re-publishes the same
//!   release (the push step decides by digest); below the head is refused (or skipped by
//!   policy) because it would make `replaces` point forward;
//! - every failure is an error; nothing is silently published without its predecessor.
//!
//! A pipeline without an app registry but with a catalog reads the catalog folder's channel
//! heads instead ([`catalog`]), and takes the same decision. The decisions are the domain's
//! (`olm::decision::decide_from_registry`, `decide_from_catalog`): this step reads, pulls and
//! reports.

pub(crate) mod catalog;
pub(crate) mod cluster;

use super::outputs::{Assembled, Basis, Rendered};
use crate::error::Result;
use crate::error::step::FetchError;
use crate::plan::FetchStep;
use crate::report::Reporter;
use olm_release_appregistry::{Registry, ReleaseInfo};
use olm_release_olm::archive::{self, Limits};
use olm_release_olm::decision::{self, Decided, Decision, Published, ReadFrom, explain};
use olm_release_olm::semdiff::{self, Side};
use olm_release_olm::{Bundle, Manifest};

/// The fetch-previous step.
pub(crate) async fn run(
    step: &FetchStep,
    ns: &str,
    registry: &Registry,
    report: &Reporter,
    rendered: Rendered,
) -> Result<Assembled> {
    let (pkg, channel) = (&step.package, &step.channel);
    let (files, contents) = rendered.split();
    let (rendered, objects) = (contents.bundle, contents.objects);
    let mut basis = Basis {
        rendered: rendered.clone(),
        seen: Vec::new(),
        carried: Vec::new(),
        summary: None,
    };
    let where_ = format!("{} {ns}/{pkg}", registry.describe());
    let releases = registry
        .releases(ns, pkg)
        .await
        .map_err(|source| FetchError::Read {
            at: where_.clone(),
            source,
        })?;
    basis.seen.clone_from(&releases);
    let Some(default) = releases.first() else {
        first_release_check(registry, report, ns, pkg, &rendered).await;
        let Decided {
            bundle: rendered,
            decision,
            notes,
        } = decision::decide_from_registry(rendered, &step.channels, &where_, None, step.older)?;
        for note in &notes {
            report.note(note);
        }
        basis.summary = Some(explain::first_notes(pkg, &step.channels, &rendered));
        report.decided(
            &decision,
            &format!(
                "first release: {} has no replaces ({where_} has no releases yet)",
                explain::csv_name(&rendered)
            ),
        );
        return Ok(Assembled {
            files,
            bundle: rendered,
            objects,
            decision,
            basis,
        });
    };
    report.info(&format!(
        "previous: release {} of {where_} (the highest of {}: what OLM consumers load), sha256:{}",
        default.release,
        releases.len(),
        default.digest
    ));
    let previous = pull_bundle(registry, ns, pkg, default, &where_, &step.limits).await?;
    let rendered_default = rendered.package.default_channel.is_some();
    let previous_head = previous
        .package
        .channel(channel)
        .and_then(|c| previous.csv(&c.current_csv))
        .cloned();
    let (previous_crds, previous_package) = (previous.crds.clone(), previous.package.clone());
    let published = Published {
        bundle: previous,
        release: &default.release,
        releases: releases.iter().map(|r| r.release.as_str()).collect(),
        from: ReadFrom::Registry,
    };
    let Decided {
        bundle,
        decision,
        notes,
    } = decision::decide_from_registry(
        rendered,
        &step.channels,
        &where_,
        Some(published),
        step.older,
    )?;
    for n in &notes {
        report.note(n);
    }
    let text = explain::from_registry(&decision, &bundle, channel);
    report.decided(&decision, &text);
    if let Some(note) = decision::default_channel_note(rendered_default, &bundle) {
        report.note(&note);
    }
    if let (Some(old), Decision::Replaces { .. }) = (&previous_head, &decision) {
        cluster::compare(step, report, old, &previous_crds, &default.release, &bundle)?;
    }
    let summary = previous_head.as_ref().map(|old| {
        let published = Side {
            csv: Some(old),
            crds: &previous_crds,
            package: Some(&previous_package),
        };
        let summary = show_diff(
            report,
            &published,
            &bundle,
            &default.release,
            step.show_diff,
        );
        let old_name = old.name().unwrap_or("the previous head");
        explain::summary_notes(channel, old_name, &default.release, &summary)
    });
    basis.summary = explain::notes(&decision, summary, pkg, &step.channels, &bundle);
    Ok(Assembled {
        files,
        bundle,
        objects,
        decision,
        basis,
    })
}

/// A first release at a version past a package's usual first (0.0.x, 0.1.x, 1.0.x) probably
/// looks at the wrong namespace or package (a typo such as `kubvirt`): warns, listing the
/// packages the namespace does have. Listing failures only lose the list, never the run.
async fn first_release_check(
    registry: &Registry,
    report: &Reporter,
    ns: &str,
    pkg: &str,
    rendered: &Bundle,
) {
    let Some(version) = rendered.csvs.first().and_then(Manifest::semver) else {
        return;
    };
    if decision::usual_first_version(&version) {
        return;
    }
    let listed = registry.list(ns).await.ok();
    let packages = listed
        .as_ref()
        .map(|list| list.iter().map(|p| p.name.as_str()).collect());
    report.warn(&explain::first_release_warning(ns, pkg, &version, packages));
}

/// Pulls a release of the pipeline's package and reads its bundle, checking the digest the
/// registry reported and the package name (fetch-previous, and the re-assembly after a
/// concurrent release in `converge`).
pub(crate) async fn pull_bundle(
    registry: &Registry,
    ns: &str,
    pkg: &str,
    info: &ReleaseInfo,
    where_: &str,
    limits: &Limits,
) -> Result<Bundle> {
    let gz = registry
        .pull(ns, pkg, &info.digest)
        .await
        .map_err(|source| FetchError::Pull {
            release: info.release.clone(),
            at: where_.to_string(),
            source,
        })?;
    let previous = archive::unpack_release(&gz, &info.digest, limits).map_err(|source| {
        FetchError::Unpack {
            release: info.release.clone(),
            at: where_.to_string(),
            source,
        }
    })?;
    if previous.package.package_name != *pkg {
        return Err(FetchError::OtherPackage {
            release: info.release.clone(),
            at: where_.to_string(),
            found: previous.package.package_name,
            package: pkg.to_string(),
        }
        .into());
    }
    Ok(previous)
}

/// Shows what changes between the channel's published head (its CSV, with the CRDs and the
/// package file of its release) and the bundle this run would publish, compared as data
/// ([`semdiff`]): the one-screen summary and the field changes by object always in a dry-run (so
/// maintainers review them before publishing), with `-v` otherwise; the canonical text diff
/// with `-v`. The summary also goes into the JSON summary, and is returned for the release
/// notes.
fn show_diff(
    report: &Reporter,
    published: &Side<'_>,
    bundle: &Bundle,
    release: &str,
    always: bool,
) -> semdiff::Summary {
    let (heading, diff) = explain::against_head(published, bundle, release);
    report.bundle_diff(&heading, &diff, always);
    diff.summary
}
