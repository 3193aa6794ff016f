//! A bundle's files on either side of the registry: unpacking a pulled release (checked
//! against the digest the registry reported) and writing a bundle as the flat folder that
//! people and `operator-courier verify` read.

use std::fs;
use std::path::Path;

use super::{Limits, ReadError, WriteError, read_bundle, unpack_as};
use crate::{Bundle, crd_file_name, csv_file_name};

/// Unpacks a blob pulled from a registry within `limits`, checks it is the one the registry
/// named (`expected_digest`, the sha256 of its tar) and reads the bundle in it. The error's
/// class is the bundle's (input); callers that pulled the blob re-class it as the server's
/// failure, except [`ReadError::DigestMismatch`], which already is one.
pub fn unpack_release(
    gz: &[u8],
    expected_digest: &str,
    limits: &Limits,
) -> Result<Bundle, ReadError> {
    let (files, digest) = unpack_as("the blob", gz, limits)?;
    if digest != expected_digest {
        return Err(ReadError::DigestMismatch {
            expected: expected_digest.to_string(),
            actual: digest,
        });
    }
    read_bundle(&files, limits)
}

/// Writes the flat bundle folder (the package file, every CSV, each CRD once), replacing
/// whatever was there.
pub fn write_folder(bundle: &Bundle, dir: &Path) -> Result<(), WriteError> {
    let io = |p: &Path| {
        let path = p.display().to_string();
        move |source| WriteError::Io { path, source }
    };
    if dir.exists() {
        fs::remove_dir_all(dir).map_err(io(dir))?;
    }
    fs::create_dir_all(dir).map_err(io(dir))?;
    let write = |name: String, text: String| -> Result<(), WriteError> {
        let path = dir.join(&name);
        if path.exists() {
            return Err(WriteError::SameName { name });
        }
        fs::write(&path, text).map_err(io(&path))
    };
    let package = olm_release_base::yaml::to_string_of(&bundle.package).map_err(|source| {
        WriteError::Serialize {
            what: "the package file",
            source,
        }
    })?;
    write(bundle.package.file_name(), package)?;
    for csv in &bundle.csvs {
        write(
            csv_file_name(csv.name().unwrap_or("unnamed")),
            olm_release_base::yaml::to_string(&csv.doc),
        )?;
    }
    for crd in &bundle.crds {
        write(
            crd_file_name(crd),
            olm_release_base::yaml::to_string(&crd.doc),
        )?;
    }
    Ok(())
}
