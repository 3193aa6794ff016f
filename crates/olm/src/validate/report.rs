//! The entry points that produce a [`Report`]: a path on disk (folder, flattened
//! `bundle.yaml`, `.tar.gz`), a blob, or a bundle this process has just packed. Each loads what
//! it is given into bundle folders ([`super::load`]) and runs the same checks.

use std::path::Path;

use serde::Serialize;

use super::checks::{check, check_across, check_loaded};
use super::model::{Options, Profile, Unit, VerifyError};
use super::{crd, load, objects, olm_v1, pods, rules};

use super::sink::{At, Sink};
use crate::Finding;
use crate::archive::{self, Contents, Input, Limits, ReadError};

/// What a verification found, and about what.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The path or name that was verified.
    pub source: String,
    pub(crate) profile: Profile,
    pub(crate) operatorhub: bool,
    /// sha256 of the uncompressed tar (the app registry's digest), for a `.tar.gz`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// sha256 of the `.tar.gz` file, for a `.tar.gz`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gz_digest: Option<String>,
    /// How many findings are errors.
    pub errors: usize,
    /// How many findings are warnings.
    pub warnings: usize,
    /// Errors first, then warnings, each in file order.
    pub findings: Vec<Finding>,
}

impl Report {
    fn new(source: String, opts: &Options, findings: Vec<Finding>) -> Self {
        let findings = super::sink::sorted(findings);
        let errors = crate::finding::errors(&findings);
        Report {
            source,
            profile: opts.profile,
            operatorhub: opts.operatorhub,
            digest: None,
            gz_digest: None,
            errors,
            warnings: findings.len() - errors,
            findings,
        }
    }

    /// Whether no finding is an error (warnings are allowed).
    pub fn is_valid(&self) -> bool {
        self.errors == 0
    }
}

/// Verifies a folder (a flat bundle or a tree of version folders), a flattened `bundle.yaml`,
/// or a `.tar.gz`, within the default [`Limits`].
pub fn verify_path(path: &Path, opts: &Options) -> Result<Report, VerifyError> {
    verify_path_with(path, opts, &Limits::default())
}

/// [`verify_path`] within `limits` (`--max-bundle-bytes`). Fails when the path cannot be read
/// as a bundle — missing, a device or FIFO, a `.tar.gz` that is not gzip, data past the limits
/// (size, entries, ratio, YAML nesting, values, alias expansion), a flattened `bundle.yaml`
/// that is not UTF-8 YAML or not a mapping — (an input error); everything wrong inside a
/// readable bundle is a finding. The budget is measured on every YAML text before the loader
/// ([`load`]) parses it.
pub fn verify_path_with(
    path: &Path,
    opts: &Options,
    limits: &Limits,
) -> Result<Report, VerifyError> {
    let shown = path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|e| ReadError::io(&shown, e))?;
    if meta.is_dir() {
        let files = load::read_dir(path, limits)?;
        archive::check_files(&files, false, limits).map_err(|e| e.within(&shown))?;
        return Ok(verify_files(shown, &files, false, opts));
    }
    Ok(match archive::open(path, limits)? {
        Input::Tarball { gz, files, digest } => {
            let files = load::strip_top_folder(files);
            let flat = files.len() == 1;
            archive::check_files(&files, flat, limits).map_err(|e| e.within(&shown))?;
            let mut report = verify_files(shown, &files, flat, opts);
            report.digest = Some(digest);
            report.gz_digest = Some(olm_release_base::digest::sha256_hex(&gz));
            report
        }
        Input::File { name, bytes } => {
            archive::check_files(&[(shown.as_str(), bytes.as_slice())], true, limits)?;
            verify_files(shown, &[(name, bytes)], true, opts)
        }
    })
}

/// Verifies a bundle `.tar.gz` exactly as the registry's consumers would read it: one regular
/// file is a flattened `bundle.yaml`, several are a manifest tree. A tarball that cannot be
/// read within the default [`Limits`] is a finding.
pub fn verify_tarball(shown: &str, gz: &[u8], opts: &Options) -> Report {
    let limits = Limits::default();
    let read = archive::unpack(gz, limits).and_then(|(files, digest)| {
        let files = load::strip_top_folder(files);
        let flat = files.len() == 1;
        archive::check_files(&files, flat, &limits)?;
        Ok((files, digest, flat))
    });
    let mut report = match read {
        Ok((files, digest, flat)) => {
            let mut r = verify_files(shown.to_string(), &files, flat, opts);
            r.digest = Some(digest);
            r
        }
        Err(e) => {
            let mut sink = Sink::new(opts);
            let at = At::new(shown, "bundle");
            sink.add(&rules::BUNDLE_FORMAT, &at, "", e.to_string());
            Report::new(shown.to_string(), opts, sink.out)
        }
    };
    report.gz_digest = Some(olm_release_base::digest::sha256_hex(gz));
    report
}

/// Verifies a bundle this process has just packed: the in-memory bundle and the objects released
/// with it ([`Contents`], checked as one [`Unit::of`] them) are validated, and the
/// tarball is checked to be exactly its packing (its tar's sha256 is the digest recorded when it
/// was packed from that bundle). Because packing is a pure function of the bundle, the bytes
/// that will be sent are the validated bundle; this skips parsing megabytes of YAML a second
/// time. (That the writer's YAML reads back as the same values is property-tested.)
pub fn verify_packed(
    shown: &str,
    contents: &Contents,
    packed: &archive::Packed,
    opts: &Options,
) -> Report {
    packed_report(shown, packed, checked(contents, opts))
}

