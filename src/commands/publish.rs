//! `olm-release publish DIR`: the pipeline's package, verify and push stages as one command, on a
//! bundle folder someone already has (a rendered `_out/.../bundle`, a `registry pull`, a folder
//! kept in git), without a pipeline file.
//!
//! Nothing here is a second implementation: a flat folder is read with
//! [`archive::read_dir_with`], each CSV checked with the verify stage's per-CSV rules and
//! serialised exactly as [`archive::flatten`] would as it is read, then kept only as its
//! skeleton (so a cumulative bundle of hundreds of CSVs is never held parsed whole); the rules
//! across the bundle run on the skeletons ([`stages::verify::check_streamed`], proven equal to
//! the whole-bundle check on the verify corpus); the tarball is packed with [`archive::pack`];
//! other layouts and files go through [`archive::read_path`] and [`archive::bundle_files`]
//! exactly as the package stage does. It is pushed by [`stages::push::push`], the push stage's
//! own logic (idempotent by digest, `--force` to overwrite, the dry-run choke point, proof by
//! pull-back). Credentials come from `QUAY_TOKEN` or `QUAY_USERNAME`/`QUAY_PASSWORD`, as for
//! `run`.
//!
//! The package named by `--package` must be the bundle's `packageName`: OLM consumers find the
//! package under that name, and operator-courier refuses the same mismatch (fact sheet §8.2).

use std::future::Future;
use std::time::Instant;

use crate::cli::PublishArgs;
use crate::error::{Error, Result};
use crate::olm::archive::{self, Layout};
use crate::olm::{Bundle, Finding, crd_file_name, validate};
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
    let read = read(args)?;
    let bundle = read.bundle();
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
    let result = stages(args, read, &job, &registry, report, mtime).await;
    if let Err(e) = &result {
        report.fail(&e.message);
    }
    report.finish();
    result
}

/// A bundle folder as read: whole, or (flat layout from a folder) one CSV at a time, each CSV
/// checked and serialised as it is read and kept only as its skeleton, so a cumulative bundle
/// of hundreds of CSVs is never held parsed whole.
enum Read {
    Whole(Bundle),
    Streamed {
        skeletons: Bundle,
        per_csv: Vec<Finding>,
        csv_list: String,
    },
}

impl Read {
    /// The bundle (with skeleton CSVs when streamed): package file, CSV names and edges, CRDs.
    fn bundle(&self) -> &Bundle {
        match self {
            Read::Whole(b) | Read::Streamed { skeletons: b, .. } => b,
        }
    }
}

fn read(args: &PublishArgs) -> Result<Read> {
    if !(args.dir.is_dir() && args.layout == Layout::Flat) {
        return archive::read_path(&args.dir)
            .map(Read::Whole)
            .map_err(Error::input);
    }
    let opts = validate::Options::default();
    let (skeletons, items) = archive::read_dir_with(&args.dir, |csv| {
        let mut sink = validate::Sink::new(&opts);
        validate::check_csv(&csv, &mut sink);
        let item = archive::csv_list_item(&csv);
        (validate::skeleton(&csv), (sink.out, item))
    })
    .map_err(Error::input)?;
    let mut per_csv = Vec::new();
    let mut csv_list = String::with_capacity(items.iter().map(|(_, t)| t.len()).sum());
    for (findings, item) in items {
        per_csv.extend(findings);
        csv_list.push_str(&item);
    }
    if skeletons.csvs.is_empty() {
        csv_list.push_str("[]\n");
    }
    Ok(Read::Streamed {
        skeletons,
        per_csv,
        csv_list,
    })
}

/// package → verify → push, each timed and folded like a pipeline stage. Push needs only the
/// package file, so the parsed CSVs are dropped before the network round trips.
async fn stages(
    args: &PublishArgs,
    read: Read,
    job: &Job,
    registry: &Registry,
    report: &Reporter,
    mtime: u64,
) -> Result<()> {
    let (bundle, streamed) = match read {
        Read::Whole(b) => (b, None),
        Read::Streamed {
            skeletons,
            per_csv,
            csv_list,
        } => (skeletons, Some((per_csv, csv_list))),
    };
    let (packed, per_csv) = stage(report, "package", async {
        let (files, per_csv) = match streamed {
            None => (
                archive::bundle_files(&bundle, args.layout).map_err(Error::stage)?,
                None,
            ),
            Some((per_csv, csv_list)) => {
                let text = archive::flatten_parts(&bundle.crds, csv_list, &bundle.package)
                    .map_err(Error::stage)?;
                let path = format!("{}/bundle.yaml", bundle.package.package_name);
                (vec![(path, text.into_bytes())], Some(per_csv))
            }
        };
        let packed = archive::pack(&files, mtime).map_err(Error::stage)?;
        drop(files);
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
        Ok((packed, per_csv))
    })
    .await?;
    let shown = format!("{}-{}.tar.gz", job.package, job.release);
    stage(report, "verify", async {
        let warnings = match per_csv {
            None => verify::check(report, &shown, &bundle, &packed, &[])?,
            Some(per_csv) => verify::check_streamed(report, &shown, &bundle, per_csv, &packed)?,
        };
        report.info(&format!("bundle valid ({warnings} warning(s))"));
        Ok(())
    })
    .await?;
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
