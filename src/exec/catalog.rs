//! The catalog step: the pushed bundle image joins the pipeline's file-based catalog folder
//! by digest. Without a template, [`fbc::add`] adds its entry (an entry in every channel of the
//! release, each `replacing` its channel's head, one in a channel it creates replacing nothing;
//! `defaultChannel` kept right); with `catalog.template`, the release is added to the template
//! and the template is rendered into the package's part of the catalog
//! ([`fbc::template`]). `catalog.deprecate` records deprecations either way. The catalog is
//! validated with the rules of `opm validate` before anything is written; then the files of
//! the catalog that change, and the template, are written, each through the gate. A rerun renders
//! byte-identical files, so nothing is written; a dry-run prints the diffs.

use std::path::Path;

use super::errors::CatalogInvalid;
use super::outputs::Imaged;
use crate::error::Result;
use crate::plan::CatalogStep;
use crate::report::Reporter;
use olm_release_http::events::{Gate, Write};
use olm_release_olm::Level;
use olm_release_olm::fbc::{self, AddBundle, BundleSource, disk, template};

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
    let what = format!("catalog entry {} ({})", req.name, image.pinned);
    let (lines, template_text) = match &step.template {
        None => {
            let mut lines = fbc::add(&mut catalog, &req)?.lines();
            lines.extend(fbc::deprecate(
                &mut catalog,
                &step.package,
                &step.deprecate,
            )?);
            (lines, None)
        }
        Some(path) => {
            let release = template::Release::new(&req, &step.deprecate, &image.csv);
            let r = template::release_file(path, &mut catalog, &release)?;
            (r.lines, r.text.map(|t| (path, t)))
        }
    };
    for line in lines {
        report.detail(&line);
    }
    write(
        &step.dir,
        &loaded,
        &catalog,
        what,
        step.show_diff,
        report,
        gate,
    )?;
    match template_text {
        Some((path, text)) => write_template(path, &text, &req.name, step.show_diff, report, gate),
        None => Ok(()),
    }
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
    report.block(&disk::diff(&changes), show_diff);
    if gate.allow(&write) {
        disk::apply(dir, &changes)?;
        gate.done(write);
    }
    Ok(())
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
