//! The catalog step: the pushed bundle image joins the target's file-based catalog by digest.
//! Without a template, [`fbc::add`] adds its entry (an entry in every channel of the release,
//! each `replacing` its channel's head, one in a channel it creates replacing nothing;
//! `defaultChannel` kept right); with `catalog.template`, the release is added to the template
//! and the template is rendered into the package's part of the catalog ([`fbc::template`]).
//! `catalog.deprecate` records deprecations either way. The catalog is validated with the rules
//! of `opm validate`, and only the files that change are published to the target
//! ([`Snapshot::publish`]), then the template written, each through the gate. A rerun renders
//! byte-identical files, so nothing is written; a dry-run prints the diffs (for git, the
//! commit's, with the repository's paths).
//!
//! The snapshot is the one fetch-previous (or the agreement check) read, so the write is a
//! swap against what the decision was taken on: when another job moved the target meanwhile,
//! the step says so ([`Outcome::Moved`]) and the executor decides again (the template is
//! written only once the catalog holds the entry).

use std::path::Path;

use super::catalog_target::{Published, Snapshot};
use super::errors::CatalogInvalid;
use super::outputs::Imaged;
use crate::error::Result;
use crate::plan::CatalogStep;
use crate::report::Reporter;
use olm_release_http::events::{Gate, Write};
use olm_release_olm::Level;
use olm_release_olm::fbc::{self, AddBundle, BundleSource, FileChange, Kept, disk, template};

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
    let mut loaded = disk::read_package(&snap.dir, &step.package)?;
    let mut catalog = std::mem::take(&mut loaded.catalog);
    let (dependencies, properties) = fbc::entry::metadata_properties(&image.metadata)?;
    let template_text = step.template.as_deref().map(template::read).transpose()?;
    let shown_template = step.template.as_ref().map(|p| p.display().to_string());
    let kept = match (&shown_template, &template_text) {
        (Some(file), Some(text)) => Kept::Template { file, text },
        _ => Kept::Plain,
    };
    let release = fbc::Release {
        source: BundleSource {
            package: &step.package,
            image: &image.pinned,
            csv: &image.csv,
            objects: &image.objects,
            dependencies: &dependencies,
            properties: &properties,
            style: step.style,
        },
        channels: &step.channels,
        skips: &step.skips,
        skip_range: step.skip_range.as_deref(),
        deprecate: &step.deprecate,
        force: step.force,
    };
    let applied = fbc::apply(&mut catalog, &release, kept)?;
    let req = &applied.request;
    let what = format!("catalog entry {} ({})", req.name, image.pinned);
    for line in &applied.lines {
        report.detail(line);
    }
    let template_text = step.template.as_ref().zip(applied.template.as_ref());
    let template = |report: &Reporter| match &template_text {
        Some((path, text)) => write_template(path, text, &req.name, step.show_diff, report, gate),
        None => Ok(()),
    };
    let changes = changes(&snap.dir, &snap.shown, &loaded, &catalog, report)?;
    if changes.is_empty() {
        gate.kept(Write {
            what,
            target: snap.target(),
            digest: None,
        });
        template(report)?;
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
    let message = commit_message(step, req);
    match snap
        .publish(&step.target, &changes, &message, write, gate)
        .await?
    {
        Published::Written(line) => {
            report.info(&line);
            template(report)?;
            Ok(Outcome::Done)
        }
        Published::Skipped => {
            template(report)?;
            Ok(Outcome::Done)
        }
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

/// Writes the template through the gate (a dry-run shows its diff).
fn write_template(
    path: &Path,
    text: &str,
    bundle: &str,
    show_diff: bool,
    report: &Reporter,
    gate: &dyn Gate,
) -> Result<()> {
    let (dir, name) = (
        path.parent().unwrap_or(Path::new(".")),
        path.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
    );
    let rendered = std::collections::BTreeMap::from([(name, text.to_string())]);
    let changes = disk::plan(dir, &[], &rendered)?;
    let write = Write {
        what: format!("catalog template entry {bundle}"),
        target: path.display().to_string(),
        digest: None,
    };
    apply(dir, &changes, write, show_diff, report, gate)
}

/// Shows the diff of `changes` (always when `show_diff`, else with `-v`) and applies them under
/// `dir` if the gate allows `write` (the catalog step's folder and template writes).
fn apply(
    dir: &Path,
    changes: &[FileChange],
    write: Write,
    show_diff: bool,
    report: &Reporter,
    gate: &dyn Gate,
) -> Result<()> {
    report.block(&disk::diff(changes), show_diff);
    if gate.allow(&write) {
        disk::apply(dir, changes)?;
        gate.done(write);
    }
    Ok(())
}

/// Validates `catalog` as a whole, then the file changes that make the folder `dir` (shown as
/// `shown`) hold it ([`fbc::rewrite::plan`]: for a catalog `loaded` for one package, that
/// package's part only).
fn changes(
    dir: &Path,
    shown: &str,
    loaded: &fbc::Loaded,
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
    Ok(fbc::rewrite::plan(dir, loaded, catalog)?)
}

/// Validates `catalog` (what `loaded` read, changed), then writes the files that change under
/// the folder `dir` through the gate; the diff is shown when `show_diff` (else with `-v`).
/// `migrate` writes its catalog folder this way.
pub(super) fn write(
    dir: &Path,
    loaded: &fbc::Loaded,
    catalog: &fbc::Catalog,
    what: String,
    show_diff: bool,
    report: &Reporter,
    gate: &dyn Gate,
) -> Result<()> {
    let changes = changes(dir, &dir.display().to_string(), loaded, catalog, report)?;
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
    apply(dir, &changes, write, show_diff, report, gate)
}
