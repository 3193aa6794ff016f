//! The package stage: the bundle folder and the reproducible tarball, with both digests.
//!
//! Writes `<out>/bundle/` (the flat folder that `operator-courier verify` and people read: the
//! package file, every CSV, each CRD once) and `<out>/<package>-<version>.tar.gz` in the layout
//! the pipeline chose. Both are rebuilt from scratch on every run.

use std::fs;
use std::path::Path;

use super::{Ctx, Packaged};
use crate::error::{Class, Error, Result};
use crate::olm::archive::{self, Layout};
use crate::olm::{Bundle, crd_file_name, csv_file_name};

pub async fn run(ctx: &mut Ctx<'_>) -> Result<()> {
    let bundle = ctx
        .state
        .bundle
        .clone()
        .ok_or_else(|| Error::stage("internal: no bundle to package"))?;
    let s = ctx.settings;
    let dir = ctx.out().join("bundle");
    write_folder(&bundle, &dir)?;
    let files = archive::bundle_files(&bundle, s.registry.layout).map_err(Error::stage)?;
    let packed = archive::pack(&files, s.source_date_epoch.unwrap_or(0)).map_err(Error::stage)?;
    let tarball = ctx
        .out()
        .join(format!("{}-{}.tar.gz", s.pipeline.package, s.version));
    fs::write(&tarball, &packed.gz).map_err(|e| Error::io(Class::Stage, &tarball, e))?;
    ctx.report.info(&format!(
        "bundle {} ({} CSVs, {} CRDs, {} layout): {} bytes",
        tarball.display(),
        bundle.csvs.len(),
        bundle.crds.len(),
        match s.registry.layout {
            Layout::Flat => "flat",
            Layout::Nested => "nested",
        },
        packed.gz.len()
    ));
    ctx.report.info(&format!(
        "digest sha256:{} (tar), sha256:{} (.tar.gz)",
        packed.digest, packed.gz_digest
    ));
    let mut contents = format!("bundle contents ({}):", bundle.package.file_name());
    for ch in &bundle.package.channels {
        contents.push_str(&format!("\n  channel {} → {}", ch.name, ch.current_csv));
    }
    for csv in &bundle.csvs {
        let replaces = csv
            .replaces()
            .map(|r| format!(" (replaces {r})"))
            .unwrap_or_default();
        contents.push_str(&format!("\n  CSV {}{replaces}", csv.name().unwrap_or("?")));
    }
    for crd in &bundle.crds {
        contents.push_str(&format!("\n  CRD {}", crd_file_name(crd)));
    }
    ctx.report.block(&contents, s.dry_run);
    if let Some(head) = bundle.package.channel(&s.pipeline.channel) {
        ctx.report.channel_head(&head.current_csv);
    }
    ctx.state.packaged = Some(Packaged {
        bundle,
        dir,
        tarball,
        packed,
    });
    Ok(())
}

/// Writes the flat bundle folder, replacing whatever was there.
pub fn write_folder(bundle: &Bundle, dir: &Path) -> Result<()> {
    if dir.exists() {
        fs::remove_dir_all(dir).map_err(|e| Error::io(Class::Stage, dir, e))?;
    }
    fs::create_dir_all(dir).map_err(|e| Error::io(Class::Stage, dir, e))?;

    let write = |name: String, text: String| -> Result<()> {
        let path = dir.join(&name);
        if path.exists() {
            return Err(Error::stage(format!(
                "two bundle files would both be named {name}"
            )));
        }
        fs::write(&path, text).map_err(|e| Error::io(Class::Stage, &path, e))
    };
    write(bundle.package.file_name(), to_yaml(&bundle.package)?)?;
    for csv in &bundle.csvs {
        write(
            csv_file_name(csv.name().unwrap_or("unnamed")),
            crate::olm::yaml::to_string(&csv.doc),
        )?;
    }
    for crd in &bundle.crds {
        write(crd_file_name(crd), crate::olm::yaml::to_string(&crd.doc))?;
    }
    Ok(())
}

fn to_yaml<T: serde::Serialize>(value: &T) -> Result<String> {
    crate::olm::yaml::to_string_of(value)
        .map_err(|e| Error::stage(format!("serialising the bundle: {e}")))
}
