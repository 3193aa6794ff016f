//! Reading a bundle from untrusted bytes: gunzip and untar under limits, refusing unsafe
//! entries, then parse the flattened `bundle.yaml` or a manifest tree; and reading a bundle from
//! a folder or file on disk.

use std::io::Read;

use flate2::read::GzDecoder;
use serde_yaml_ng::Value;

use super::{Limits, sha256_hex};
use crate::olm::{Bundle, Manifest, PackageManifest, crd_file_name, csv_file_name};

/// Gunzips and reads an untrusted blob into its regular files, enforcing `limits`.
/// Returns (path, content) pairs, and the sha256 of the uncompressed tar.
pub fn unpack(gz: &[u8], limits: Limits) -> Result<(super::Files, String), String> {
    if gz.len() < 2 || gz[0] != 0x1f || gz[1] != 0x8b {
        return Err("the blob is not gzip data (no gzip magic bytes)".into());
    }
    let cap = limits
        .max_bytes
        .min((gz.len() as u64).saturating_mul(limits.max_ratio))
        .saturating_add(1);
    let mut tar_bytes = Vec::new();
    GzDecoder::new(gz)
        .take(cap)
        .read_to_end(&mut tar_bytes)
        .map_err(|e| format!("the blob is not valid gzip data (truncated or corrupt): {e}"))?;
    if tar_bytes.len() as u64 >= cap {
        return Err(format!(
            "the blob expands past the limit ({} bytes, ratio {}:1); refusing a possible gzip bomb",
            limits.max_bytes, limits.max_ratio
        ));
    }
    let digest = sha256_hex(&tar_bytes);
    let mut archive = tar::Archive::new(tar_bytes.as_slice());
    let mut files = Vec::new();
    let entries = archive
        .entries()
        .map_err(|e| format!("the blob is not a tar archive: {e}"))?;
    for (count, entry) in entries.enumerate() {
        let mut entry =
            entry.map_err(|e| format!("the tar archive is truncated or corrupt: {e}"))?;
        if count >= limits.max_entries {
            return Err(format!(
                "the archive has more than {} entries",
                limits.max_entries
            ));
        }
        let path = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        check_entry_path(&path)?;
        match entry.header().entry_type() {
            tar::EntryType::Regular | tar::EntryType::Continuous => {
                let mut content = Vec::new();
                entry
                    .read_to_end(&mut content)
                    .map_err(|e| format!("entry {path}: {e}"))?;
                files.push((path, content));
            }
            tar::EntryType::Directory => {}
            // pax/GNU metadata records that the tar crate folds into the next entry.
            tar::EntryType::XHeader
            | tar::EntryType::XGlobalHeader
            | tar::EntryType::GNULongName => {}
            other => {
                return Err(format!(
                    "entry {path}: refusing a {other:?} entry (only files and folders are allowed)"
                ));
            }
        }
    }
    Ok((files, digest))
}

/// Refuses absolute paths and `..` components.
fn check_entry_path(path: &str) -> Result<(), String> {
    if path.starts_with('/')
        || path.starts_with('\\')
        || path.contains(':') && path.chars().nth(1) == Some(':')
    {
        return Err(format!("entry {path}: absolute paths are not allowed"));
    }
    if path.split(['/', '\\']).any(|c| c == "..") {
        return Err(format!(
            "entry {path}: '..' is not allowed in an entry path"
        ));
    }
    Ok(())
}

/// Reads a bundle from the files of an unpacked blob: one file = flattened `bundle.yaml`,
/// several = a nested or flat manifest tree.
pub fn read_bundle(files: &[(String, Vec<u8>)]) -> Result<Bundle, String> {
    match files {
        [] => Err("the archive holds no files".into()),
        [(path, content)] => read_flattened(path, content),
        _ => read_tree(files),
    }
}

fn utf8<'a>(path: &str, content: &'a [u8]) -> Result<&'a str, String> {
    std::str::from_utf8(content).map_err(|_| format!("{path}: not UTF-8 text"))
}

