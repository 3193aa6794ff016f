//! Loading what is verified into the bundles the checks see, reporting every file-level problem
//! as a finding instead of stopping.
//!
//! Manifests are found by what they are, never by their file names (`csv.yaml`,
//! `packages.yaml` and `etcdoperator.v0.9.0.yaml` are all fine): a mapping with `packageName`
//! is the package, `kind` says CSV, CRD or another object, as operator-courier and
//! operator-registry classify them. A folder that directly holds a CSV is a *bundle folder*.
//! When only the root is one, the input is a flat bundle (every CSV and CRD side by side, as
//! olm-release publishes them); when a subfolder is one, it is a package-manifest tree (the
//! package file at the top, one folder per version, as operator-registry and courier's nested
//! mode read it), and each version folder is checked as a bundle of its own, the folders
//! together only for the package and the upgrade graph. A version folder may also be a
//! registry+v1 bundle (`manifests/` beside `metadata/annotations.yaml`); the annotations stand
//! in for a missing package file.
//!
//! [`parse`] reads YAML as the consumers do (a repeated key is a warning, not a lost file);
//! [`flattened`] reads an app-registry `bundle.yaml`.

mod courier;
mod flattened;
mod metadata;
pub mod parse;
mod walk;

use serde_yaml_ng::Value;

use super::rules;
use super::sink::{At, Sink};
use crate::{DocKind, Manifest, PackageManifest, doc_kind};

pub use flattened::flattened;
pub use walk::read_dir;

/// The manifests of one bundle folder.
#[derive(Debug, Default)]
pub(crate) struct Folder {
    /// The folder, relative to what was verified (`""`: its root).
    pub(crate) path: String,
    pub(crate) csvs: Vec<Manifest>,
    pub(crate) crds: Vec<Manifest>,
    /// Every other object (ServiceAccount, Role, PodDisruptionBudget, ...).
    pub(crate) objects: Vec<Manifest>,
}

/// What was loaded: the package (and the file it came from) and the bundle folders.
#[derive(Debug, Default)]
pub struct Loaded {
    /// `None`: no package (already reported).
    pub(crate) package: Option<(String, PackageManifest)>,
    pub(crate) folders: Vec<Folder>,
    /// A tree of version folders (each a bundle), not one flat bundle.
    pub(crate) nested: bool,
}

