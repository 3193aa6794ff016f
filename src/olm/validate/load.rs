//! Loading what is verified: a folder's files, a flattened `bundle.yaml`, or an unpacked tar,
//! into a [`Bundle`], reporting every file-level problem as a finding instead of stopping
//! (checklist rules 21 and 24: one YAML document per file, file names, only `.yaml`, no hidden
//! files, no stray folders). Files are classified by content the way courier and the registry
//! loaders do: `packageName` → the package, `kind` → CSV or CRD, anything else is ignored with
//! a warning.
//!
//! Layouts: a flat folder holds everything in its root; a nested one holds the package in the
//! root and one folder per version, each with a CSV (courier's rule: a folder is a version
//! folder when it directly holds a CSV). In a nested tree the same CRD appears in several
//! version folders; the newest folder's copy is kept.

use std::path::Path;

use serde_yaml_ng::Value;

use super::{At, Sink, package, rules};
use crate::olm::{Bundle, Manifest, PackageManifest, archive, crd_file_name, csv_file_name};

/// A loaded bundle and the file its package came from (`None`: no package file, already
/// reported).
#[derive(Debug, Default)]
pub struct Loaded {
    pub bundle: Option<Bundle>,
    pub package_file: Option<String>,
}

/// Every file under `dir` (hidden ones included, so they can be reported), as (relative path
/// with `/`, bytes), sorted by path.
pub fn read_dir(dir: &Path) -> std::io::Result<Vec<(String, Vec<u8>)>> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) -> std::io::Result<()> {
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            let meta = std::fs::metadata(&path)?;
            if meta.is_dir() {
                walk(root, &path, out)?;
            } else if meta.is_file() {
                let rel = path.strip_prefix(root).unwrap_or(&path);
                let rel = rel.to_string_lossy().replace('\\', "/");
                out.push((rel, std::fs::read(&path)?));
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out)?;
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// Drops the one top-level folder every tar entry sits in (courier's `<repo>-<random>/`, our
/// `<package>/`), so paths read like a bundle folder.
pub fn strip_top_folder(files: Vec<(String, Vec<u8>)>) -> Vec<(String, Vec<u8>)> {
    let top = |p: &str| p.split_once('/').map(|(t, _)| t.to_string());
    let Some(first) = files.first().and_then(|(p, _)| top(p)) else {
        return files;
    };
    if !files.iter().all(|(p, _)| top(p).as_deref() == Some(&first)) {
        return files;
    }
    files
        .into_iter()
        .map(|(p, c)| (p[first.len() + 1..].to_string(), c))
        .collect()
}

/// Parses every YAML document of a file; reports parse errors and extra documents.
fn parse_docs(path: &str, bytes: &[u8], sink: &mut Sink) -> Option<Value> {
    let at = At::new(path, "(file)");
    let Ok(text) = std::str::from_utf8(bytes) else {
        sink.add(&rules::FILE_YAML, &at, "", "is not UTF-8 text");
        return None;
    };
    // The first manifest document (package, CSV or CRD) stands for the file, so one stray
    // extra document does not hide the file's manifest from the other checks.
    let mut first: Option<Value> = None;
    let mut count = 0;
    for doc in serde_yaml_ng::Deserializer::from_str(text) {
        match <Value as serde::Deserialize>::deserialize(doc) {
            Ok(v) => {
                count += 1;
                let better = first.as_ref().is_none_or(|f| {
                    matches!(classify(f), Kind::Other) && !matches!(classify(&v), Kind::Other)
                });
                if better {
                    first = Some(v);
                }
            }
            Err(e) => {
                sink.add(
                    &rules::FILE_YAML,
                    &at,
                    "",
                    format!("is not valid YAML: {e}"),
                );
                return None;
            }
        }
    }
    if count > 1 {
        sink.add(
            &rules::FILE_YAML,
            &at,
            "",
            format!("holds {count} YAML documents; courier and the registry read one per file"),
        );
    }
    first
}

enum Kind {
    Package,
    Csv,
    Crd,
    Other,
}

fn classify(doc: &Value) -> Kind {
    if doc.get("packageName").is_some() {
        return Kind::Package;
    }
    match doc.get("kind").and_then(Value::as_str) {
        Some("ClusterServiceVersion") => Kind::Csv,
        Some("CustomResourceDefinition") => Kind::Crd,
        _ => Kind::Other,
    }
}

/// Loads a manifest tree (a folder, or a tar with several files).
pub fn tree(files: &[(String, Vec<u8>)], sink: &mut Sink) -> Loaded {
    let layout = |path: &str, msg: &str, sink: &mut Sink| {
        sink.add(&rules::FILE_LAYOUT, &At::new(path, "(file)"), "", msg);
    };
    let mut parsed = Vec::new();
    for (path, bytes) in files {
        if path.split('/').any(|c| c.starts_with('.')) {
            layout(
                path,
                "is hidden; a bundle folder holds only manifests",
                sink,
            );
            continue;
        }
        if !(path.ends_with(".yaml") || path.ends_with(".yml")) {
            layout(
                path,
                "is not a .yaml file; courier and the registry ignore it",
                sink,
            );
            continue;
        }
        if path.matches('/').count() > 1 {
            layout(path, "is nested two folders deep; nothing reads it", sink);
            continue;
        }
        if let Some(doc) = parse_docs(path, bytes, sink) {
            let kind = classify(&doc);
            parsed.push((path.as_str(), doc, kind));
        }
    }
    // Version folders: folders that directly hold a CSV (courier's nested mode).
    let mut folders: Vec<&str> = parsed
        .iter()
        .filter(|(_, _, k)| matches!(k, Kind::Csv))
        .filter_map(|(p, _, _)| p.split_once('/').map(|(d, _)| d))
        .collect();
    folders.sort_by(|a, b| folder_order(b).cmp(&folder_order(a)));
    folders.dedup();
    let nested = !folders.is_empty();
    // Newest version folder first, so the newest copy of a CRD wins.
    let rank = |p: &str| match p.split_once('/') {
        Some((d, _)) => folders.iter().position(|f| *f == d).unwrap_or(usize::MAX),
        None => usize::MAX,
    };
    parsed.sort_by_key(|(p, _, _)| rank(p));

    let mut package: Option<(String, PackageManifest)> = None;
    let (mut csvs, mut crds) = (Vec::new(), Vec::<Manifest>::new());
    for (path, doc, kind) in parsed {
        let in_folder = path.contains('/');
        let at = At::new(path, "(file)");
        match kind {
            Kind::Package => {
                if in_folder {
                    layout(
                        path,
                        "a package file belongs in the bundle's root folder",
                        sink,
                    );
                }
                if !path.ends_with(".package.yaml") {
                    layout(
                        path,
                        "a package file's name must end in .package.yaml",
                        sink,
                    );
                }
                if let Some((first, _)) = &package {
                    let msg = format!(
                        "a second package file ({first} is the first); a bundle holds one package"
                    );
                    sink.add(&rules::PACKAGE, &at, "packageName", msg);
                    continue;
                }
                package = Some((path.to_string(), package::parse(&doc, path, sink)));
            }
            Kind::Csv => {
                if nested && !in_folder {
                    layout(
                        path,
                        "a CSV in the root of a nested bundle is ignored; move it into its version folder",
                        sink,
                    );
                }
                let name = path.rsplit('/').next().unwrap_or(path);
                if !(name.ends_with(".clusterserviceversion.yaml")
                    || name.ends_with(".clusterserviceversion.yml"))
                {
                    layout(
                        path,
                        "a CSV file's name must end in .clusterserviceversion.yaml",
                        sink,
                    );
                }
                csvs.push(Manifest::new(path, doc));
            }
            Kind::Crd => {
                if in_folder && !nested {
                    layout(
                        path,
                        "is in a subfolder of a flat bundle; nothing reads it",
                        sink,
                    );
                    continue;
                }
                let m = Manifest::new(path, doc);
                if nested
                    && crds
                        .iter()
                        .any(|c| c.name().is_some() && c.name() == m.name())
                {
                    continue;
                }
                crds.push(m);
            }
            Kind::Other => {
                let msg = "is not a package, CSV or CRD; courier and the registry ignore it";
                sink.add(&rules::FILE_UNKNOWN, &at, "kind", msg);
            }
        }
    }
    if csvs.is_empty() {
        let at = At::new("(bundle)", "(bundle)");
        sink.add(&rules::PACKAGE, &at, "", "holds no ClusterServiceVersion");
    }
    finish(package, csvs, crds, sink)
}

/// Sort key of a version folder: its SemVer when it is one, else the name.
fn folder_order(name: &str) -> (Option<semver::Version>, &str) {
    (semver::Version::parse(name).ok(), name)
}

fn finish(
    package: Option<(String, PackageManifest)>,
    csvs: Vec<Manifest>,
    crds: Vec<Manifest>,
    sink: &mut Sink,
) -> Loaded {
    let (package_file, package) = match package {
        Some((file, p)) => (Some(file), p),
        None => {
            let at = At::new("(bundle)", "(bundle)");
            sink.add(
                &rules::PACKAGE,
                &at,
                "",
                "holds no package file (a YAML file with packageName)",
            );
            (
                None,
                PackageManifest {
                    package_name: String::new(),
                    channels: Vec::new(),
                    default_channel: None,
                },
            )
        }
    };
    Loaded {
        bundle: Some(Bundle {
            package,
            csvs,
            crds,
        }),
        package_file,
    }
}

/// Loads a flattened `bundle.yaml`: `data.customResourceDefinitions`,
/// `data.clusterServiceVersions` and `data.packages`, each a YAML string holding a list.
pub fn flattened(name: &str, bytes: &[u8], sink: &mut Sink) -> Loaded {
    let at = At::new(name, "bundle");
    let format = |field: &str, msg: String, sink: &mut Sink| {
        sink.add(&rules::BUNDLE_FORMAT, &at, field, msg);
    };
    let top: Value = match std::str::from_utf8(bytes)
        .map_err(|_| "is not UTF-8 text".to_string())
        .and_then(|t| archive::parse_flattened_top(name, t))
    {
        Ok(v) => v,
        Err(e) => {
            format("", e, sink);
            return Loaded::default();
        }
    };
    let Some(data) = top.get("data") else {
        format("data", "has no top-level data key".into(), sink);
        return Loaded::default();
    };
    let list = |key: &str, required: bool, sink: &mut Sink| -> Vec<Value> {
        let field = format!("data.{key}");
        let items = match data.get(key) {
            None | Some(Value::Null) => {
                if required {
                    format(&field, "is missing".into(), sink);
                }
                return Vec::new();
            }
            Some(Value::String(s)) => match archive::parse_flattened_list(&field, s) {
                Ok(v) => v,
                Err(e) => {
                    format(&field, e, sink);
                    return Vec::new();
                }
            },
            Some(other) => {
                format(
                    &field,
                    "must be a YAML string holding a list (consumers parse the string)".into(),
                    sink,
                );
                other.clone()
            }
        };
        match items {
            Value::Sequence(items) => items,
            Value::Null => Vec::new(),
            _ => {
                format(&field, "must hold a YAML list".into(), sink);
                Vec::new()
            }
        }
    };
    let crds = list("customResourceDefinitions", false, sink);
    let csvs = list("clusterServiceVersions", true, sink);
    let packages = list("packages", true, sink);
    let named = |v: Value, csv: bool| {
        let m = Manifest::new("", v);
        let file = if csv {
            csv_file_name(m.name().unwrap_or("unnamed"))
        } else {
            crd_file_name(&m)
        };
        Manifest { file, ..m }
    };
    let csvs: Vec<Manifest> = csvs.into_iter().map(|v| named(v, true)).collect();
    let crds = crds.into_iter().map(|v| named(v, false)).collect();
    if csvs.is_empty() {
        sink.add(
            &rules::PACKAGE,
            &at,
            "data.clusterServiceVersions",
            "holds no ClusterServiceVersion",
        );
    }
    if packages.len() > 1 {
        let msg = format!(
            "holds {} packages; a bundle holds exactly one",
            packages.len()
        );
        sink.add(&rules::PACKAGE, &at, "data.packages", msg);
    }
    let package = packages.first().map(|doc| {
        let p = package::parse(doc, name, sink);
        (p.file_name(), p)
    });
    finish(package, csvs, crds, sink)
}
