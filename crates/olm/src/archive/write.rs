//! Writing a bundle: the files of a layout, the flattened `bundle.yaml`, the reproducible
//! `.tar.gz` (sorted entries, fixed modes, owner 0, a given mtime, no gzip name or time), and
//! the flat folder that people and `operator-courier verify` read.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::Path;

use flate2::Compression;
use flate2::write::GzEncoder;
use serde_yaml_ng::{Mapping, Value};

use sha2::{Digest, Sha256};

use super::error::WriteError;
use super::model::{Layout, Packed};
use crate::{Bundle, Manifest, crd_file_name, csv_file_name};
use olm_release_base::digest::sha256_hex;

/// The files of a bundle in `layout`, as (path inside the tar, content), sorted by path.
pub fn bundle_files(bundle: &Bundle, layout: Layout) -> Result<Vec<(String, Vec<u8>)>, WriteError> {
    let root = &bundle.package.package_name;
    let mut files = BTreeMap::new();
    match layout {
        Layout::Flat => {
            files.insert(format!("{root}/bundle.yaml"), flatten(bundle)?.into_bytes());
        }
        Layout::Nested => {
            files.insert(
                format!("{root}/{}", bundle.package.file_name()),
                to_yaml("the package file", &bundle.package)?.into_bytes(),
            );
            for csv in &bundle.csvs {
                let missing = |field| WriteError::MissingField {
                    file: csv.file.clone(),
                    field,
                };
                let version = csv.spec_version().ok_or_else(|| missing("spec.version"))?;
                let name = csv.name().ok_or_else(|| missing("metadata.name"))?;
                files.insert(
                    format!("{root}/{version}/{}", csv_file_name(name)),
                    olm_release_base::yaml::to_string(&csv.doc).into_bytes(),
                );
                for crd in owned_crds(bundle, csv) {
                    files.insert(
                        format!("{root}/{version}/{}", crd_file_name(crd)),
                        olm_release_base::yaml::to_string(&crd.doc).into_bytes(),
                    );
                }
            }
        }
    }
    Ok(files.into_iter().collect())
}

/// The CRDs of `bundle` that `csv` lists as owned.
fn owned_crds<'a>(bundle: &'a Bundle, csv: &Manifest) -> Vec<&'a Manifest> {
    let owned: Vec<&str> = crate::value_at(&csv.doc, "spec.customresourcedefinitions.owned")
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

fn to_yaml<T: serde::Serialize>(what: &'static str, v: &T) -> Result<String, WriteError> {
    olm_release_base::yaml::to_string_of(v).map_err(|source| WriteError::Serialize { what, source })
}

/// The flattened `bundle.yaml` text.
pub fn flatten(bundle: &Bundle) -> Result<String, WriteError> {
    let csvs = crate::canonical_csv_order(&bundle.csvs)
        .into_iter()
        .map(|i| &bundle.csvs[i].doc)
        .collect::<Vec<_>>();
    flatten_parts(
        &bundle.crds,
        olm_release_base::yaml::sequence_to_string(&csvs),
        &bundle.package,
    )
}

/// The flattened `bundle.yaml` from its parts, the CSV list already written as YAML (the
/// concatenation of each CSV's [`csv_list_item`], in [`crate::canonical_csv_order`]), so
/// CSVs can be serialised as they are read. CRDs are written in
/// [`crate::canonical_crd_order`].
pub fn flatten_parts(
    crds: &[Manifest],
    csv_list: String,
    package: &crate::PackageManifest,
) -> Result<String, WriteError> {
    let crds = crate::canonical_crd_order(crds)
        .into_iter()
        .map(|i| &crds[i].doc)
        .collect::<Vec<_>>();
    let entries = [
        (
            "customResourceDefinitions",
            olm_release_base::yaml::sequence_to_string(&crds),
        ),
        ("clusterServiceVersions", csv_list),
        ("packages", to_yaml("the package file", &[package])?),
    ];
    let borrowed = entries.each_ref().map(|(k, v)| (*k, v.as_str()));
    // The same bytes as the general emitter below, without running megabytes through it.
    if let Some(text) = crate::flat_yaml::emit(&borrowed) {
        return Ok(text);
    }
    let mut data = Mapping::new();
    for (key, value) in entries {
        data.insert(key.into(), Value::String(value));
    }
    let mut top = Mapping::new();
    top.insert("data".into(), Value::Mapping(data));
    to_yaml("bundle.yaml", &top)
}

