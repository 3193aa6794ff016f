//! Bundles a repository already holds, each with a complete CSV: registry+v1 bundle folders
//! (`manifests/` beside `metadata/annotations.yaml`, as `operator-sdk generate bundle` writes
//! `bundle/`) and the version folders of an operator-sdk `deploy/olm-catalog/<package>/` tree,
//! which may mix package-manifest folders (the CSV and CRDs side by side) and registry+v1 ones
//! (HCO's 1.3.0 onwards).
//!
//! Of one package, the newest bundle by SemVer is the one to release from (`1.20.0` after
//! `1.3.0`, never by name order); copies of that version elsewhere (HCO's `deploy/index-image/`)
//! are named, not taken; a package's flavours (`bundle/community`, `bundle/openshift`) are
//! bundles of their own ([`super::flavours`]). A registry+v1 folder's annotations give the package, its channels and
//! default channel (operator-registry's `docs/design/operator-bundle.md`); a package-manifest
//! folder's come from the tree's package file (the channels whose `currentCSV` is that CSV).

use semver::Version;
use serde_yaml_ng::Value;

use super::found::Found;
use super::parts;
use super::scan::{Scan, YamlFile, str_at};
use super::templates;
use olm_release_olm::bundle_image::folder::SUPPORTED_KINDS;

const PACKAGE: &str = "operators.operatorframework.io.bundle.package.v1";
const CHANNELS: &str = "operators.operatorframework.io.bundle.channels.v1";
const DEFAULT: &str = "operators.operatorframework.io.bundle.channel.default.v1";

/// How a bundle folder is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    /// `manifests/` + `metadata/annotations.yaml`.
    RegistryV1,
    /// One folder with the CSV, its CRDs and other objects (and a package file one level up).
    PackageManifest,
}

/// A bundle with a complete CSV.
#[derive(Debug, Clone)]
pub(crate) struct BundleDir {
    /// The folder whose files form the bundle (`bundle/manifests`, `…/1.2.0`).
    pub files: String,
    /// The bundle's own folder (`bundle`, `…/1.20.0`).
    pub root: String,
    pub format: Format,
    pub version: Version,
    /// The CSV file.
    pub csv: String,
    pub package: Option<String>,
    pub channels: Vec<String>,
    pub default_channel: Option<String>,
    /// Where the package and channels were read.
    pub from: String,
    /// The operator-sdk tree holding it (the package file's folder), if any.
    pub tree: Option<String>,
    /// `metadata/dependencies.yaml` beside the annotations, if any.
    pub dependencies: Option<String>,
    /// `metadata/properties.yaml` beside the annotations (`olm.maxOpenShiftVersion`, …), if any.
    pub properties: Option<String>,
    /// Other folders holding this same version of the package, not taken.
    pub copies: Vec<String>,
    /// How many bundles the package has in the repository (this one included).
    pub versions: usize,
}

/// Whether `b` is a flavour folder: a registry+v1 bundle outside an operator-sdk tree whose
/// path starts with a `bundle*` folder and is not a version folder.
pub(crate) fn is_flavour(b: &BundleDir) -> bool {
    b.format == Format::RegistryV1
        && b.tree.is_none()
        && b.root
            .split('/')
            .next()
            .is_some_and(|first| first.starts_with("bundle"))
        && semver::Version::parse(
            b.root
                .rsplit('/')
                .next()
                .unwrap_or("")
                .trim_start_matches('v'),
        )
        .is_err()
}

/// The newest bundle of each package, packages in order of their folders.
pub(crate) fn find(scan: &Scan) -> Vec<BundleDir> {
    let mut all: Vec<BundleDir> = scan
        .own()
        .filter(|f| !f.is_template() && f.has_kind("ClusterServiceVersion"))
        .filter_map(|csv| registry_v1(scan, csv).or_else(|| package_manifest(scan, csv)))
        .collect();
    // Newest first; of equal versions, one in a tree, then the shallowest.
    all.sort_by(|a, b| {
        b.version
            .cmp(&a.version)
            .then(b.tree.is_some().cmp(&a.tree.is_some()))
            .then(
                a.root
                    .matches('/')
                    .count()
                    .cmp(&b.root.matches('/').count()),
            )
            .then(a.root.cmp(&b.root))
    });
    let mut out: Vec<BundleDir> = Vec::new();
    // A package's flavours (`bundle/community`, `bundle/openshift`) are bundles of their own.
    let key = |b: &BundleDir| {
        (
            b.package.clone().or_else(|| b.tree.clone()),
            is_flavour(b).then(|| b.root.clone()),
        )
    };
    for b in all {
        let k = key(&b);
        match out.iter_mut().find(|o| key(o) == k) {
            Some(newest) => {
                newest.versions += 1;
                if newest.version == b.version {
                    newest.copies.push(b.root);
                }
            }
            None => out.push(b),
        }
    }
    out.sort_by(|a, b| a.root.cmp(&b.root));
    out
}

fn csv_version(csv: &YamlFile) -> Option<Version> {
    let doc = csv.of_kind("ClusterServiceVersion").next()?;
    Version::parse(str_at(doc, &["spec", "version"])?.trim_start_matches('v')).ok()
}

fn folder_version(dir: &str) -> Option<Version> {
    let name = dir.rsplit('/').next()?;
    Version::parse(name.trim_start_matches('v')).ok()
}

fn parent(dir: &str) -> &str {
    dir.rsplit_once('/').map_or("", |(p, _)| p)
}