/// Verifies a bundle that exists only in memory — rendered, not yet packed (what `plan`
/// checks before anything runs): the same checks as [`verify_packed`] on the bundle and the
/// objects beside it, without the check that a tarball is its packing.
pub fn verify_contents(shown: &str, contents: &Contents, opts: &Options) -> Report {
    let sink = checked(contents, opts);
    Report::new(shown.to_string(), sink.opts, sink.out)
}

/// The checks of one bundle and its objects, as one unit, packaged as its package file names it.
fn checked<'a>(contents: &Contents, opts: &'a Options) -> Sink<'a> {
    let bundle = &contents.bundle;
    let file = bundle.package.file_name();
    let mut sink = Sink::new(opts);
    check(
        &Unit::of(bundle, &contents.objects),
        bundle,
        Some(&file),
        &mut sink,
    );
    sink
}

/// [`verify_packed`] for a bundle read one CSV at a time: each CSV was checked with
/// [`check_csv`](super::check_csv) when it was read (its findings are `per_csv`) and reduced to its
/// [`skeleton`](super::skeleton); here the checks across the bundle run on the skeletons.
pub fn verify_packed_streamed(
    shown: &str,
    skeletons: &Contents,
    per_csv: Vec<Finding>,
    packed: &archive::Packed,
    opts: &Options,
) -> Report {
    let bundle = &skeletons.bundle;
    let file = bundle.package.file_name();
    let mut sink = Sink::new(opts);
    sink.out = per_csv;
    let unit = Unit::of(bundle, &skeletons.objects);
    crd::check(&unit, &mut sink);
    objects::check(&unit, &mut sink);
    pods::check(&unit, &mut sink);
    olm_v1::check(&unit, &mut sink);
    check_across(bundle, Some(&file), &mut sink);
    packed_report(shown, packed, sink)
}

/// Verifies one release of `publish --history`: the release of version folder `folder` (its
/// path relative to the tree) of a package-manifest tree is checked exactly as `verify TREE`
/// checks that folder, so the import refuses nothing `verify TREE` accepts and warns where it
/// warns. `whole` is the report of `verify TREE` ([`verify_path_with`]), made once for every
/// release, so a history of n versions is verified in time linear in n. The findings are those
/// about files in `folder`, and, for the `first` release, those about the package and the
/// tree's other files; the cumulative release is not checked again as one bundle (its older
/// CSVs beside the newest CRDs, which is how the app registry served it and no tool checked).
/// The tarball is checked to be `packed`'s packing, as [`verify_packed`] does. A channel whose
/// head is in no version folder is left out of every release (`headless`, which the import
/// warns about): the package file's error about its `currentCSV` concerns no release, and is
/// left out too.
///
/// A release of a community package folder ([`crate::community`]) is checked as `verify
/// FOLDER` checks its version folder, a registry+v1 bundle: `whole` is that folder's report and
/// `folder` is empty, so every finding is kept but the missing package file's: the layout has
/// none, and the release's is built from the versions' annotations.
#[allow(clippy::too_many_arguments)]
pub fn verify_history_release(
    shown: &str,
    whole: &Report,
    folder: &str,
    first: bool,
    headless: &[String],
    packed: &archive::Packed,
    opts: &Options,
) -> Report {
    let prefix = format!("{}/", folder.trim_end_matches('/'));
    let in_folder = |file: &str| folder.is_empty() || file.starts_with(&prefix);
    let elsewhere = |file: &str| !file.contains('/');
    let headless = |f: &Finding| {
        f.rule == rules::PACKAGE_CURRENT_CSV.id
            && headless
                .iter()
                .any(|c| f.field == format!("channels[{c}].currentCSV"))
    };
    let mut sink = Sink::new(opts);
    sink.out = whole
        .findings
        .iter()
        .filter(|f| in_folder(&f.file) || (first && elsewhere(&f.file) && !headless(f)))
        .filter(|f| !(folder.is_empty() && f.rule == rules::PACKAGE.id))
        .cloned()
        .collect();
    packed_report(shown, packed, sink)
}

/// Adds the check that the tarball is the packing, and makes the report.
fn packed_report(shown: &str, packed: &archive::Packed, mut sink: Sink) -> Report {
    match archive::tar_digest(&packed.gz, Limits::for_packed(packed.tar_size)) {
        Ok(digest) if digest == packed.digest => {}
        Ok(digest) => sink.add(
            &rules::BUNDLE_FORMAT,
            &At::new(shown, "bundle"),
            "",
            format!(
                "the tarball holds sha256:{digest}, not the packed bundle's sha256:{}",
                packed.digest
            ),
        ),
        Err(e) => sink.add(
            &rules::BUNDLE_FORMAT,
            &At::new(shown, "bundle"),
            "",
            e.to_string(),
        ),
    }
    let mut report = Report::new(shown.to_string(), sink.opts, sink.out);
    report.digest = Some(packed.digest.clone());
    report.gz_digest = Some(packed.gz_digest.clone());
    report
}

fn verify_files(source: String, files: &[(String, Vec<u8>)], flat: bool, opts: &Options) -> Report {
    let mut sink = Sink::new(opts);
    let loaded = match files {
        [(name, bytes)] if flat => load::flattened(name, bytes, &mut sink),
        _ => load::tree(files, &mut sink),
    };
    check_loaded(loaded, &mut sink);
    Report::new(source, opts, sink.out)
}
