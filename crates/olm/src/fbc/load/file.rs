//! One catalog file, read within the input budgets and handed on one document at a time: a
//! regular file (devices, FIFOs and sockets refused unopened) of at most 64 MiB, UTF-8, whose
//! nesting, values and alias expansion are measured in linear time before the parser runs; then
//! its YAML documents (`---`) or JSON values, parsed one at a time so that memory holds the file
//! and one document's tree, never the whole file's. Every refusal is an input error naming the
//! file (and the line, for YAML), the same for `graph`, `verify` and the catalog stage.

use std::path::Path;

use serde::Deserialize;
use serde_yaml_ng::Value;

use super::super::error::CatalogError;
use super::super::model::Origin;
use crate::archive::{Budget, Limits};
use olm_release_base::input;

/// The largest catalog file read.
pub(crate) const MAX_FILE: u64 = input::MAX_FILE_BYTES;

/// The bytes of the catalog file `rel` under `root`, checked: a regular file within
/// [`MAX_FILE`], UTF-8, within the nesting, value and alias budgets.
pub(crate) fn checked(root: &Path, rel: &str) -> Result<Vec<u8>, CatalogError> {
    let path = root.join(rel);
    let bytes = input::read(&path, MAX_FILE).map_err(|e| match e.kind() {
        std::io::ErrorKind::FileTooLarge | std::io::ErrorKind::InvalidInput => {
            CatalogError::Unreadable {
                file: rel.into(),
                message: e.to_string(),
            }
        }
        _ => CatalogError::io(&path, e),
    })?;
    let text = std::str::from_utf8(&bytes).map_err(|e| CatalogError::NotUtf8 {
        file: rel.into(),
        offset: e.valid_up_to(),
    })?;
    Budget::new(&Limits::default())
        .check(rel, text)
        .map_err(CatalogError::Budget)?;
    Ok(bytes)
}

/// Hands every document of `bytes` (the file `rel`) to `each` with its origin, in order; JSON
/// when the name ends in `.json`, else YAML. Empty YAML documents are skipped.
pub(crate) fn documents(
    rel: &str,
    bytes: &[u8],
    mut each: impl FnMut(Value, Origin) -> Result<(), CatalogError>,
) -> Result<(), CatalogError> {
    if rel.ends_with(".json") {
        let stream = serde_json::Deserializer::from_slice(bytes).into_iter::<Value>();
        for (i, doc) in stream.enumerate() {
            let document = i + 1;
            let value = doc.map_err(|source| CatalogError::Json {
                file: rel.into(),
                document,
                source,
            })?;
            each(value, Origin::new(rel, document))?;
        }
    } else {
        for (i, de) in serde_yaml_ng::Deserializer::from_slice(bytes).enumerate() {
            let document = i + 1;
            let value = Value::deserialize(de).map_err(|source| CatalogError::Yaml {
                file: rel.into(),
                document,
                source,
            })?;
            if !value.is_null() {
                each(value, Origin::new(rel, document))?;
            }
        }
    }
    Ok(())
}
