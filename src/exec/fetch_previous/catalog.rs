//! fetch-previous from a file-based catalog: for a pipeline that publishes only the modern way
//! (bundle image → catalog, no `registry:` section), the published heads are the catalog
//! folder's. The CSV in the bundle image then says what the catalog entry says: operator-sdk
//! and `opm` users set both, and tools and people read `spec.replaces` from the CSV.
//!
//! The catalog is read and validated (`opm validate`'s rules), and for each channel of the
//! release its head ([`fbc::head`], operator-registry's rule) with its `olm.package` version.
//! Those heads become a skeleton of the "previous bundle" that [`decide`] takes, so the
//! decision is the app-registry path's, unchanged: above every head → `spec.replaces` = the
//! first channel's head and `spec.skips` += the other channels' heads; the new CSV is already
//! the head → the same version again (its edges rebuilt from the catalog entry, so the rerun
//! builds the same image); below a head → refused, or skipped by `catalog.older`; no head →
//! a first release. Nothing is carried: a registry+v1 bundle holds one CSV, so the bundle keeps
//! only the new CSV and its own CRDs.

use super::{csv_name, first_notes};
use crate::error::Result;
use crate::exec::catalog_target::Snapshot;
use crate::exec::errors::FetchError;
use crate::exec::outputs::{Assembled, Basis, Rendered};
use crate::plan::FetchStep;
use crate::report::Reporter;
use olm_release_olm::decision::Decision;
use olm_release_olm::decision::{
    Decided, Published, ReadFrom, clear_dangling, decide, first_package, set_skips,
};
use olm_release_olm::fbc::{self, disk};
use olm_release_olm::{Bundle, Channel, Level, Manifest, PackageManifest};

/// One channel's head in the catalog.
struct Found {
    channel: String,
    head: fbc::Head,
    /// The head entry's `skips`.
    skips: Vec<String>,
}

