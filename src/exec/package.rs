//! The package step: the bundle folder and the reproducible tarball, with both digests.
//!
//! In a pipeline it packs what render (and fetch-previous) built: it writes the flat bundle
//! folder (the package file, every CSV, each CRD once: what `operator-courier verify` and people
//! read) and the `.tar.gz` in the layout the pipeline chose, both rebuilt from scratch on every
//! run. For `publish` it reads a bundle someone has instead: a flat folder one CSV at a time,
//! each CSV checked with verify's per-CSV rules and serialised exactly as
//! [`archive::flatten`] would as it is read, then kept only as its skeleton (so a cumulative
//! bundle of hundreds of CSVs is never held parsed whole); any other folder, `bundle.yaml` or
//! `.tar.gz` whole, packed as the pipeline packs. Either way the tar is packed by
//! [`archive::pack`], so the same bundle gives the same digest. The other objects released
//! with the bundle (render's, or those beside the CSVs of the folder, tree or tarball) are not
//! packed — the app registry's bundle holds only CSVs, CRDs and the package file — but handed on
//! with it ([`Contents`]) for the verify step to check and the bundle image to carry.

use std::fs;

use super::outputs::{Basis, HistoryRelease, Packaged, RenderedFiles};
use crate::error::step::PackageError;
use crate::error::{Error, Result};
use crate::plan::{BundleSource, PackageStep, layout_str};
use crate::report::Reporter;
use olm_release_olm::archive::{self, Contents, Layout};
use olm_release_olm::decision::Decision;
use olm_release_olm::validate::streamed::StreamedError;
use olm_release_olm::{Finding, validate};

/// Where the bundle comes from. Made once per run and moved into [`run`], so the size of the
/// larger variant costs nothing.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Input {
    /// Built by render (and fetch-previous).
    Pipeline {
        files: RenderedFiles,
        contents: Contents,
        decision: Option<Decision>,
        basis: Option<Basis>,
    },
    /// The step's own [`BundleSource::Folder`].
    Folder,
}

