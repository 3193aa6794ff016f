//! A flat bundle folder read for packing one CSV at a time, so a package's whole history never
//! sits in memory at once: each CSV checked as it is read ([`check_csv`](super::check_csv)) and
//! kept as its [`skeleton`](super::skeleton), the app registry's `bundle.yaml` written from the
//! CSVs in the canonical order (whatever the order of the files on disk, so a folder that
//! `registry pull` wrote publishes with the digest the registry has), and the size rule checked
//! on that text ([`check_size_streamed`](super::check_size_streamed)).
//! [`verify_packed_streamed`](super::verify_packed_streamed) runs the checks across the bundle
//! on the skeletons.

use std::path::Path;

use super::{Options, Sink, check_csv, check_size_streamed, skeleton};
use crate::Finding;
use crate::archive::{self, Contents, Limits, ReadError, WriteError};

/// A flat bundle folder read one CSV at a time.
pub struct Streamed {
    /// The bundle with skeleton CSVs, and the other objects.
    pub skeletons: Contents,
    /// The findings of each CSV, checked as it was read, and of the size rule.
    pub per_csv: Vec<Finding>,
    /// The tar's one file, `<package>/bundle.yaml`.
    pub tar: archive::Files,
}

/// Why a flat bundle folder could not be read for packing.
#[derive(Debug, thiserror::Error)]
pub enum StreamedError {
    /// Reading the folder.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// Writing its `bundle.yaml`.
    #[error(transparent)]
    Pack(#[from] WriteError),
}

/// Reads the flat bundle folder `path` within `limits`, checking each CSV under `opts`.
pub fn read_flat(path: &Path, limits: &Limits, opts: &Options) -> Result<Streamed, StreamedError> {
    let (skeletons, items) = archive::read_dir_with(path, limits, |csv| {
        let mut sink = Sink::new(opts);
        check_csv(&csv, &mut sink);
        let item = archive::csv_list_item(&csv);
        (skeleton(&csv), (sink.out, item))
    })?;
    let mut per_csv = Vec::new();
    let mut csv_list = String::with_capacity(items.iter().map(|(_, t)| t.len()).sum());
    let mut items: Vec<Option<_>> = items.into_iter().map(Some).collect();
    for i in crate::canonical_csv_order(&skeletons.bundle.csvs) {
        if let Some((findings, item)) = items[i].take() {
            per_csv.extend(findings);
            csv_list.push_str(&item);
        }
    }
    per_csv.extend(check_size_streamed(&csv_list, &skeletons, opts));
    let bundle = &skeletons.bundle;
    if bundle.csvs.is_empty() {
        csv_list.push_str("[]\n");
    }
    let text = archive::flatten_parts(&bundle.crds, csv_list, &bundle.package)?;
    let tar_path = format!("{}/bundle.yaml", bundle.package.package_name);
    Ok(Streamed {
        skeletons,
        per_csv,
        tar: vec![(tar_path, text.into_bytes())],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) {
        std::fs::write(dir.join(name), text).unwrap();
    }

    #[test]
    fn the_csvs_are_listed_in_the_canonical_order_whatever_the_files_order() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "package.yaml",
            "packageName: op\nchannels:\n- name: stable\n  currentCSV: op.v0.2.0\n",
        );
        // "a-…" sorts first on disk but is the older CSV; the highest version is written first.
        write(
            dir.path(),
            "b-newer.yaml",
            "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: op.v0.2.0\nspec:\n  version: 0.2.0\n  replaces: op.v0.1.0\n",
        );
        write(
            dir.path(),
            "a-older.yaml",
            "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: op.v0.1.0\nspec:\n  version: 0.1.0\n",
        );
        let read = read_flat(dir.path(), &Limits::default(), &Options::default()).unwrap();
        assert_eq!(read.skeletons.bundle.csvs.len(), 2);
        let [(path, bytes)] = read.tar.as_slice() else {
            panic!(
                "one file: {:?}",
                read.tar.iter().map(|(p, _)| p).collect::<Vec<_>>()
            );
        };
        assert_eq!(path, "op/bundle.yaml");
        let text = String::from_utf8_lossy(bytes);
        let (older, newer) = (
            text.find("op.v0.1.0").unwrap(),
            text.find("name: op.v0.2.0").unwrap(),
        );
        assert!(newer < older, "highest first:\n{text}");
    }

    #[test]
    fn a_folder_that_cannot_be_read_is_a_read_error() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing");
        assert!(matches!(
            read_flat(&missing, &Limits::default(), &Options::default()),
            Err(StreamedError::Read(_))
        ));
    }
}
