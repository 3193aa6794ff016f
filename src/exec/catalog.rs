//! The catalog step and the catalog store it writes: the pushed bundle image joins the
//! target's file-based catalog by digest ([`fbc::apply`]: the entry added in every channel of
//! the release, or the release added to `catalog.template` and the template rendered into the
//! package's part of the catalog; `catalog.deprecate` either way). The catalog is validated
//! with the rules of `opm validate`, and only the files that change are published to the store
//! ([`Store::publish`](super::catalog_target::Store::publish)), then the template written, each through the gate. A rerun renders
//! byte-identical files, so nothing is written; a dry-run prints the diffs (for git, the
//! commit's, with the repository's paths).
//!
//! The store is opened once per decision ([`open`]): by fetch-previous, which decides on it or
//! checks right after the app registry's decision that both name the same channel head
//! ([`fbc::agree`]), and the executor hands the snapshot to this step, so the write is a swap
//! against what the decision was taken on. When another job moved the target meanwhile, the
//! step says so ([`Outcome::Moved`]), with what the domain makes of the move
//! ([`swap::after_move`]: other packages only, or this release's own), and the executor applies
//! the change again or decides again (the template is written only once the catalog holds the
//! entry); a store read again for a decision the app registry took is checked against it
//! again.

use std::path::Path;

use super::catalog_target::{Change, Published, Snapshot, dir, git, image, pull};
use super::context::Exec;
use super::outputs::{Imaged, Verified};
use crate::error::Result;
use crate::error::step::{CatalogInvalid, HeadsDiffer};
use crate::plan::CatalogStep;
use crate::report::Reporter;
use crate::settings::CatalogTarget;
use olm_release_http::events::{Gate, Write};
use olm_release_olm::decision::Decision;
use olm_release_olm::fbc::swap::{self, Retry};
use olm_release_olm::fbc::{
    self, AddBundle, Agreement, BundleSource, FileChange, Kept, disk, template,
};
use olm_release_olm::{Level, Manifest};

/// How the catalog step ended.
pub(crate) enum Outcome {
    /// The catalog holds the entry (written now, already there, or skipped by a dry-run).
    Done,
    /// Another job changed the target since it was read: nothing of this run landed. `retry`:
    /// whether the same change can be applied again on the new head (only other packages
    /// moved) or the release must be decided again ([`swap::after_move`]).
    Moved {
        reason: String,
        retry: Retry,
        /// The snapshot moved onto the target's new head ([`Store::advance`](super::catalog_target::Store::advance)),
        /// to apply the change to again; `None`: read the target again.
        snap: Option<Snapshot>,
    },
}

/// The app registry's decision a catalog's channel head must agree with.
pub(crate) struct Registry<'a> {
    /// The app registry, for messages (`LOCATION NAMESPACE/PACKAGE`).
    pub(crate) at: String,
    pub(crate) package: &'a str,
    pub(crate) channel: &'a str,
    /// The new CSV.
    pub(crate) ours: &'a Manifest,
    pub(crate) decision: &'a Decision,
}

/// Opens the catalog store `job` names (the one match on the kind of store) and reads its
/// catalog; a dry-run takes no lock and makes no scratch writes outside the output folder. With
/// `registry`, checks that the catalog names the same channel head as the app registry's
/// decision, before anything is written.
pub(crate) async fn open(
    exec: &Exec<'_>,
    job: &CatalogTarget,
    registry: Option<Registry<'_>>,
) -> Result<Snapshot> {
    let (writes, report) = (exec.gate.writes(), exec.report);
    let snap = match job {
        CatalogTarget::Dir { dir } => dir::open(dir, writes, report)?,
        CatalogTarget::Git(g) => match &g.pull_request {
            Some(p) => pull::open(g, p, exec.events()).await?,
            None => git::open(g, report)?,
        },
        CatalogTarget::Image(i) => image::open(i, report).await?,
    };
    if let Some(r) = registry {
        agree(&snap, &r, report)?;
    }
    Ok(snap)
}

/// The catalog step, on `snap`, the snapshot the executor hands on (`None`: read it now).
pub(crate) async fn run(
    exec: &Exec<'_>,
    step: &CatalogStep,
    v: &Verified,
    image: &Imaged,
    snap: Option<Snapshot>,
) -> Result<Outcome> {
    let mut snap = match snap {
        Some(snap) => snap,
        None => {
            let at = step.agrees_with.as_ref();
            let registry = at.zip(v.decision.as_ref()).map(|(at, decision)| Registry {
                at: at.clone(),
                package: &step.package,
                channel: &step.channel,
                ours: &image.csv,
                decision,
            });
            open(exec, &step.target, registry).await?
        }
    };
    match add(step, exec.report, &exec.gate, image, &snap).await? {
        Outcome::Moved {
            reason,
            retry: Retry::Reapply,
            snap: None,
        } => {
            // A checkout that cannot be moved is read again instead: as safe, only slower.
            let kept = snap.store.advance().unwrap_or(false).then_some(snap);
            Ok(Outcome::Moved {
                reason,
                retry: Retry::Reapply,
                snap: kept,
            })
        }
        outcome => Ok(outcome),
    }
}