/// Drops the one top-level folder every tar entry sits in (courier's `<repo>-<random>/`, our
/// `<package>/`), so paths read like a bundle folder.
pub(crate) fn strip_top_folder(files: Vec<(String, Vec<u8>)>) -> Vec<(String, Vec<u8>)> {
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

/// What a YAML document is.
enum Kind {
    Package,
    /// A mapping with `channels` and no `packageName`: a package file missing its name.
    NamelessPackage,
    Csv,
    Crd,
    Object,
    /// A registry+v1 bundle's `metadata/annotations.yaml`.
    BundleMetadata,
    Other,
}

/// [`DocKind`], the classification every bundle reader shares, plus what only verification
/// tells apart: a package file missing its name and a registry+v1 bundle's annotations.
fn classify(doc: &Value) -> Kind {
    match doc_kind(doc) {
        DocKind::Package => Kind::Package,
        DocKind::Csv => Kind::Csv,
        DocKind::Crd => Kind::Crd,
        DocKind::Object => Kind::Object,
        DocKind::Other
            if !doc.is_mapping() || doc.get("kind").and_then(Value::as_str).is_some() =>
        {
            Kind::Other
        }
        DocKind::Other if doc.get("channels").is_some_and(Value::is_sequence) => {
            Kind::NamelessPackage
        }
        DocKind::Other
            if doc
                .get("annotations")
                .and_then(|a| a.get(PACKAGE_ANNOTATION))
                .is_some() =>
        {
            Kind::BundleMetadata
        }
        DocKind::Other => Kind::Other,
    }
}

const PACKAGE_ANNOTATION: &str = "operators.operatorframework.io.bundle.package.v1";
const CHANNELS_ANNOTATION: &str = "operators.operatorframework.io.bundle.channels.v1";
const DEFAULT_ANNOTATION: &str = "operators.operatorframework.io.bundle.channel.default.v1";

/// The folder part of a path (`""` for the root).
fn parent(path: &str) -> &str {
    path.trim_end_matches('/')
        .rsplit_once('/')
        .map_or("", |(d, _)| d)
}

/// A registry+v1 bundle folder's `bundle.Dockerfile`, beside its `metadata/annotations.yaml`:
/// the image recipe operator-registry's `docs/design/operator-bundle.md` describes, which
/// `operator-sdk generate bundle` and olm-release's bundle stage write. Not a stray file.
fn is_bundle_recipe(path: &str, files: &[(String, Vec<u8>)]) -> bool {
    let Some(dir) = path.strip_suffix("bundle.Dockerfile") else {
        return false;
    };
    (dir.is_empty() || dir.ends_with('/'))
        && files
            .iter()
            .any(|(p, _)| p.strip_prefix(dir) == Some("metadata/annotations.yaml"))
}

/// Whether `folder` is `ancestor` or inside it.
fn within(folder: &str, ancestor: &str) -> bool {
    ancestor.is_empty() || folder == ancestor || folder.starts_with(&format!("{ancestor}/"))
}

/// One parsed manifest document and where it came from.
struct Doc {
    path: String,
    doc: Value,
    kind: Kind,
}

/// Parses every YAML file; reports what cannot be read, repeated keys and extra documents.
/// What parsing found: the documents, the other files, the files that are not YAML and the
/// files holding several documents (each with why, and whether any but the first holds
/// something).
type Parsed = (
    Vec<Doc>,
    Vec<String>,
    Vec<(String, String)>,
    Vec<(String, String, bool)>,
);

fn parse_files(files: &[(String, Vec<u8>)], sink: &mut Sink) -> Parsed {
    let mut docs = Vec::new();
    let mut other = Vec::new();
    let mut broken = Vec::new();
    let mut several = Vec::new();
    for (path, bytes) in files {
        let yaml = path.ends_with(".yaml") || path.ends_with(".yml");
        let hidden = path.split('/').any(|c| c.starts_with('.'));
        if !yaml || hidden {
            other.push(path.clone());
            continue;
        }
        let at = At::new(path, "(file)");
        let Ok(text) = std::str::from_utf8(bytes) else {
            broken.push((path.clone(), "is not UTF-8 text".to_string()));
            continue;
        };
        let parsed = match parse::documents(text) {
            Ok(p) => p,
            Err(e) => {
                broken.push((path.clone(), format!("is not valid YAML: {e}")));
                continue;
            }
        };
        for key in &parsed.repeated {
            let msg = "repeats this key; the last value is used, as PyYAML and go-yaml do";
            sink.add(&rules::YAML_DUPLICATE_KEY, &at, key, msg);
        }
        if parsed.docs.len() > 1 {
            let why = format!(
                "holds {} YAML documents; courier reads one per file (PyYAML refuses a stream of several)",
                parsed.docs.len()
            );
            several.push((path.clone(), why, true));
        } else if parsed.in_stream > 1 {
            let why = "ends in an empty YAML document (a '---' with nothing after it); courier reads one document per file and PyYAML refuses a stream of two".to_string();
            several.push((path.clone(), why, false));
        }
        for doc in parsed.docs {
            let kind = classify(&doc);
            docs.push(Doc {
                path: path.clone(),
                doc,
                kind,
            });
        }
    }
    (docs, other, broken, several)
}

/// Loads a manifest tree (a folder, or a tar with several files).
pub(crate) fn tree(files: &[(String, Vec<u8>)], sink: &mut Sink) -> Loaded {
    let (docs, other, broken, several) = parse_files(files, sink);
    // Bundle folders: the folders that directly hold a CSV.
    let mut bundles: Vec<String> = docs
        .iter()
        .filter(|d| matches!(d.kind, Kind::Csv))
        .map(|d| parent(&d.path).to_string())
        .collect();
    bundles.sort();
    bundles.dedup();
    let nested = bundles.iter().any(|b| !b.is_empty());
    if nested {
        bundles.retain(|b| !b.is_empty());
        courier::check_nested(&bundles, sink);
    }
    // The bundle folder a path belongs to directly, or the one it sits inside of.
    let home = |path: &str| -> (Option<usize>, bool) {
        let dir = parent(path);
        if let Some(i) = bundles.iter().position(|b| b == dir) {
            return (Some(i), true);
        }
        let inside = bundles.iter().position(|b| within(dir, b));
        (inside, false)
    };
    let stray = |path: &str, msg: &str, sink: &mut Sink| {
        sink.add(&rules::FILE_STRAY, &At::new(path, "(file)"), "", msg);
    };
    // courier parses every YAML file of the root and of its folders; deeper ones only matter
    // in a bundle folder.
    let read = |path: &str| path.matches('/').count() <= 1 || home(path).1;
    for (path, why, lost) in several.iter().filter(|(p, _, _)| read(p)) {
        let at = At::new(path, "(file)");
        // An empty trailing document loses nothing; only courier (PyYAML) refuses it.
        if *lost {
            sink.add(&rules::FILE_DOCUMENTS, &at, "", why.as_str());
        } else if rules::tools(sink.opts).contains(&rules::Tool::Courier) {
            let fix = "remove the '---' at the end of the file";
            sink.add_fix(&rules::FILE_DOCUMENTS, &at, "", why.as_str(), fix);
        }
    }
    for (path, why) in &broken {
        if read(path) {
            sink.add(
                &rules::FILE_YAML,
                &At::new(path, "(file)"),
                "",
                why.as_str(),
            );
        } else {
            stray(
                path,
                &format!("{why}; it is outside every bundle folder, so nothing reads it"),
                sink,
            );
        }
    }
    for path in &other {
        let name = path.trim_end_matches('/').rsplit('/').next().unwrap_or("");
        match home(path) {
            (Some(_), _) if name.starts_with('.') => sink.add(
                &rules::FILE_LAYOUT,
                &At::new(path, "(file)"),
                "",
                "is hidden inside a bundle folder; operator-framework/api refuses hidden files there",
            ),
            _ if path.ends_with('/') => {}
            _ if is_bundle_recipe(path, files) => {}
            _ => stray(path, "is not a YAML manifest; nothing reads it", sink),
        }
    }
    // Subfolders inside a bundle folder (other than nested bundle folders).
    let mut reported = Vec::new();
    for (path, _) in files {
        let dir = parent(path);
        if let (Some(i), false) = home(path) {
            let sub = &dir[bundles[i].len()..].trim_start_matches('/');
            let first = sub.split('/').next().unwrap_or("");
            let shown = if bundles[i].is_empty() {
                first.to_string()
            } else {
                format!("{}/{first}", bundles[i])
            };
            let is_bundle = bundles.iter().any(|b| within(b, &shown));
            if !is_bundle && !reported.contains(&shown) {
                let msg = "is a folder inside a bundle folder; operator-framework/api refuses subfolders there and courier ignores them";
                sink.add(&rules::FILE_LAYOUT, &At::new(&shown, "(folder)"), "", msg);
                reported.push(shown);
            }
        }
    }

    let mut folders: Vec<Folder> = bundles
        .iter()
        .map(|b| Folder {
            path: b.clone(),
            ..Folder::default()
        })
        .collect();
    let mut packages: Vec<(String, Value, bool)> = Vec::new();
    let mut metadata: Vec<(String, Value)> = Vec::new();
    for d in docs {
        let at = At::new(&d.path, "(file)");
        let root = !d.path.contains('/');
        match d.kind {
            Kind::Package | Kind::NamelessPackage if root => {
                packages.push((d.path.clone(), d.doc, matches!(d.kind, Kind::Package)));
            }
            Kind::Package | Kind::NamelessPackage => stray(
                &d.path,
                "is a package file outside the root folder; courier and the registry ignore it",
                sink,
            ),
            Kind::BundleMetadata => metadata.push((d.path, d.doc)),
            Kind::Other => {
                let msg = "is no package (packageName), CSV, CRD or Kubernetes object (apiVersion and kind); courier and the registry skip it";
                sink.add(&rules::FILE_UNKNOWN, &at, "", msg);
            }
            Kind::Csv | Kind::Crd | Kind::Object => {
                let (Some(i), true) = home(&d.path) else {
                    // operator-sdk's scorecard configuration sits beside a registry+v1
                    // bundle's manifests/ (bundle/tests/scorecard/config.yaml): the bundle
                    // image carries it and `operator-sdk scorecard` reads it.
                    if beside_manifests(&d.path, &bundles) {
                        continue;
                    }
                    let msg = if nested && root && matches!(d.kind, Kind::Csv) {
                        "is a CSV in the root of a tree of version folders; courier and the registry read only the version folders"
                    } else {
                        "is outside every bundle folder (a folder holding a CSV); nothing reads it"
                    };
                    stray(&d.path, msg, sink);
                    continue;
                };
                let m = Manifest::new(d.path, d.doc);
                let f = &mut folders[i];
                match d.kind {
                    Kind::Csv => f.csvs.push(m),
                    Kind::Crd => f.crds.push(m),
                    // Checked with the folder's unit (`objects`), as every path checks them.
                    _ => f.objects.push(m),
                }
            }
        }
    }
    if folders.is_empty() {
        let at = At::new("(bundle)", "(bundle)");
        sink.add(
            &rules::BUNDLE_CSV,
            &at,
            "",
            "holds no ClusterServiceVersion",
        );
    }
    let package = metadata::root_package(packages, &metadata, &folders, sink);
    Loaded {
        package,
        folders,
        nested,
    }
}

/// Whether `path` is under `tests/scorecard/` beside a bundle folder named `manifests`.
fn beside_manifests(path: &str, bundles: &[String]) -> bool {
    bundles.iter().any(|b| {
        let Some(root) = b.strip_suffix("manifests") else {
            return false;
        };
        (root.is_empty() || root.ends_with('/'))
            && path
                .strip_prefix(root)
                .is_some_and(|rest| rest.starts_with("tests/scorecard/"))
    })
}
