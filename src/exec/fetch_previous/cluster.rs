//! What the upgrade changes in the cluster: the channel's published head and this release
//! rendered as OLM v1 installs them ([`cluster::rendering_for_diff`]) and compared
//! ([`cluster::upgrade_diff`]), shown always in a dry-run (with `-v` otherwise) and kept in the
//! summary. A CRD version the head serves that this release no longer lists stops the run
//! unless the pipeline sets `verify.allow_removed_crd_versions`.
//!
//! Where the head comes from decides what is compared. The app registry keeps a release's
//! CSVs, CRDs and package file only, so both sides are rendered from their CSV and the CRDs it
//! owns, and the summary says the bundles' other objects are left out. A catalog holds the
//! head's entry, whose `image` names its bundle image by digest: when that is the bundle image
//! this pipeline publishes, it is read from the pipeline's bundle-image target
//! ([`olm_release_oci::bundle_read`]) and both whole bundles are compared; another image is not
//! fetched, and `-v` says why there is no diff. An image that cannot be read there costs the
//! diff (a line says why), never the release.

use crate::error::Result;
use crate::error::step::FetchError;
use crate::exec::Assembled;
use crate::exec::context::Exec;
use crate::plan::FetchStep;
use crate::report::Reporter;
use crate::report::summary::ClusterDiff;
use olm_release_oci::{NoEvents, bundle_read};
use olm_release_olm::cluster::{self, RegistryV1};
use olm_release_olm::decision::Decision;
use olm_release_olm::fbc::ChannelHead;
use olm_release_olm::{Bundle, Manifest};
use serde_yaml_ng::Value;

/// What the app registry keeps of a release, hence what the comparison leaves out.
const WITHOUT: &str =
    "the app registry keeps only CSVs and CRDs, so the bundles' other objects are left out of both";

/// Compares the head (`old`, with the CRDs of its release) with the new CSV of `bundle`.
pub(crate) fn compare(
    step: &FetchStep,
    report: &Reporter,
    old: &Manifest,
    old_crds: &[Manifest],
    release: &str,
    bundle: &Bundle,
) -> Result<()> {
    let Some(new) = bundle.csvs.first() else {
        return Ok(());
    };
    let pkg = &step.package;
    let side = |csv: &Manifest, crds: &[Manifest]| {
        cluster::rendering_for_diff(&RegistryV1::of_release(pkg, csv, crds, &[]), pkg)
    };
    let head = format!("{} (release {release})", old.name().unwrap_or("the head"));
    let (before, after) = match (side(old, old_crds), side(new, &bundle.crds)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            report.info(&format!(
                "no cluster diff against {head}: OLM v1 cannot render one of them ({e})"
            ));
            return Ok(());
        }
    };
    finish(step, report, head, Some(WITHOUT), &before, &after)
}

/// Compares the catalog's head with the release, when the head's image is the bundle image
/// this pipeline publishes.
pub(crate) async fn compare_from_catalog(
    step: &FetchStep,
    exec: &Exec<'_>,
    heads: &[ChannelHead],
    assembled: &Assembled,
) -> Result<()> {
    let report = exec.report;
    let Decision::Replaces { head, .. } = &assembled.decision else {
        return Ok(());
    };
    let image = heads
        .iter()
        .find(|h| h.channel == step.channel && h.head.name == *head)
        .and_then(|h| h.head.image.clone());
    let no_diff = |why: String| report.detail(&format!("no cluster diff against {head}: {why}"));
    let Some(image) = image else {
        no_diff("its catalog entry names no image".into());
        return Ok(());
    };
    let ours = step.head_images.as_ref().and_then(|(name, job)| {
        let digest = image.strip_prefix(name.as_str())?.strip_prefix('@')?;
        Some((job, digest))
    });
    let Some((job, digest)) = ours else {
        no_diff(format!(
            "its image {image} is not the bundle image this pipeline publishes, and is not fetched"
        ));
        return Ok(());
    };
    // The diff informs; a head image that cannot be read (another job's target, a pruned
    // layout) costs the diff, never the release.
    let read = match exec.image(job) {
        Ok(store) => bundle_read::read_bundle(store, digest, &step.limits, &NoEvents)
            .await
            .map_err(|e| e.to_string()),
        Err(e) => Err(e.to_string()),
    };
    let read = match read {
        Ok(Some(read)) => read,
        Ok(None) => {
            no_diff(format!("{} holds no {digest}", job.target.describe()));
            return Ok(());
        }
        Err(e) => {
            report.info(&format!(
                "no cluster diff against {head}: its bundle image {image} cannot be read from {} ({e})",
                job.target.describe()
            ));
            return Ok(());
        }
    };
    let old = RegistryV1::from_files(&read.files)
        .and_then(|b| cluster::rendering_for_diff(&b, &step.package));
    let Some(csv) = assembled.bundle.csvs.first() else {
        return Ok(());
    };
    let new = RegistryV1::of_release(
        &step.package,
        csv,
        &assembled.bundle.crds,
        &assembled.objects,
    );
    let new = cluster::rendering_for_diff(&new, &step.package);
    let shown = format!("{head} ({}@{digest})", job.target.describe());
    match (old, new) {
        (Ok(before), Ok(after)) => finish(step, report, shown, None, &before, &after),
        (Err(e), _) | (_, Err(e)) => {
            report.info(&format!(
                "no cluster diff against {shown}: OLM v1 cannot render one of them ({e})"
            ));
            Ok(())
        }
    }
}

/// Shows and keeps the diff of two renderings; refuses removed served CRD versions unless the
/// pipeline allows them.
fn finish(
    step: &FetchStep,
    report: &Reporter,
    head: String,
    without: Option<&str>,
    before: &[Value],
    after: &[Value],
) -> Result<()> {
    let diff = cluster::upgrade_diff(before, after);
    let stranded = diff.stranded(&head, step.allow_removed_crd_versions);
    report.cluster_diff(
        ClusterDiff {
            from: head,
            without: without.map(str::to_string),
            diff,
        },
        step.show_diff,
    );
    match stranded {
        Ok(warning) => {
            if let Some(w) = warning {
                report.warn(&w);
            }
            Ok(())
        }
        Err(refusal) => Err(FetchError::RemovedCrdVersions(refusal).into()),
    }
}