fn registry_v1(scan: &Scan, csv: &YamlFile) -> Option<BundleDir> {
    let files = csv.dir();
    if files.rsplit('/').next() != Some("manifests") {
        return None;
    }
    let root = parent(files);
    let join = |rel: &str| {
        if root.is_empty() {
            rel.to_string()
        } else {
            format!("{root}/{rel}")
        }
    };
    let annotations = scan.file(&join("metadata/annotations.yaml"))?;
    let map = annotations.docs.first()?.get("annotations")?;
    let get = |key: &str| map.get(key).and_then(Value::as_str).map(str::trim);
    let version = csv_version(csv).or_else(|| folder_version(root))?;
    let tree = Some(parent(root).to_string()).filter(|t| has_package_file(scan, t));
    Some(BundleDir {
        files: files.to_string(),
        root: root.to_string(),
        format: Format::RegistryV1,
        version,
        csv: csv.rel.clone(),
        package: get(PACKAGE).map(str::to_string),
        channels: get(CHANNELS)
            .map(|c| {
                c.split(',')
                    .map(str::trim)
                    .filter(|c| !c.is_empty())
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default(),
        default_channel: get(DEFAULT).map(str::to_string),
        from: annotations.rel.clone(),
        tree,
        dependencies: scan
            .file(&join("metadata/dependencies.yaml"))
            .map(|f| f.rel.clone()),
        properties: scan
            .file(&join("metadata/properties.yaml"))
            .map(|f| f.rel.clone()),
        copies: Vec::new(),
        versions: 1,
    })
}

fn has_package_file(scan: &Scan, dir: &str) -> bool {
    scan.own().any(|f| f.dir() == dir && f.is_package())
}

fn package_manifest(scan: &Scan, csv: &YamlFile) -> Option<BundleDir> {
    let dir = csv.dir();
    let folder = folder_version(dir)?;
    let tree = parent(dir);
    let package = scan
        .own()
        .find(|f| f.dir() == tree && f.docs.iter().any(|d| d.get("packageName").is_some()))?;
    let doc = package
        .docs
        .iter()
        .find(|d| d.get("packageName").is_some())?;
    let name = csv
        .of_kind("ClusterServiceVersion")
        .next()
        .and_then(|d| str_at(d, &["metadata", "name"]));
    let channels: Vec<String> = doc
        .get("channels")
        .and_then(Value::as_sequence)
        .into_iter()
        .flatten()
        .filter(|c| name.is_some() && str_at(c, &["currentCSV"]) == name)
        .filter_map(|c| str_at(c, &["name"]).map(str::to_string))
        .collect();
    let default = str_at(doc, &["defaultChannel"]).map(str::to_string);
    let channels = match channels.is_empty() {
        true => default.iter().cloned().collect(),
        false => channels,
    };
    Some(BundleDir {
        files: dir.to_string(),
        root: dir.to_string(),
        format: Format::PackageManifest,
        version: csv_version(csv).unwrap_or(folder),
        csv: csv.rel.clone(),
        package: str_at(doc, &["packageName"]).map(str::to_string),
        default_channel: default
            .filter(|d| channels.contains(d))
            .or_else(|| channels.first().cloned()),
        channels,
        from: package.rel.clone(),
        tree: Some(tree.to_string()),
        dependencies: None,
        properties: None,
        copies: Vec::new(),
        versions: 1,
    })
}

/// Reads the chosen bundle into `found`: its package and channels, its complete CSV (the
/// images whose tag holds its version follow the release), each CRD once (copies elsewhere in
/// the repository named), its other objects and its dependencies.
pub(crate) fn read(scan: &Scan, b: &BundleDir, found: &mut Found) {
    if let Some(p) = &b.package {
        found.package = Some((p.clone(), b.from.clone()));
    }
    found.channels = b.channels.clone();
    found.default_channel = b.default_channel.clone();
    found.complete_csv = true;
    found.csv = Some(b.csv.clone());
    if let Some(csv) = scan.file(&b.csv) {
        found.csv_name = templates::csv_name(&csv.text);
        if let Some(doc) = csv.of_kind("ClusterServiceVersion").next() {
            let containers = super::images::of_csv(doc);
            found.images = super::images::follow_version(&containers, Some(&b.version));
            found.todo.extend(super::images::placeholders(&containers));
        }
    }
    if let (Some(tree), Some(pkg)) = (&b.tree, &b.package)
        && b.format == Format::RegistryV1
        && let Some(file) = scan.own().find(|f| f.dir() == tree && f.is_package())
        && let Some(stale) = file
            .docs
            .iter()
            .find_map(|d| str_at(d, &["defaultChannel"]))
            .filter(|d| Some(*d) != b.default_channel.as_deref())
    {
        found.notes.push(format!(
            "package {pkg}: channels from {}, the newest bundle's; {} names default channel {stale}, not {}",
            b.from,
            file.rel,
            b.default_channel.as_deref().unwrap_or("-")
        ));
    }
    if !b.copies.is_empty() {
        found.notes.push(format!(
            "version {} taken from {}/; not taken: {} (the same version)",
            b.version,
            b.root,
            super::plain::some(&b.copies)
        ));
    }
    let inside = |rel: &str| rel.rsplit_once('/').map_or("", |(d, _)| d) == b.files;
    found.crds = parts::crds(scan.own(), |f| usize::from(!inside(f)))
        .into_iter()
        .filter(|c| inside(&c.file))
        .collect();
    for f in scan.own().filter(|f| inside(&f.rel) && f.rel != b.csv) {
        if f.only_kinds(&["CustomResourceDefinition"]) {
            continue;
        }
        if !f.is_template() && f.only_kinds(SUPPORTED_KINDS) {
            found.objects.push(f.rel.clone());
        } else {
            found.notes.push(format!(
                "{}: not a kind OLM installs from a bundle; not taken",
                f.rel
            ));
        }
    }
    found.dependencies = b.dependencies.clone();
    found.properties = b.properties.clone();
}
