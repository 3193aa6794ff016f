//! The catalog step: the pushed bundle image joins the pipeline's file-based catalog folder
//! by digest ([`fbc::add`]: an entry in every channel of the release, each `replacing` its
//! channel's head, one in a channel it creates replacing nothing; `defaultChannel` kept right), the whole catalog is validated with the rules of `opm validate`, and only the
//! files that change are written, through the gate. A rerun renders byte-identical files, so
//! nothing is written; a dry-run prints the catalog diff.

use super::errors::CatalogInvalid;
use super::outputs::Imaged;
use crate::error::Result;
use crate::plan::CatalogStep;
use crate::report::Reporter;
use olm_release_http::events::{Gate, Write};
use olm_release_olm::Level;
use olm_release_olm::fbc::{self, AddBundle, BundleSource, disk};

/// The catalog step.
pub(crate) fn run(
    step: &CatalogStep,
    report: &Reporter,
    gate: &dyn Gate,
    image: &Imaged,
) -> Result<()> {
    let mut loaded = disk::read_package(&step.dir, &step.package)?;
    let mut catalog = std::mem::take(&mut loaded.catalog);
    let (dependencies, properties) = fbc::entry::metadata_properties(&image.metadata)?;
    let source = BundleSource {
        package: &step.package,
        image: &image.pinned,
        csv: &image.csv,
        objects: &image.objects,
        dependencies: &dependencies,
        properties: &properties,
        style: step.style,
    };
    let mut req = AddBundle::from_source(&source, &step.channels)?;
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
    write(
        &step.dir,
        &loaded,
        &catalog,
        what,
        step.show_diff,
        report,
        gate,
    )
}

/// Validates `catalog` (what `loaded` read, changed), then writes the files that change under
/// `dir` through the gate ([`fbc::rewrite::plan`]: for a catalog read for one package, that
/// package's part only); the diff is shown when `show_diff` (else with `-v`).
pub(super) fn write(
    dir: &std::path::Path,
    loaded: &fbc::Loaded,
    catalog: &fbc::Catalog,
    what: String,
    show_diff: bool,
    report: &Reporter,
    gate: &dyn Gate,
) -> Result<()> {
    let findings = fbc::validate(catalog);
    report.findings(&findings);
    let errors: Vec<_> = findings
        .iter()
        .filter(|f| f.level == Level::Error)
        .collect();
    if let Some(first) = errors.first() {
        return Err(CatalogInvalid {
            dir: dir.display().to_string(),
            errors: errors.len(),
            first: first.to_string(),
        }
        .into());
    }
    let changes = fbc::rewrite::plan(dir, loaded, catalog)?;
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
        target: format!("{} ({} file(s) changed)", dir.display(), changes.len()),
        digest: None,
    };
    report.block(&disk::diff(&changes), show_diff);
    if gate.allow(&write) {
        disk::apply(dir, &changes)?;
        gate.done(write);
    }
    Ok(())
}
