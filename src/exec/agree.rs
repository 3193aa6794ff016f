//! One release model, two sources of the channel head: when a pipeline publishes both to an
//! app registry (fetch-previous → push) and to a file-based catalog (bundle-image → catalog),
//! the head each one names for the channel must be the same, or the two upgrade graphs would
//! fork. fetch-previous asks the app registry; this check asks the catalog folder
//! ([`fbc::head`], operator-registry's rule: the one entry nothing replaces or skips) right
//! after, before the first write, and stops the run when they differ, saying how.
//!
//! A release that one side has and the other not yet is not a disagreement when it is this very
//! release: an earlier run that stopped between the push and the catalog write left the
//! registry one release ahead (its head is our CSV, the catalog's is what our CSV replaces), and
//! the reverse order leaves the catalog ahead. Both are completed by this run.

use super::catalog_target::Snapshot;
use super::errors::HeadsDiffer;
use crate::error::Result;
use crate::plan::CatalogStep;
use crate::report::Reporter;
use olm_release_olm::decision::Decision;
use olm_release_olm::fbc::{self, disk};

/// Checks that the catalog of `step`, read into `snap`, names the same channel head as the app
/// registry did when it decided `decision` for the new CSV `ours`; `registry` describes the
/// app registry for messages.
pub(crate) fn check(
    step: &CatalogStep,
    snap: &Snapshot,
    ours: &olm_release_olm::Manifest,
    decision: &Decision,
    registry: &str,
    report: &Reporter,
) -> Result<()> {
    let ours_name = ours.name().unwrap_or_default().to_string();
    let ours_replaces = ours.replaces().map(str::to_string);
    let from_registry: Option<String> = match decision {
        Decision::First { .. } => None,
        Decision::Replaces { head, .. } | Decision::SkipOlder { head } => Some(head.clone()),
        Decision::SameVersion { .. } => Some(ours_name.clone()),
        Decision::AddChannels { channels, .. } if !channels.contains(&step.channel) => {
            Some(ours_name.clone())
        }
        // The registry's channel is absent or headed by a CSV ours replaces or skips.
        Decision::AddChannels { .. } => None,
    };
    let loaded = disk::read_package(&snap.dir, &step.package)?;
    let from_catalog = fbc::head(&loaded.catalog, &step.package, &step.channel)?;
    let catalog_name = from_catalog.as_ref().map(|h| h.name.clone());
    let shown = |h: &Option<String>| {
        h.clone()
            .unwrap_or_else(|| "no head (nothing published)".into())
    };
    if let Decision::AddChannels { channels, .. } = decision
        && channels.contains(&step.channel)
    {
        // This release adds (or moves) the channel in the registry; the catalog may lack it,
        // have it already (ahead), or head it with a CSV ours replaces or skips.
        let edges = olm_release_olm::decision::edges(ours);
        let fine = catalog_name
            .as_ref()
            .is_none_or(|c| *c == ours_name || edges.contains(c));
        if fine {
            report.detail(&format!(
                "this release adds {ours_name} to channel {} of the app registry; the catalog {} has {}",
                step.channel,
                snap.shown,
                shown(&catalog_name)
            ));
            return Ok(());
        }
        return Err(HeadsDiffer {
            channel: step.channel.clone(),
            registry: registry.to_string(),
            registry_head: format!("{ours_name} (this release adds it to the channel)"),
            catalog: snap.shown.clone(),
            catalog_head: shown(&catalog_name),
            csv: ours_name,
        }
        .into());
    }
    if from_registry == catalog_name {
        report.detail(&format!(
            "the app registry and the catalog {} agree on the head of channel {}: {}",
            snap.shown,
            step.channel,
            shown(&from_registry)
        ));
        return Ok(());
    }
    // The registry is one release ahead with this very release (the catalog write of an
    // earlier run did not happen), or the catalog is.
    // The behind side's head is one our CSV replaces or skips (its own edges, kept as written).
    let ours_edges = olm_release_olm::decision::edges(ours);
    let edge = |head: &Option<String>| head.as_ref().is_some_and(|h| ours_edges.contains(h));
    let registry_ahead = from_registry.as_deref() == Some(ours_name.as_str())
        && (catalog_name == ours_replaces || edge(&catalog_name));
    let catalog_ahead = catalog_name.as_deref() == Some(ours_name.as_str())
        && (from_catalog.as_ref().and_then(|h| h.replaces.clone()) == from_registry
            || edge(&from_registry));
    if registry_ahead || catalog_ahead {
        let (ahead, behind) = if registry_ahead {
            ("the app registry", "catalog")
        } else {
            ("the catalog", "app registry")
        };
        report.note(&format!(
            "{ahead} already has {ours_name} at the head of channel {}; this run adds it to the {behind} as well",
            step.channel
        ));
        return Ok(());
    }
    Err(HeadsDiffer {
        channel: step.channel.clone(),
        registry: registry.to_string(),
        registry_head: shown(&from_registry),
        catalog: snap.shown.clone(),
        catalog_head: shown(&catalog_name),
        csv: ours_name,
    }
    .into())
}
