//! `olm-release publish DIR`: the pipeline's package, verify and push stages as one command, on a
//! bundle folder someone already has (a rendered `_out/.../bundle`, a `registry pull`, a folder
//! kept in git), without a pipeline file.
//!
//! Nothing here is a second implementation: the folder is read with [`archive::read_path`],
//! packed with [`archive::bundle_files`] and [`archive::pack`] exactly as the package stage packs
//! it, verified by [`stages::verify::check`] (the bundle, and that the bytes to be sent are its packing), and pushed by
//! [`stages::push::push`], the push stage's own logic (idempotent by digest, `--force` to
//! overwrite, the dry-run choke point, proof by pull-back). Credentials come from `QUAY_TOKEN`
//! or `QUAY_USERNAME`/`QUAY_PASSWORD`, as for `run`.
//!
//! The package named by `--package` must be the bundle's `packageName`: OLM consumers find the
//! package under that name, and operator-courier refuses the same mismatch (fact sheet §8.2).

use std::future::Future;
use std::time::Instant;

use crate::cli::PublishArgs;
use crate::error::{Error, Result};
use crate::olm::archive::{self, Layout};
use crate::olm::{Bundle, crd_file_name};
use crate::registry::Registry;
use crate::report::Reporter;
use crate::settings::{self, Env};
use crate::stages::push::{self, Job};
use crate::stages::verify;

/// `publish DIR --registry URL --namespace NS --package PKG --release VERSION`.
pub async fn run(args: &PublishArgs, env: &Env, report: &Reporter) -> Result<()> {
    let version = settings::parse_version(&args.release)
        .map_err(|e| Error::input(format!("--release: {e}")))?;
    let mtime = source_date_epoch(env)?;
    let registry = super::registry::open(&args.at, env)?;
    let bundle = archive::read_path(&args.dir).map_err(Error::input)?;
    if bundle.package.package_name != args.package {
        return Err(Error::input(format!(
            "{}: the bundle's packageName is '{}', but --package is '{}'; OLM finds a package by \
             its packageName, so publish it under that name",
            args.dir.display(),
            bundle.package.package_name,
            args.package
        )));
    }
    let channel = bundle
        .package
        .default_channel
        .clone()
        .or_else(|| bundle.package.channels.first().map(|c| c.name.clone()))
        .unwrap_or_default();
    let job = Job {
        namespace: args.namespace.clone(),
        package: args.package.clone(),
        channel,
        release: version.to_string(),
        force: args.force,
        dry_run: args.dry_run,
    };
    report.begin(
        "publish",
        &job.package,
        &job.channel,
        &job.release,
        job.dry_run,
    );
    let result = stages(args, bundle, &job, &registry, report, mtime).await;
    if let Err(e) = &result {
        report.fail(&e.message);
    }
    report.finish();
    result
}

/// package → verify → push, each timed and folded like a pipeline stage. The parsed CSVs are
/// dropped once packed: verify reads the tarball and push needs only the package file, so peak
/// memory holds one parsed bundle, not two.
async fn stages(
    args: &PublishArgs,
    bundle: Bundle,
    job: &Job,
    registry: &Registry,
    report: &Reporter,
    mtime: u64,
) -> Result<()> {
    let packed = stage(report, "package", async {
        let files = archive::bundle_files(&bundle, args.layout).map_err(Error::stage)?;
        let packed = archive::pack(&files, mtime).map_err(Error::stage)?;
        report.info(&format!(
            "bundle {} ({} CSVs, {} CRDs, {} layout): {} bytes",
            args.dir.display(),
            bundle.csvs.len(),
            bundle.crds.len(),
            match args.layout {
                Layout::Flat => "flat",
                Layout::Nested => "nested",
            },
            packed.gz.len()
        ));
        report.info(&format!(
            "digest sha256:{} (tar), sha256:{} (.tar.gz)",
            packed.digest, packed.gz_digest
        ));
        report.detail(&contents(&bundle));
        Ok(packed)
    })
    .await?;
    let shown = format!("{}-{}.tar.gz", job.package, job.release);
    stage(report, "verify", async {
        let warnings = verify::check(report, &shown, &bundle, &packed, &[])?;
        report.info(&format!("bundle valid ({warnings} warning(s))"));
        Ok(())
    })
    .await?;
    // Push needs only the package file: drop the parsed CSVs before the network round trips.
    let Bundle {
        package,
        csvs,
        crds,
    } = bundle;
    drop((csvs, crds));
    stage(
        report,
        "push",
        push::push(registry, report, job, &package, &packed),
    )
    .await
}

/// Runs one step between the reporter's stage lines, as the pipeline's stage engine does.
async fn stage<T>(
    report: &Reporter,
    name: &str,
    step: impl Future<Output = Result<T>>,
) -> Result<T> {
    report.stage_start(name);
    let started = Instant::now();
    let result = step.await;
    report.stage_end(name, started.elapsed(), result.is_ok());
    result.map_err(|e| e.context(format!("stage {name}")))
}

/// The bundle's channels, CSVs and CRDs, one per line, for `-v`.
fn contents(bundle: &Bundle) -> String {
    let mut out = format!("bundle contents ({}):", bundle.package.file_name());
    for ch in &bundle.package.channels {
        out.push_str(&format!("\n  channel {} → {}", ch.name, ch.current_csv));
    }
    for csv in &bundle.csvs {
        out.push_str(&format!("\n  CSV {}", csv.name().unwrap_or("?")));
    }
    for crd in &bundle.crds {
        out.push_str(&format!("\n  CRD {}", crd_file_name(crd)));
    }
    out
}

/// `SOURCE_DATE_EPOCH` (tar entry times), 0 when unset.
fn source_date_epoch(env: &Env) -> Result<u64> {
    match env.get("SOURCE_DATE_EPOCH") {
        None => Ok(0),
        Some(v) => v.parse().map_err(|_| {
            Error::input(format!(
                "SOURCE_DATE_EPOCH='{v}' is not a number of seconds"
            ))
        }),
    }
}
