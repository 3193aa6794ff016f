//! A bundle's files on either side of the registry: unpacking a pulled release (checked
//! against the digest the registry reported) and writing a bundle as the flat folder that
//! people and `operator-courier verify` read.

use std::fs;
use std::path::Path;

use super::{Limits, read_bundle, unpack};
use crate::olm::{Bundle, crd_file_name, csv_file_name};

/// Unpacks a pulled blob, checks it is the one the registry named, and reads its bundle.
pub fn unpack_release(gz: &[u8], expected_digest: &str) -> Result<Bundle, String> {
    let (files, digest) = unpack(gz, Limits::default())?;
    if digest != expected_digest {
        return Err(format!(
            "blob digest mismatch: the registry said sha256:{expected_digest}, the blob is sha256:{digest}"
        ));
    }
    read_bundle(&files)
}

/// Writes the flat bundle folder (the package file, every CSV, each CRD once), replacing
/// whatever was there.
pub fn write_folder(bundle: &Bundle, dir: &Path) -> Result<(), String> {
    let io = |p: &Path, e: std::io::Error| format!("{}: {e}", p.display());
    if dir.exists() {
        fs::remove_dir_all(dir).map_err(|e| io(dir, e))?;
    }
    fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    let write = |name: String, text: String| -> Result<(), String> {
        let path = dir.join(&name);
        if path.exists() {
            return Err(format!("two bundle files would both be named {name}"));
        }
        fs::write(&path, text).map_err(|e| io(&path, e))
    };
    let package = crate::olm::yaml::to_string_of(&bundle.package)
        .map_err(|e| format!("serialising the bundle: {e}"))?;
    write(bundle.package.file_name(), package)?;
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
