//! Writing a bundle: the files of a layout, the flattened `bundle.yaml`, and the reproducible
//! `.tar.gz` (sorted entries, fixed modes, owner 0, a given mtime, no gzip name or time).

use std::collections::BTreeMap;
use std::io::Write;

use flate2::Compression;
use flate2::write::GzEncoder;
use serde_yaml_ng::{Mapping, Value};

use super::{Layout, Packed, sha256_hex};
use crate::olm::{Bundle, Manifest, crd_file_name, csv_file_name};

/// The files of a bundle in `layout`, as (path inside the tar, content), sorted by path.
pub fn bundle_files(bundle: &Bundle, layout: Layout) -> Result<Vec<(String, Vec<u8>)>, String> {
    let root = &bundle.package.package_name;
    let mut files = BTreeMap::new();
    match layout {
        Layout::Flat => {
            files.insert(format!("{root}/bundle.yaml"), flatten(bundle)?.into_bytes());
        }
        Layout::Nested => {
            files.insert(
                format!("{root}/{}", bundle.package.file_name()),
                to_yaml(&bundle.package)?.into_bytes(),
            );
            for csv in &bundle.csvs {
                let version = csv
                    .spec_version()
                    .ok_or_else(|| format!("{}: CSV has no spec.version", csv.file))?;
                let name = csv
                    .name()
                    .ok_or_else(|| format!("{}: CSV has no metadata.name", csv.file))?;
                files.insert(
                    format!("{root}/{version}/{}", csv_file_name(name)),
                    to_yaml(&csv.doc)?.into_bytes(),
                );
                for crd in owned_crds(bundle, csv) {
                    files.insert(
                        format!("{root}/{version}/{}", crd_file_name(crd)),
                        to_yaml(&crd.doc)?.into_bytes(),
                    );
                }
            }
        }
    }
    Ok(files.into_iter().collect())
}

/// The CRDs of `bundle` that `csv` lists as owned.
fn owned_crds<'a>(bundle: &'a Bundle, csv: &Manifest) -> Vec<&'a Manifest> {
    let owned: Vec<&str> = crate::olm::value_at(&csv.doc, "spec.customresourcedefinitions.owned")
        .and_then(Value::as_sequence)
        .map(|s| {
            s.iter()
                .filter_map(|o| o.get("name").and_then(Value::as_str))
                .collect()
        })
        .unwrap_or_default();
    bundle
        .crds
        .iter()
        .filter(|c| c.name().is_some_and(|n| owned.contains(&n)))
        .collect()
}

fn to_yaml<T: serde::Serialize>(v: &T) -> Result<String, String> {
    crate::olm::yaml::to_string_of(v)
}

/// The flattened `bundle.yaml` text.
pub fn flatten(bundle: &Bundle) -> Result<String, String> {
    let docs = |ms: &[Manifest]| to_yaml(&ms.iter().map(|m| &m.doc).collect::<Vec<_>>());
    let entries = [
        ("customResourceDefinitions", docs(&bundle.crds)?),
        ("clusterServiceVersions", docs(&bundle.csvs)?),
        ("packages", to_yaml(&[&bundle.package])?),
    ];
    let borrowed = entries.each_ref().map(|(k, v)| (*k, v.as_str()));
    // The same bytes as the general emitter below, without running megabytes through it.
    if let Some(text) = crate::olm::flat_yaml::emit(&borrowed) {
        return Ok(text);
    }
    let mut data = Mapping::new();
    for (key, value) in entries {
        data.insert(key.into(), Value::String(value));
    }
    let mut top = Mapping::new();
    top.insert("data".into(), Value::Mapping(data));
    to_yaml(&top)
}

/// Packs files into a reproducible `.tar.gz`.
pub fn pack(files: &[(String, Vec<u8>)], mtime: u64) -> Result<Packed, String> {
    let mut tar = tar::Builder::new(Vec::new());
    let mut dirs: Vec<String> = Vec::new();
    let mut sorted: Vec<&(String, Vec<u8>)> = files.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    for (path, content) in sorted {
        // Parent folders first, each once, so extractors recreate them with fixed modes.
        let mut prefix = String::new();
        for part in path
            .split('/')
            .collect::<Vec<_>>()
            .split_last()
            .map(|(_, d)| d)
            .unwrap_or(&[])
        {
            prefix.push_str(part);
            prefix.push('/');
            if !dirs.contains(&prefix) {
                dirs.push(prefix.clone());
                append(
                    &mut tar,
                    &prefix,
                    &[],
                    tar::EntryType::Directory,
                    0o755,
                    mtime,
                )?;
            }
        }
        append(
            &mut tar,
            path,
            content,
            tar::EntryType::Regular,
            0o644,
            mtime,
        )?;
    }
    let tar_bytes = tar.into_inner().map_err(|e| e.to_string())?;
    let mut gz = GzEncoder::new(Vec::new(), Compression::default());
    gz.write_all(&tar_bytes).map_err(|e| e.to_string())?;
    let gz = gz.finish().map_err(|e| e.to_string())?;
    Ok(Packed {
        digest: sha256_hex(&tar_bytes),
        gz_digest: sha256_hex(&gz),
        tar_size: tar_bytes.len() as u64,
        gz,
    })
}

fn append(
    tar: &mut tar::Builder<Vec<u8>>,
    path: &str,
    content: &[u8],
    kind: tar::EntryType,
    mode: u32,
    mtime: u64,
) -> Result<(), String> {
    let mut header = tar::Header::new_ustar();
    header.set_entry_type(kind);
    header.set_mode(mode);
    header.set_uid(0);
    header.set_gid(0);
    header.set_mtime(mtime);
    header.set_size(content.len() as u64);
    tar.append_data(&mut header, path, content)
        .map_err(|e| format!("{path}: {e}"))
}
