//! The catalog step: the pushed bundle image joins the target's file-based catalog by digest
//! ([`fbc::add`]: an entry in every channel of the release, each `replacing` its channel's
//! head, one in a channel it creates replacing nothing; `defaultChannel` kept right), the whole
//! catalog is validated with the rules of `opm validate`, and only the files that change are
//! published to the target ([`Snapshot::publish`]), through the gate. A rerun renders
//! byte-identical files, so nothing is written; a dry-run prints the diff (for git, the
//! commit's, with the repository's paths).
//!
//! The snapshot is the one fetch-previous (or the agreement check) read, so the write is a
//! swap against what the decision was taken on: when another job moved the target meanwhile,
//! the step says so ([`Outcome::Moved`]) and the executor decides again.

use super::catalog_target::{Published, Snapshot};
use super::errors::CatalogInvalid;
use super::outputs::Imaged;
use crate::error::Result;
use crate::plan::CatalogStep;
use crate::report::Reporter;
use olm_release_http::events::{Gate, Write};
use olm_release_olm::Level;
use olm_release_olm::fbc::{self, AddBundle, FileChange, disk};

/// How the catalog step ended.
#[derive(Debug)]
pub(crate) enum Outcome {
    /// The catalog holds the entry (written now, already there, or skipped by a dry-run).
    Done,
    /// Another job changed the target since it was read: nothing of this run landed.
    Moved { reason: String },
}

/// The catalog step, on the target's catalog read into `snap`.
pub(crate) async fn run(
    step: &CatalogStep,
    report: &Reporter,
    gate: &dyn Gate,
    image: &Imaged,
    snap: &Snapshot,
) -> Result<Outcome> {
    let loaded = disk::read(&snap.dir)?;
    let mut catalog = loaded.catalog;
    let mut req = AddBundle::from_csv(
        &step.package,
        &image.csv,
        &image.crds,
        &image.pinned,
        &step.channels,
    );
    for s in &step.skips {
        if !req.skips.contains(s) {
            req.skips.push(s.clone());
        }
    }
    if step.skip_range.is_some() {
        req.skip_range = step.skip_range.clone();
    }
    req.force = step.force;
    let outcome = fbc::add(&mut catalog, &req)?;
    for line in outcome.lines() {
        report.detail(&line);
    }
    let what = format!("catalog entry {} ({})", req.name, image.pinned);
    let changes = changes(&snap.dir, &snap.shown, &loaded.files, &catalog, report)?;
    if changes.is_empty() {
        gate.kept(Write {
            what,
            target: snap.target(),
            digest: None,
        });
        return Ok(Outcome::Done);
    }
    let write = Write {
        what,
        target: format!(
            "{} ({} changed)",
            snap.target(),
            olm_release_base::words::count(changes.len(), "file")
        ),
        digest: None,
    };
    report.block(&snap.diff(&changes), step.show_diff);
    let message = commit_message(step, &req);
    match snap
        .publish(&step.target, &changes, &message, write, gate)
        .await?
    {
        Published::Written(line) => {
            report.info(&line);
            Ok(Outcome::Done)
        }
        Published::Skipped => Ok(Outcome::Done),
        Published::Moved { reason } => Ok(Outcome::Moved { reason }),
    }
}

/// The commit message of a catalog change: package, version and bundle image by digest.
fn commit_message(step: &CatalogStep, req: &AddBundle) -> String {
    format!(
        "{} {}: add {} to the catalog\n\nPackage {}, version {}, channel{} {}.\nBundle image {}.\n",
        step.package,
        req.version,
        req.name,
        step.package,
        req.version,
        if step.channels.len() == 1 { "" } else { "s" },
        step.channels.join(", "),
        req.image
    )
}

/// Validates `catalog` as a whole, then the file changes that make the folder `dir` (shown as
/// `shown`; `read_files`: the catalog files read before) hold it.
fn changes(
    dir: &std::path::Path,
    shown: &str,
    read_files: &[String],
    catalog: &fbc::Catalog,
    report: &Reporter,
) -> Result<Vec<FileChange>> {
    let findings = fbc::validate(catalog);
    report.findings(&findings);
    let errors: Vec<_> = findings
        .iter()
        .filter(|f| f.level == Level::Error)
        .collect();
    if let Some(first) = errors.first() {
        return Err(CatalogInvalid {
            dir: shown.to_string(),
            errors: errors.len(),
            first: first.to_string(),
        }
        .into());
    }
    let rendered = fbc::write::render(catalog)?;
    Ok(disk::plan(dir, read_files, &rendered)?)
}

/// Validates `catalog` as a whole, then writes the files that change under the folder `dir`
/// through the gate (`read_files`: the catalog files read before); the diff is shown when
/// `show_diff` (else with `-v`). `migrate` writes its catalog folder this way.
pub(super) fn write(
    dir: &std::path::Path,
    read_files: &[String],
    catalog: &fbc::Catalog,
    what: String,
    show_diff: bool,
    report: &Reporter,
    gate: &dyn Gate,
) -> Result<()> {
    let changes = changes(dir, &dir.display().to_string(), read_files, catalog, report)?;
    if changes.is_empty() {
        gate.kept(Write {
            what,
            target: dir.display().to_string(),
            digest: None,
        });
        return Ok(());
    }
    let write = Write {
        what,
        target: format!(
            "{} ({} changed)",
            dir.display(),
            olm_release_base::words::count(changes.len(), "file")
        ),
        digest: None,
    };
    report.block(&disk::diff(&changes), show_diff);
    if gate.allow(&write) {
        disk::apply(dir, &changes)?;
        gate.done(write);
    }
    Ok(())
}
