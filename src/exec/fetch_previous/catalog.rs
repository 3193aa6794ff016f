//! fetch-previous from a file-based catalog: for a pipeline that publishes only the modern way
//! (bundle image → catalog, no `registry:` section), the published heads are the catalog
//! folder's. This reads the folder and validates it (`opm validate`'s rules), asks the domain
//! for the heads of the release's channels (`olm::fbc::channel_heads`) and for the decision
//! against them (`olm::decision::decide_from_catalog`, which keeps only the new CSV: nothing is
//! carried), and reports it.

use crate::error::Result;
use crate::error::step::FetchError;
use crate::exec::catalog_target::Snapshot;
use crate::exec::outputs::{Assembled, Basis, Rendered};
use crate::plan::FetchStep;
use crate::report::Reporter;
use olm_release_olm::Level;
use olm_release_olm::decision::explain::{self, CatalogShown};
use olm_release_olm::decision::{CatalogRead, Decided, Decision, decide_from_catalog};
use olm_release_olm::fbc::{self, ChannelHead, disk};

/// The fetch-previous step, reading the catalog.
pub(crate) fn run(
    step: &FetchStep,
    snap: &Snapshot,
    report: &Reporter,
    rendered: Rendered,
) -> Result<Assembled> {
    let (files, contents) = rendered.split();
    let (rendered, objects) = (contents.bundle, contents.objects);
    let basis = Basis {
        rendered: rendered.clone(),
        seen: Vec::new(),
        carried: Vec::new(),
        summary: None,
    };
    let shown = snap.shown.clone();
    let heads = heads(step, snap)?;
    let (pkg, channel) = (&step.package, &step.channel);
    if let Some(line) = explain::catalog_heads(&shown, &heads) {
        report.info(&line);
    }
    let read = CatalogRead {
        shown: &shown,
        fresh: snap.fresh,
        package: pkg,
        heads: &heads,
    };
    let Decided {
        bundle: rendered,
        decision,
        notes,
    } = decide_from_catalog(rendered, &step.channels, read, step.older)?;
    for n in &notes {
        report.note(n);
    }
    if let Decision::Replaces { head, .. } = &decision
        && let Some(w) = olm_release_olm::decision::stale_for_replaced(&rendered.csvs[0], head)
    {
        report.warn(&w);
    }
    let at = CatalogShown {
        shown: &shown,
        package: pkg,
        channel,
        channels: &step.channels,
        has_heads: !heads.is_empty(),
    };
    let (text, summary) = explain::from_catalog(&decision, &rendered, &at);
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
pub(crate) fn heads(step: &FetchStep, snap: &Snapshot) -> Result<Vec<ChannelHead>> {
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
    Ok(fbc::channel_heads(
        &loaded.catalog,
        &step.package,
        &step.channels,
    )?)
}
