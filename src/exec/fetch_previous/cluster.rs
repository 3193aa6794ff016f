//! What the upgrade changes in the cluster: the channel's published head and this release
//! rendered as OLM v1 installs them ([`cluster::rendering_for_diff`]) and compared
//! ([`cluster::upgrade_diff`]), shown always in a dry-run (with `-v` otherwise) and kept in the
//! summary. A CRD version the head serves that this release no longer lists stops the run
//! unless the pipeline sets `verify.allow_removed_crd_versions`. The app registry keeps a
//! release's CSVs, CRDs and package file only, so both sides are rendered from their CSV and
//! the CRDs it owns, and the summary says the bundles' other objects are left out.

use crate::error::Result;
use crate::exec::errors::FetchError;
use crate::plan::FetchStep;
use crate::report::Reporter;
use crate::report::summary::ClusterDiff;
use olm_release_olm::cluster::{self, RegistryV1};
use olm_release_olm::fbc::properties::owned_crds;
use olm_release_olm::{Bundle, Manifest};

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
        let owned = owned_crds(csv, crds).into_iter().map(|c| c.doc).collect();
        let b = RegistryV1::from_parts(pkg, csv.doc.clone(), owned, Vec::new());
        cluster::rendering_for_diff(&b, pkg)
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
    let diff = cluster::upgrade_diff(&before, &after);
    let removed: Vec<String> = diff
        .removed_served()
        .iter()
        .map(|c| format!("CRD {} version {}", c.crd, c.version))
        .collect();
    report.cluster_diff(
        ClusterDiff {
            from: head.clone(),
            without: Some(WITHOUT.to_string()),
            diff,
        },
        step.show_diff,
    );
    if removed.is_empty() {
        return Ok(());
    }
    if step.allow_removed_crd_versions {
        report.warn(&format!(
            "{} removed though the channel head serves {} (verify.allow_removed_crd_versions)",
            removed.join(", "),
            if removed.len() == 1 { "it" } else { "them" }
        ));
        return Ok(());
    }
    let (them, s) = match removed.len() {
        1 => ("it", ""),
        _ => ("them", "s"),
    };
    Err(FetchError::RemovedCrdVersions(format!(
        "{}: the channel head {head} serves {them} and this release no longer lists {them}, so the objects stored in {them} would be stranded (the API server refuses to drop a stored version); nothing was written. Keep the version{s} in spec.versions (served: false stops serving {them}), or set verify.allow_removed_crd_versions: true once no cluster stores objects in {them}",
        removed.join(", ")
    ))
    .into())
}
