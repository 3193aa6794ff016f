//! Bundles the user names on disk: a folder (flat or nested), a flattened `bundle.yaml`, or a
//! `.tar.gz`. Every file goes through `olm_release_base::input` (regular files only, bounded
//! reads), a folder's files count together against the bundle's size and entry limits, and
//! symlinks are followed (a folder reached twice is read once, so a link loop ends).

use std::path::Path;

use serde_yaml_ng::Value;

use super::budget::Budget;
use super::error::ReadError;
use super::model::{Contents, Files, Limits};
use super::read::{once, package_file, parse_single, read_contents, read_flattened, utf8};
use super::unpack::unpack_as;
use super::walk::{Listed, list};
use crate::{Bundle, DocKind, Manifest, PackageManifest, doc_kind};
use olm_release_base::input;

/// A bundle file as found on disk, read but not parsed: what `verify` checks.
#[derive(Debug)]
pub enum Input {
    /// A `.tar.gz`: its bytes, its regular files and the sha256 of its tar.
    Tarball {
        /// The file's bytes, as read.
        gz: Vec<u8>,
        /// Its regular files, as (path inside the tar, content).
        files: Files,
        /// The sha256 (hex) of the uncompressed tar: the app registry's digest.
        digest: String,
    },
    /// Any other file: a flattened `bundle.yaml`, by file name.
    File {
        /// The file's name (without its folder).
        name: String,
        /// The file's bytes, as read.
        bytes: Vec<u8>,
    },
}

/// Whether a file name says it is gzip data.
fn gzip_name(path: &Path) -> bool {
    let name = path.to_string_lossy();
    name.ends_with(".tar.gz") || name.ends_with(".tgz") || name.ends_with(".gz")
}

/// Reads the file `path` names within `limits`: a `.tar.gz` (by content, or by name — then it
/// must be gzip), or a flattened `bundle.yaml`. Devices, FIFOs and folders are refused without
/// being opened (callers read folders with [`read_dir_with`] or their own walk).
pub fn open(path: &Path, limits: &Limits) -> Result<Input, ReadError> {
    let shown = path.display().to_string();
    let bytes = input::read(path, limits.max_bytes).map_err(|e| ReadError::io(&shown, e))?;
    if super::model::is_gzip(&bytes) || gzip_name(path) {
        let (files, digest) = unpack_as(&shown, &bytes, limits)?;
        return Ok(Input::Tarball {
            gz: bytes,
            files,
            digest,
        });
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or(shown);
    Ok(Input::File { name, bytes })
}

/// Reads a bundle from a path: a folder (flat or nested tree), a flattened `bundle.yaml`, or a
/// `.tar.gz`.
pub fn read_path(path: &Path, limits: &Limits) -> Result<Bundle, ReadError> {
    read_path_contents(path, limits).map(|c| c.bundle)
}

/// [`read_path`] with the other objects beside the bundle's CSVs (what `publish` validates).
pub fn read_path_contents(path: &Path, limits: &Limits) -> Result<Contents, ReadError> {
    let shown = path.display().to_string();
    if path.is_dir() {
        return read_dir_with(path, limits, |csv| (csv, ())).map(|(contents, _)| contents);
    }
    match open(path, limits)? {
        Input::Tarball { files, .. } => read_contents(&files, limits).map_err(|e| e.within(shown)),
        Input::File { bytes, .. } => read_flattened(&shown, &bytes, limits).map(Contents::bare),
    }
}

/// One file of a folder, read and classified.
enum Item<T> {
    Package(PackageManifest),
    Csv(Manifest, T),
    Crd(Manifest),
    Object(Manifest),
    Other,
}

/// Reads a bundle folder (flat or nested) a few files at a time, on every core, handing each
/// CSV to `visit` as soon as it is parsed; `visit` returns what to keep of it (e.g. a skeleton)
/// and something of its own (e.g. findings). A cumulative bundle of hundreds of CSVs thus never
/// has to be held parsed whole. Files are visited in the same order, and classified by the same
/// rules, as [`read_path`] does. The YAML files together must fit `limits`. The other objects
/// (RBAC, ConfigMaps, …) come back whole, each document once.
pub fn read_dir_with<T: Send>(
    dir: &Path,
    limits: &Limits,
    visit: impl Fn(Manifest) -> (Manifest, T) + Sync,
) -> Result<(Contents, Vec<T>), ReadError> {
    let shown = dir.display().to_string();
    let mut paths = list(dir, limits)?;
    paths.retain(|f| f.yaml);
    let budget = Budget::new(limits);
    let read_one = |f: &Listed| -> Result<Item<T>, ReadError> {
        let rel = &f.rel;
        let bytes = input::read(&f.path, limits.max_bytes)
            .map_err(|e| ReadError::io(format!("{shown}/{rel}"), e))?;
        let text = utf8(rel, &bytes)?;
        budget.check(rel, text)?;
        let doc: Value = parse_single(rel, text)?;
        let file = rel.rsplit('/').next().unwrap_or(rel).to_string();
        Ok(match doc_kind(&doc) {
            DocKind::Package => return package_file(rel, doc).map(Item::Package),
            DocKind::Csv => {
                let (kept, extra) = visit(Manifest::new(file, doc));
                Item::Csv(kept, extra)
            }
            DocKind::Crd => Item::Crd(Manifest::new(file, doc)),
            DocKind::Object => Item::Object(Manifest::new(file, doc)),
            DocKind::Other => Item::Other,
        })
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
    let mut package = None;
    let (mut csvs, mut crds, mut objects, mut extras) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for batch in paths.chunks(threads * 2) {
        let items: Vec<Result<Item<T>, ReadError>> = if threads < 2 || batch.len() < 2 {
            batch.iter().map(read_one).collect()
        } else {
            std::thread::scope(|scope| {
                let workers: Vec<_> = batch
                    .chunks(batch.len().div_ceil(threads))
                    .map(|part| scope.spawn(|| part.iter().map(read_one).collect::<Vec<_>>()))
                    .collect();
                workers
                    .into_iter()
                    .flat_map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                    .collect()
            })
        };
        for (f, item) in batch.iter().zip(items) {
            match item.map_err(|e| e.within(&shown))? {
                Item::Package(p) => {
                    if package.replace(p).is_some() {
                        let e = ReadError::SecondPackage {
                            file: f.rel.clone(),
                        };
                        return Err(e.within(&shown));
                    }
                }
                Item::Csv(m, extra) => {
                    csvs.push(m);
                    extras.push(extra);
                }
                Item::Crd(m) => once(&mut crds, m),
                Item::Object(m) => once(&mut objects, m),
                Item::Other => {}
            }
        }
    }
    let package = package.ok_or_else(|| ReadError::NoPackage {
        what: format!("{shown}: the folder"),
    })?;
    Ok((
        Contents {
            bundle: Bundle {
                package,
                csvs,
                crds,
            },
            objects,
        },
        extras,
    ))
}
