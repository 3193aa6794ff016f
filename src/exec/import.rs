//! The import step: a package folder of OperatorHub's community layout read
//! ([`community::read`]: every problem at once), every version's bundle built as the
//! bundle-image step builds one and pushed by its rule (tag = the version; an image the target
//! already holds is not pushed again), then the package's catalog built in memory in one pass
//! ([`community::follow_template`]), validated once with the rules of `opm validate` and
//! published once to the catalog target's store (one folder write, commit or image), through the
//! gate. Nothing is read or validated again per version, so the import is linear in the number
//! of versions; a rerun pushes nothing and writes nothing.

use std::collections::BTreeMap;

use super::bundle_image::publish;
use super::catalog::{changes, open};
use super::catalog_target::{Change, Published};
use super::context::Exec;
use crate::error::Result;
use crate::error::step::ImportError;
use crate::plan::ImportStep;
use olm_release_http::events::{Gate, Write};
use olm_release_oci::{PushRequest, tag_for_version};
use olm_release_olm::bundle_image::{BundleFolder, build_image};
use olm_release_olm::community;
use olm_release_olm::fbc::disk;

/// The import step.
pub(crate) async fn run(exec: &Exec<'_>, step: &ImportStep) -> Result<()> {
    let (report, gate) = (exec.report, &exec.gate);
    let files =
        community::read_folder(&step.dir, step.limits.max_bytes).map_err(ImportError::Read)?;
    let pkg = community::read(&files, &step.limits).map_err(|errors| ImportError::Layout {
        dir: step.dir.clone(),
        errors,
    })?;
    drop(files);
    report.info(&format!(
        "read {} of {} from {}{}",
        olm_release_base::words::count(pkg.versions.len(), "version"),
        pkg.package,
        step.dir.display(),
        pkg.template()
            .map(|t| format!("; the catalog follows {}", t.path()))
            .unwrap_or_default()
    ));
    // Every bundle built before anything is pushed: one that cannot be built stops the import
    // with all of them named.
    let mut built = Vec::new();
    let mut problems = Vec::new();
    for v in &pkg.versions {
        match BundleFolder::build(&v.input(&pkg.package))
            .and_then(|folder| build_image(&folder, step.epoch))
        {
            Ok(image) => built.push((v, image)),
            Err(e) => problems.push(format!("{}: {e}", v.folder)),
        }
    }
    if !problems.is_empty() {
        return Err(ImportError::Bundles {
            dir: step.dir.clone(),
            problems,
        }
        .into());
    }
    let store = exec.image(&step.image)?;
    let mut images = BTreeMap::new();
    for (v, image) in &built {
        let tag = tag_for_version(&v.version.to_string());
        let req = PushRequest {
            image,
            tag: &tag,
            force: step.force,
        };
        let pinned = publish(store, &req, &step.name, report, gate).await?;
        images.insert(v.name().to_string(), pinned);
    }
    drop(built);
    let snap = open(exec, &step.target, None).await?;
    let mut loaded = disk::read_package(&snap.dir, &pkg.package)?;
    let mut catalog = std::mem::take(&mut loaded.catalog);
    let followed = community::follow_template(&mut catalog, &pkg, &images, step.style)?;
    for line in &followed.lines {
        report.detail(line);
    }
    if !followed.left_out.is_empty() {
        report.note(&format!(
            "the catalog template lists {}, which no version folder holds; left out",
            olm_release_base::words::some(&followed.left_out, 8)
        ));
    }
    if !followed.unlisted.is_empty() {
        report.note(&format!(
            "no channel of the catalog template lists {} ({} of {}); left out of the catalog (a catalog lists only bundles in a channel)",
            olm_release_base::words::some(&followed.unlisted, 8),
            followed.unlisted.len(),
            pkg.versions.len()
        ));
    }
    let listed = catalog.bundles.iter().filter(|b| b.package == pkg.package);
    let what = format!(
        "catalog of {} ({})",
        pkg.package,
        olm_release_base::words::count(listed.count(), "bundle")
    );
    let changes = changes(&snap.dir, &snap.shown, &loaded, &catalog, report)?;
    let Some(last) = followed.last.as_ref().filter(|_| !changes.is_empty()) else {
        gate.kept(Write {
            what,
            target: snap.store.target(),
            digest: None,
        });
        return Ok(());
    };
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
    let message = format!(
        "{}: import {} from the community layout\n\nEvery version of {}, its bundle image by digest ({}).\n",
        pkg.package,
        olm_release_base::words::count(images.len(), "version"),
        step.dir.display(),
        step.name
    );
    let change = Change {
        files: &changes,
        message: &message,
        release: last,
    };
    match snap.store.publish(&change, write, gate).await? {
        Published::Written(line) => report.info(&line),
        Published::Skipped => {}
        Published::Moved { reason, .. } => {
            return Err(ImportError::Moved {
                target: step.target.describe(),
                reason,
            }
            .into());
        }
    }
    Ok(())
}