/// The package step.
pub(crate) fn run(
    step: &PackageStep,
    report: &Reporter,
    input: Input,
    cache: &super::context::HistoryCache,
) -> Result<Packaged> {
    let mut from_history = None;
    let (contents, files, (decision, basis), per_csv, tar_files) = match (input, &step.bundle) {
        (
            Input::Pipeline {
                files,
                contents,
                decision,
                basis,
            },
            BundleSource::Pipeline,
        ) => {
            let tar =
                archive::bundle_files(&contents.bundle, step.layout).map_err(PackageError::Pack)?;
            (contents, Some(files), (decision, basis), None, tar)
        }
        (Input::Folder, BundleSource::Folder { path }) => {
            let read = read_folder(path, step)?;
            (read.contents, None, (None, None), read.per_csv, read.tar)
        }
        (Input::Folder, BundleSource::History { tree, version }) => {
            let history = cache
                .tree(tree, &step.limits)
                .map_err(PackageError::History)?;
            let at = history
                .versions
                .iter()
                .position(|v| v.version == *version)
                .ok_or_else(|| {
                    PackageError::History(format!(
                        "{}: no version folder holds {version} any more",
                        tree.display()
                    ))
                })?;
            let bundle = history.bundle_at(at);
            if bundle.package.package_name != step.package {
                return Err(PackageError::OtherPackage {
                    path: tree.clone(),
                    found: bundle.package.package_name,
                    package: step.package.clone(),
                }
                .into());
            }
            let tar = archive::bundle_files(&bundle, step.layout).map_err(PackageError::Pack)?;
            let objects = history.versions[at].objects.clone();
            let dir = &history.versions[at].dir;
            from_history = Some(HistoryRelease {
                tree: tree.clone(),
                folder: dir
                    .strip_prefix(tree)
                    .unwrap_or(dir)
                    .to_string_lossy()
                    .into_owned(),
                first: at == 0,
                headless: history.headless.iter().map(|(c, _)| c.clone()).collect(),
                limits: step.limits,
                community: history.community,
            });
            (Contents { bundle, objects }, None, (None, None), None, tar)
        }
        _ => {
            return Err(Error::internal(
                "the package step's input does not match its bundle source",
            ));
        }
    };
    let bundle = &contents.bundle;
    if let Some(folder) = &step.folder {
        archive::write_folder(bundle, folder).map_err(PackageError::Folder)?;
    }
    let packed = archive::pack(&tar_files, step.mtime).map_err(PackageError::Pack)?;
    drop(tar_files);
    if let Some(tarball) = &step.tarball {
        if let Some(dir) = tarball.parent() {
            fs::create_dir_all(dir).map_err(|e| Error::output(dir, e))?;
        }
        fs::write(tarball, &packed.gz).map_err(|e| Error::output(tarball, e))?;
    }
    report.info(&format!(
        "bundle {} ({}, {}, {} layout): {} bytes",
        match &step.bundle {
            BundleSource::Folder { path } => path.display().to_string(),
            BundleSource::History { tree, version } => format!("{} at {version}", tree.display()),
            BundleSource::Pipeline => step.shown.clone(),
        },
        olm_release_base::words::count(bundle.csvs.len(), "CSV"),
        olm_release_base::words::count(bundle.crds.len(), "CRD"),
        layout_str(step.layout),
        packed.gz.len()
    ));
    report.info(&format!(
        "digest sha256:{} (tar), sha256:{} (.tar.gz)",
        packed.digest, packed.gz_digest
    ));
    report.block(&bundle.listing(), step.show_contents);
    report.graph(olm_release_olm::drawing::draw(
        bundle,
        olm_release_olm::drawing::Style::Mermaid,
    ));
    if files.is_none() && !contents.objects.is_empty() {
        // Render says the same of a pipeline's bundle folder.
        report.info(&format!(
            "the bundle also holds {} (verified with it; the app registry's bundle holds only CSVs, CRDs and the package file)",
            contents
                .objects
                .iter()
                .map(olm_release_olm::Manifest::kind_and_name)
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let channel = step
        .channel
        .clone()
        .or_else(|| bundle.package.default_channel.clone())
        .or_else(|| bundle.package.channels.first().map(|c| c.name.clone()));
    if let Some(head) = channel.and_then(|c| bundle.package.channel(&c).cloned()) {
        report.channel_head(&head.name, &head.current_csv);
    }
    if from_history.is_some() {
        let heads: Vec<String> = bundle
            .package
            .channels
            .iter()
            .map(|c| format!("{} → {}", c.name, c.current_csv))
            .collect();
        report.detail(&format!("channel heads: {}", heads.join(", ")));
    }
    Ok(Packaged {
        files,
        decision,
        basis,
        contents,
        per_csv,
        folder: step.folder.clone(),
        shown: step.shown.clone(),
        packed,
        history: from_history,
    })
}

/// A bundle someone has, read for packing.
struct FolderRead {
    /// Whole, or with skeleton CSVs when read one CSV at a time; with the other objects.
    contents: Contents,
    /// The per-CSV findings when read one CSV at a time.
    per_csv: Option<Vec<Finding>>,
    /// The files of the tar.
    tar: archive::Files,
}

fn read_folder(path: &std::path::Path, step: &PackageStep) -> Result<FolderRead> {
    let read = if path.is_dir() && step.layout == Layout::Flat {
        let read = validate::streamed::read_flat(path, &step.limits, &step.checks.options())
            .map_err(|e| match e {
                StreamedError::Read(e) => PackageError::Read(e),
                StreamedError::Pack(e) => PackageError::Pack(e),
            })?;
        FolderRead {
            contents: read.skeletons,
            per_csv: Some(read.per_csv),
            tar: read.tar,
        }
    } else {
        let contents =
            archive::read_path_contents(path, &step.limits).map_err(PackageError::Read)?;
        let tar =
            archive::bundle_files(&contents.bundle, step.layout).map_err(PackageError::Pack)?;
        FolderRead {
            contents,
            per_csv: None,
            tar,
        }
    };
    if read.contents.bundle.package.package_name != step.package {
        return Err(PackageError::OtherPackage {
            path: path.to_path_buf(),
            found: read.contents.bundle.package.package_name,
            package: step.package.clone(),
        }
        .into());
    }
    Ok(read)
}