/// The release added to the catalog read into `snap`, and published to its store.
async fn add(
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
            // The pipeline's choice, else the style of the package's existing entries.
            style: step
                .style
                .or_else(|| fbc::entry::style_of(&catalog, &step.package))
                .unwrap_or_default(),
        },
        channels: &step.channels,
        skips: &step.skips,
        skip_range: step.skip_range.as_deref(),
        deprecate: &step.deprecate,
        force: step.force,
        default_channel: step.default_channel.as_deref(),
    };
    let applied = fbc::apply(&mut catalog, &release, kept)?;
    let req = &applied.request;
    let what = format!("catalog entry {} ({})", req.name, image.pinned);
    for note in &applied.notes {
        report.note(note);
    }
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
            target: snap.store.target(),
            digest: None,
        });
        template(report)?;
        return Ok(Outcome::Done);
    }
    let write = Write {
        what,
        target: format!(
            "{} ({} changed)",
            snap.store.target(),
            olm_release_base::words::count(changes.len(), "file")
        ),
        digest: None,
    };
    report.block(&snap.store.diff(&changes), step.show_diff);
    let message = commit_message(step, req);
    let change = Change {
        files: &changes,
        message: &message,
        release: req,
    };
    match snap.store.publish(&change, write, gate).await? {
        Published::Written(line) => {
            report.info(&line);
            template(report)?;
            Ok(Outcome::Done)
        }
        Published::Skipped => {
            template(report)?;
            Ok(Outcome::Done)
        }
        Published::Moved { reason, moved } => {
            // Ours: the files the release writes, and those its package was read from.
            let mut files: Vec<String> = changes.iter().map(|c| c.path.clone()).collect();
            if let Some((_, holding)) = &loaded.package {
                files.extend(
                    holding
                        .iter()
                        .filter(|(_, h)| h.package)
                        .map(|(f, _)| f.clone()),
                );
            }
            let ours = swap::Ours {
                package: &step.package,
                files: &files,
            };
            let retry = swap::after_move(&moved, &ours);
            Ok(Outcome::Moved {
                reason,
                retry,
                snap: None,
            })
        }
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
pub(super) fn changes(
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

/// Checks that the catalog read into `snap` names the same head of the channel as the app
/// registry's decision ([`fbc::agree`]); a release one side has one step ahead is completed by
/// this run, and heads that differ stop it, saying how.
fn agree(snap: &Snapshot, r: &Registry, report: &Reporter) -> Result<()> {
    let loaded = disk::read_package(&snap.dir, r.package)?;
    let ours = r.ours.name().unwrap_or_default().to_string();
    let shown = |h: &Option<String>| {
        h.clone()
            .unwrap_or_else(|| "no head (nothing published)".into())
    };
    let channel = r.channel;
    let (registry_head, catalog_head) = match fbc::agree(
        &loaded.catalog,
        r.package,
        channel,
        r.ours,
        r.decision,
    )? {
        Agreement::Same { head } => {
            report.detail(&format!(
                "the app registry and the catalog {} agree on the head of channel {channel}: {}",
                snap.shown,
                shown(&head)
            ));
            return Ok(());
        }
        Agreement::Adds { catalog_head } => {
            report.detail(&format!(
                    "this release adds {ours} to channel {channel} of the app registry; the catalog {} has {}",
                    snap.shown,
                    shown(&catalog_head)
                ));
            return Ok(());
        }
        Agreement::Ahead { registry } => {
            let (ahead, behind) = match registry {
                true => ("the app registry", "catalog"),
                false => ("the catalog", "app registry"),
            };
            report.note(&format!(
                    "{ahead} already has {ours} at the head of channel {channel}; this run adds it to the {behind} as well"
                ));
            return Ok(());
        }
        Agreement::Differ {
            adds_channel: true,
            catalog_head,
            ..
        } => (
            format!("{ours} (this release adds it to the channel)"),
            catalog_head,
        ),
        Agreement::Differ {
            registry_head,
            catalog_head,
            ..
        } => (shown(&registry_head), catalog_head),
    };
    Err(HeadsDiffer {
        channel: channel.to_string(),
        registry: r.at.clone(),
        registry_head,
        catalog: snap.shown.clone(),
        catalog_head: shown(&catalog_head),
        csv: ours,
    }
    .into())
}