/// One CSV as an item of the flattened CSV list; the list of several is their concatenation
/// (and `[]` when there are none).
pub fn csv_list_item(csv: &Manifest) -> String {
    olm_release_base::yaml::sequence_to_string(&[&csv.doc])
}

/// Packs files into a reproducible `.tar.gz`.
pub fn pack(files: &[(String, Vec<u8>)], mtime: u64) -> Result<Packed, WriteError> {
    // The tar is streamed through the hasher into the compressor, so the uncompressed tar is
    // never held in memory.
    let sink = Hashing::new(GzEncoder::new(Vec::new(), Compression::default()));
    let mut tar = tar::Builder::new(sink);
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
    let end = |source| WriteError::Tar {
        path: "(end of archive)".into(),
        source,
    };
    let sink = tar.into_inner().map_err(end)?;
    let (digest, tar_size, gz) = sink.finish();
    let gz = gz.finish().map_err(end)?;
    Ok(Packed {
        digest,
        gz_digest: sha256_hex(&gz),
        tar_size,
        gz,
    })
}

/// A writer that hashes (sha256) and counts what passes through it.
struct Hashing<W> {
    inner: W,
    hasher: Sha256,
    len: u64,
}

impl<W: Write> Hashing<W> {
    fn new(inner: W) -> Self {
        Hashing {
            inner,
            hasher: Sha256::new(),
            len: 0,
        }
    }

    /// The hex digest and byte count of what was written, and the inner writer.
    fn finish(self) -> (String, u64, W) {
        (hex::encode(self.hasher.finalize()), self.len, self.inner)
    }
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.len += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

fn append<W: Write>(
    tar: &mut tar::Builder<W>,
    path: &str,
    content: &[u8],
    kind: tar::EntryType,
    mode: u32,
    mtime: u64,
) -> Result<(), WriteError> {
    let mut header = tar::Header::new_ustar();
    header.set_entry_type(kind);
    header.set_mode(mode);
    header.set_uid(0);
    header.set_gid(0);
    header.set_mtime(mtime);
    header.set_size(content.len() as u64);
    tar.append_data(&mut header, path, content)
        .map_err(|source| WriteError::Tar {
            path: path.to_string(),
            source,
        })
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
    // Every file name first: all collisions at once, each with the files it came from.
    let mut names: Vec<(String, Vec<String>)> = Vec::new();
    let mut add = |name: String, from: &str| match names.iter_mut().find(|(n, _)| *n == name) {
        Some((_, f)) => f.push(from.to_string()),
        None => names.push((name, vec![from.to_string()])),
    };
    for csv in &bundle.csvs {
        add(csv_file_name(csv.name().unwrap_or("unnamed")), &csv.file);
    }
    for crd in &bundle.crds {
        add(crd_file_name(crd), &crd.file);
    }
    let twice: Vec<(String, Vec<String>)> =
        names.into_iter().filter(|(_, f)| f.len() > 1).collect();
    if !twice.is_empty() {
        return Err(WriteError::SameName { names: twice });
    }
    fs::create_dir_all(dir).map_err(io(dir))?;
    let write = |name: String, text: String| -> Result<(), WriteError> {
        let path = dir.join(&name);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Manifest, PackageManifest};

    fn crd(file: &str, name: &str) -> Manifest {
        let doc = serde_yaml_ng::from_str(&format!(
            "kind: CustomResourceDefinition\nmetadata: {{name: {name}}}\nspec: {{version: v1}}\n"
        ))
        .unwrap();
        Manifest::new(file, doc)
    }

    #[test]
    fn every_name_taken_twice_is_named_with_its_files_before_anything_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("bundle");
        let bundle = Bundle {
            package: PackageManifest {
                package_name: "p".into(),
                channels: Vec::new(),
                default_channel: None,
            },
            csvs: Vec::new(),
            crds: vec![
                crd("a.yaml", "kafkas.kafka.strimzi.io"),
                crd("b.yaml", "kafkas.kafka.strimzi.io"),
                crd("c.yaml", "topics.kafka.strimzi.io"),
                crd("d.yaml", "topics.kafka.strimzi.io"),
                crd("e.yaml", "users.kafka.strimzi.io"),
            ],
        };
        let err = write_folder(&bundle, &out).unwrap_err().to_string();
        assert_eq!(
            err,
            "2 bundle files would each be written more than once: kafkas.kafka.strimzi.io.v1.crd.yaml (from a.yaml and b.yaml); topics.kafka.strimzi.io.v1.crd.yaml (from c.yaml and d.yaml); give the CSVs (or CRDs) distinct metadata.name values, or keep one copy of each"
        );
        assert!(!out.exists(), "nothing written");
    }
}