/// Parses a flattened `bundle.yaml` (`data.*` are YAML strings holding lists).
pub fn read_flattened(path: &str, content: &[u8]) -> Result<Bundle, String> {
    let top = parse_flattened_top(path, utf8(path, content)?)?;
    let data = top
        .get("data")
        .ok_or_else(|| format!("{path}: no top-level 'data' key"))?;
    let list = |key: &str, required: bool| -> Result<Vec<Value>, String> {
        match data.get(key) {
            None | Some(Value::Null) if !required => Ok(Vec::new()),
            None | Some(Value::Null) => Err(format!("{path}: data.{key} is missing")),
            Some(Value::String(s)) => {
                match parse_flattened_list(&format!("{path}: data.{key}"), s)? {
                    Value::Sequence(items) => Ok(items),
                    Value::Null => Ok(Vec::new()),
                    _ => Err(format!("{path}: data.{key} must hold a YAML list")),
                }
            }
            Some(_) => Err(format!(
                "{path}: data.{key} must be a YAML string holding a list"
            )),
        }
    };
    let crds = list("customResourceDefinitions", false)?;
    let csvs = list("clusterServiceVersions", true)?;
    let mut packages = list("packages", true)?;
    if packages.len() != 1 {
        return Err(format!(
            "{path}: data.packages must hold exactly one package, found {}",
            packages.len()
        ));
    }
    let package: PackageManifest = serde_yaml_ng::from_value(packages.remove(0))
        .map_err(|e| format!("{path}: data.packages: {e}"))?;
    let named = |v: Value, kind: &str| {
        let m = Manifest::new("", v);
        let file = match kind {
            "csv" => csv_file_name(m.name().unwrap_or("unnamed")),
            _ => crd_file_name(&m),
        };
        Manifest { file, ..m }
    };
    Ok(Bundle {
        package,
        csvs: csvs.into_iter().map(|v| named(v, "csv")).collect(),
        crds: crds.into_iter().map(|v| named(v, "crd")).collect(),
    })
}

/// Parses a folder tree of manifests (flat or nested), classifying each YAML file by content.
fn read_tree(files: &[(String, Vec<u8>)]) -> Result<Bundle, String> {
    let mut package = None;
    let (mut csvs, mut crds) = (Vec::new(), Vec::new());
    let yaml: Vec<&(String, Vec<u8>)> = files
        .iter()
        .filter(|(p, _)| p.ends_with(".yaml") || p.ends_with(".yml"))
        .collect();
    let parsed = parse_all(&yaml);
    for ((path, _), doc) in yaml.into_iter().zip(parsed) {
        let doc = doc?;
        let file = path.rsplit('/').next().unwrap_or(path).to_string();
        if doc.get("packageName").is_some() {
            if package.is_some() {
                return Err(format!("{path}: a second package file"));
            }
            package = Some(
                serde_yaml_ng::from_value::<PackageManifest>(doc)
                    .map_err(|e| format!("{path}: {e}"))?,
            );
            continue;
        }
        match doc.get("kind").and_then(Value::as_str) {
            Some("ClusterServiceVersion") => csvs.push(Manifest::new(file, doc)),
            Some("CustomResourceDefinition") => {
                let m = Manifest::new(file, doc);
                if !crds.iter().any(|c: &Manifest| c.doc == m.doc) {
                    crds.push(m);
                }
            }
            _ => {}
        }
    }
    let package =
        package.ok_or("the archive holds no package file (a YAML file with packageName)")?;
    Ok(Bundle {
        package,
        csvs,
        crds,
    })
}

/// Parses the outer document of a flattened `bundle.yaml`: the fast reader when the text has
/// the shape this tool writes, else the general parser (same value either way).
pub fn parse_flattened_top(what: &str, text: &str) -> Result<Value, String> {
    match crate::olm::flat_yaml::read(text) {
        Some(v) => Ok(v),
        None => parse_single(what, text),
    }
}

/// Parses each file as one YAML document, on every core: a cumulative bundle's CSVs are
/// independent, and parsing them is most of the cost of reading a folder (issue 10).
fn parse_all(files: &[&(String, Vec<u8>)]) -> Vec<Result<Value, String>> {
    let one = |(path, content): &(String, Vec<u8>)| parse_single(path, utf8(path, content)?);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
    if threads < 2 || files.len() < 8 {
        return files.iter().map(|f| one(f)).collect();
    }
    let chunk = files.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let workers: Vec<_> = files
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(|f| one(f)).collect::<Vec<_>>()))
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    })
}

/// Parses one `data.*` string of a flattened bundle (a YAML list): item by item when it has
/// the emitter's shape, else as one document (same value either way).
pub fn parse_flattened_list(what: &str, text: &str) -> Result<Value, String> {
    match crate::olm::flat_yaml::read_list(text) {
        Some(items) => Ok(Value::Sequence(items)),
        None => parse_single(what, text),
    }
}

/// Parses exactly one YAML document; several documents are refused.
pub fn parse_single<T: serde::de::DeserializeOwned>(what: &str, text: &str) -> Result<T, String> {
    let mut docs = serde_yaml_ng::Deserializer::from_str(text);
    let first = docs
        .next()
        .ok_or_else(|| format!("{what}: empty document"))?;
    let value = T::deserialize(first).map_err(|e| format!("{what}: {e}"))?;
    if docs.next().is_some() {
        return Err(format!("{what}: holds more than one YAML document"));
    }
    Ok(value)
}

/// Reads a bundle from a path: a folder (flat or nested tree), a flattened `bundle.yaml`, or a
/// `.tar.gz`.
pub fn read_path(path: &std::path::Path) -> Result<Bundle, String> {
    let shown = path.display().to_string();
    if path.is_dir() {
        return read_dir_with(path, |csv| (csv, ())).map(|(bundle, _)| bundle);
    }
    let bytes = std::fs::read(path).map_err(|e| format!("{shown}: {e}"))?;
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let (files, _) = unpack(&bytes, Limits::default()).map_err(|e| format!("{shown}: {e}"))?;
        return read_bundle(&files).map_err(|e| format!("{shown}: {e}"));
    }
    read_flattened(&shown, &bytes)
}