/// The fetch-previous step, reading the catalog.
pub(crate) fn run(
    step: &FetchStep,
    snap: &Snapshot,
    report: &Reporter,
    rendered: Rendered,
) -> Result<Assembled> {
    let (files, contents) = rendered.split();
    let (mut rendered, objects) = (contents.bundle, contents.objects);
    let basis = Basis {
        rendered: rendered.clone(),
        seen: Vec::new(),
        carried: Vec::new(),
        summary: None,
    };
    let shown = snap.shown.clone();
    let name = csv_name(&rendered).to_string();
    let found = heads(step, snap)?;
    let (pkg, channel) = (&step.package, &step.channel);
    if found.is_empty() {
        let reason = if !snap.fresh {
            format!(
                "the catalog {shown} has no channel '{}' of package {pkg}",
                step.channels.join("', '")
            )
        } else {
            format!("the catalog {shown} does not exist yet")
        };
        if let Some(cleared) = clear_dangling(&mut rendered, None) {
            report.note(&cleared);
        }
        for note in first_package(&mut rendered.package, &step.channels, &name) {
            report.note(&note);
        }
        let text = format!("first release: {name} has no replaces ({reason})");
        let decision = Decision::First { reason };
        report.decided(&decision, &text);
        let summary = Some(first_notes(pkg, &step.channels, &rendered));
        return Ok(Assembled {
            files,
            bundle: rendered,
            objects,
            decision,
            basis: Basis { summary, ..basis },
        });
    }
    report.info(&format!(
        "previous: read from the catalog {shown} (no registry: section): {}",
        found
            .iter()
            .map(|f| format!(
                "channel {} head {}{}",
                f.channel,
                f.head.name,
                f.head
                    .version
                    .as_ref()
                    .map(|v| format!(" ({v})"))
                    .unwrap_or_default()
            ))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    // The highest head plays the app registry's "default release" in the decision's words.
    let highest = found
        .iter()
        .filter_map(|f| f.head.version.clone())
        .max()
        .map(|v| v.to_string())
        .unwrap_or_default();
    let previous = skeleton(pkg, &rendered, &found);
    let published = Published {
        bundle: previous,
        release: &highest,
        releases: Vec::new(),
        from: ReadFrom::Catalog(&shown),
    };
    let Decided {
        bundle: decided,
        decision,
        notes,
    } = decide(rendered.clone(), &step.channels, published, step.older)?;
    for n in &notes {
        report.note(n);
    }
    // Nothing is carried: the new CSV (with the edges decided) and its own CRDs and package.
    if let Some(csv) = decided.csvs.into_iter().next() {
        rendered.csvs[0] = csv;
    }
    if !matches!(decision, Decision::SkipOlder { .. }) {
        for note in first_package(&mut rendered.package, &step.channels, &name) {
            report.note(&note);
        }
    }
    let replaces = rendered.csvs[0].replaces().unwrap_or("nothing").to_string();
    let (text, summary) = match &decision {
        Decision::Replaces { head, .. } => (
            format!(
                "{name} replaces {head}, head of {channel} in the catalog {shown}; spec.replaces is what the catalog entry will replace"
            ),
            Some(format!(
                "{name} replaces {head}, the previous head of channel {channel}.\n"
            )),
        ),
        Decision::SameVersion { .. } => (
            format!(
                "{name} is already the head of {channel} in the catalog {shown}: re-publishing the same version (replaces {replaces}, as its catalog entry; the bundle image and catalog stages compare digests)"
            ),
            None,
        ),
        Decision::SkipOlder { head } => (
            format!(
                "{name} is older than {head}, the head of {channel} in the catalog {shown}; policy 'skip': nothing to publish"
            ),
            None,
        ),
        Decision::AddChannels { channels, .. } => (
            format!(
                "{name} is already in the catalog {shown} and joins channel{} {} (replaces {replaces}, as its catalog entry)",
                if channels.len() == 1 { "" } else { "s" },
                channels.join(", ")
            ),
            None,
        ),
        Decision::First { reason } => (
            format!("first release on channel {channel}: {name} has no replaces ({reason})"),
            Some(first_notes(pkg, &step.channels, &rendered)),
        ),
    };
    report.decided(&decision, &text);
    Ok(Assembled {
        files,
        bundle: rendered,
        objects,
        decision,
        basis: Basis { summary, ..basis },
    })
}

/// The head of each channel of the release that the catalog has, in the release's order; empty
/// when the folder is missing or has none of them. A catalog that cannot be read or breaks
/// `opm validate`'s rules is an error naming the file.
fn heads(step: &FetchStep, snap: &Snapshot) -> Result<Vec<Found>> {
    let loaded = disk::read_package(&snap.dir, &step.package)?;
    let findings = fbc::validate(&loaded.catalog);
    let errors: Vec<_> = findings
        .iter()
        .filter(|f| f.level == Level::Error)
        .collect();
    if let Some(first) = errors.first() {
        return Err(FetchError::CatalogInvalid {
            dir: snap.shown.clone(),
            errors: errors.len(),
            first: first.to_string(),
        }
        .into());
    }
    let mut found = Vec::new();
    for channel in &step.channels {
        let Some(head) = fbc::head(&loaded.catalog, &step.package, channel)? else {
            continue;
        };
        let skips = loaded
            .catalog
            .channel(&step.package, channel)
            .and_then(|c| c.entry(&head.name))
            .map(|e| e.skips.clone())
            .unwrap_or_default();
        found.push(Found {
            channel: channel.clone(),
            head,
            skips,
        });
    }
    Ok(found)
}

/// The "previous bundle" the decision reads: a package file with each channel's head, and a
/// CSV per head with its version and edges. When the new CSV is itself a head (a rerun), its
/// CSV is the rendered one with the edges of its catalog entry, which is what the first run put
/// in the image (`catalog.skips` are in both: render adds them to the CSV's `spec.skips`).
fn skeleton(pkg: &str, rendered: &Bundle, found: &[Found]) -> Bundle {
    let new = &rendered.csvs[0];
    let mut csvs: Vec<Manifest> = Vec::new();
    for f in found {
        if csvs.iter().any(|c| c.name() == Some(f.head.name.as_str())) {
            continue;
        }
        let skips = f.skips.clone();
        let mut csv = if new.name() == Some(f.head.name.as_str()) {
            new.clone()
        } else {
            let mut doc = serde_yaml_ng::Mapping::new();
            doc.insert("kind".into(), "ClusterServiceVersion".into());
            let mut meta = serde_yaml_ng::Mapping::new();
            meta.insert("name".into(), f.head.name.clone().into());
            doc.insert("metadata".into(), meta.into());
            let mut spec = serde_yaml_ng::Mapping::new();
            if let Some(v) = &f.head.version {
                spec.insert("version".into(), v.to_string().into());
            }
            doc.insert("spec".into(), spec.into());
            Manifest::new(format!("{}.csv.yaml", f.head.name), doc.into())
        };
        csv.set_replaces(f.head.replaces.as_deref());
        set_skips(&mut csv, &skips);
        csvs.push(csv);
    }
    Bundle {
        package: PackageManifest {
            package_name: pkg.to_string(),
            channels: found
                .iter()
                .map(|f| Channel {
                    name: f.channel.clone(),
                    current_csv: f.head.name.clone(),
                })
                .collect(),
            default_channel: None,
        },
        csvs,
        crds: Vec::new(),
    }
}