/// The sha256 of the tar inside `gz`, streamed (the tar is never held in memory), under the
/// same size limits as [`unpack`].
pub fn tar_digest(gz: &[u8], limits: Limits) -> Result<String, String> {
    use sha2::{Digest, Sha256};
    let cap = limits
        .max_bytes
        .min((gz.len() as u64).saturating_mul(limits.max_ratio))
        .saturating_add(1);
    let mut reader = GzDecoder::new(gz).take(cap);
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 64 * 1024];
    let mut total = 0u64;
    loop {
        let n = reader
            .read(&mut buf)
            .map_err(|e| format!("the blob is not valid gzip data (truncated or corrupt): {e}"))?;
        if n == 0 {
            break;
        }
        total += n as u64;
        hasher.update(&buf[..n]);
    }
    if total >= cap {
        return Err(format!(
            "the blob expands past the limit ({} bytes, ratio {}:1); refusing a possible gzip bomb",
            limits.max_bytes, limits.max_ratio
        ));
    }
    Ok(hex::encode(hasher.finalize()))
}

/// One file of a folder, read and classified.
enum Item<T> {
    Package(PackageManifest),
    Csv(Manifest, T),
    Crd(Manifest),
    Other,
}

/// Reads a bundle folder (flat or nested) a few files at a time, on every core, handing each
/// CSV to `visit` as soon as it is parsed; `visit` returns what to keep of it (e.g. a skeleton)
/// and something of its own (e.g. findings). A cumulative bundle of hundreds of CSVs thus never
/// has to be held parsed whole. Files are visited in the same order, and classified by the same
/// rules, as [`read_path`] does.
pub fn read_dir_with<T: Send>(
    dir: &std::path::Path,
    visit: impl Fn(Manifest) -> (Manifest, T) + Sync,
) -> Result<(Bundle, Vec<T>), String> {
    let shown = dir.display().to_string();
    let mut paths = Vec::new();
    list_dir(dir, dir, &mut paths).map_err(|e| format!("{shown}: {e}"))?;
    paths.sort();
    paths.retain(|(rel, _)| rel.ends_with(".yaml") || rel.ends_with(".yml"));
    let read_one = |(rel, path): &(String, std::path::PathBuf)| -> Result<Item<T>, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{shown}/{rel}: {e}"))?;
        let doc: Value = parse_single(rel, utf8(rel, &bytes)?)?;
        let file = rel.rsplit('/').next().unwrap_or(rel).to_string();
        if doc.get("packageName").is_some() {
            return serde_yaml_ng::from_value::<PackageManifest>(doc)
                .map(Item::Package)
                .map_err(|e| format!("{rel}: {e}"));
        }
        Ok(match doc.get("kind").and_then(Value::as_str) {
            Some("ClusterServiceVersion") => {
                let (kept, extra) = visit(Manifest::new(file, doc));
                Item::Csv(kept, extra)
            }
            Some("CustomResourceDefinition") => Item::Crd(Manifest::new(file, doc)),
            _ => Item::Other,
        })
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
    let mut package = None;
    let (mut csvs, mut crds, mut extras) = (Vec::new(), Vec::new(), Vec::new());
    for batch in paths.chunks(threads * 2) {
        let items: Vec<Result<Item<T>, String>> = if threads < 2 || batch.len() < 2 {
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
        for ((rel, _), item) in batch.iter().zip(items) {
            match item.map_err(|e| format!("{shown}: {e}"))? {
                Item::Package(p) => {
                    if package.replace(p).is_some() {
                        return Err(format!("{shown}: {rel}: a second package file"));
                    }
                }
                Item::Csv(m, extra) => {
                    csvs.push(m);
                    extras.push(extra);
                }
                Item::Crd(m) => {
                    if !crds.iter().any(|c: &Manifest| c.doc == m.doc) {
                        crds.push(m);
                    }
                }
                Item::Other => {}
            }
        }
    }
    let package = package.ok_or_else(|| {
        format!("{shown}: the folder holds no package file (a YAML file with packageName)")
    })?;
    Ok((
        Bundle {
            package,
            csvs,
            crds,
        },
        extras,
    ))
}

/// Every regular file under `dir`: (path relative to `root`, full path).
fn list_dir(
    root: &std::path::Path,
    dir: &std::path::Path,
    out: &mut Vec<(String, std::path::PathBuf)>,
) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let kind = entry.file_type()?;
        if kind.is_dir() {
            list_dir(root, &path, out)?;
        } else if kind.is_file() {
            let rel = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .to_string_lossy()
                .replace('\\', "/");
            out.push((rel, path));
        }
    }
    Ok(())
}
