//! A package-manifest tree as a history of releases: the package file at the top and one
//! folder per version (operator-sdk's `deploy/olm-catalog/<package>/<version>/`), read back as
//! the cumulative bundle the app registry would have served right after each version was
//! published.
//!
//! Release `v` holds every CSV of the versions up to `v` as the tree has them (`replaces`,
//! `skips` and all), each CRD once (the newest version folder's copy), and the tree's package
//! file trimmed to what exists at `v`: a channel's head is the newest CSV of its chain (walked
//! from the tree's `currentCSV` through `replaces`, as operator-registry walks it) that is
//! published by then, or when none is, the newest published CSV the chain skips; a channel with
//! none is left out, and `defaultChannel` falls back to the
//! first channel left when its own is not there yet. The version's folder's other objects
//! (RBAC, ConfigMaps, …) are kept beside it, for verification.
//!
//! What no release can carry is set aside when the tree is read, for the import to say so: a
//! version folder whose CSV no channel reaches (neither a chain from a `currentCSV` through
//! `replaces` nor a CSV such a chain skips) is left out of the history, and a channel whose
//! `currentCSV` is in no version folder is left out of every release. YAML is read as `verify`
//! and the tools that consume it read it (a repeated key: the last value wins, which `verify`
//! reports as a warning).
//!
//! A community package folder (`operators/<package>/` of OperatorHub's catalogs: `ci.yaml`, one
//! registry+v1 bundle folder per version, channels in each version's annotations) is read as
//! the same history by [`crate::community::read_history`] (its package file built from the
//! annotations), which reads either layout.
//!
//! The tree is untrusted input read within the bundle [`Limits`] (`--max-bundle-bytes`): each
//! version folder (and the top of the tree) is one bundle, so its YAML files together must fit
//! the bundle size and have a parse budget of their own (nesting, values, aliases, measured
//! before the YAML parser runs), and the tree as a whole must fit [`TREE_FACTOR`] times the
//! bundle size (1 GiB at the default) and the entry limit. The largest package of
//! community-operators-prod is 216 MB in 45 versions, its largest version folder 6.5 MiB (an
//! operator shipping its CRDs' full schemas), so real histories fit the defaults while a single
//! runaway folder is still stopped at the bundle size. Every file is
//! opened through [`olm_release_base::input`] (regular files only, bounded reads), so a FIFO or a
//! device in the tree is refused without being opened.

use std::cell::Cell;
use std::path::{Path, PathBuf};

use semver::Version;
use serde_yaml_ng::Value;

use super::archive::{Budget, Limits, ReadError};
use super::{Bundle, DocKind, Manifest, PackageManifest, doc_kind};
use olm_release_base::input;

/// One version folder of the tree.
#[derive(Debug, Clone)]
pub struct VersionFolder {
    /// The CSV's `spec.version`, parsed as SemVer.
    pub version: Version,
    /// The folder, as found under the tree.
    pub dir: PathBuf,
    pub(crate) csv: Manifest,
    pub(crate) crds: Vec<Manifest>,
    /// The folder's other objects (RBAC, ConfigMaps, …), which the release of this version
    /// carries beside its CSV and verification checks.
    pub objects: Vec<Manifest>,
}

/// The tree: its package file and its version folders in SemVer order.
#[derive(Debug, Clone)]
pub struct Tree {
    pub(crate) package: PackageManifest,
    /// The version folders that hold a CSV some channel reaches, in ascending SemVer order.
    pub versions: Vec<VersionFolder>,
    /// The version folders whose CSV no channel reaches (left out of the history): the folder,
    /// and the CSV's name.
    pub left_out: Vec<(PathBuf, String)>,
    /// The channels whose `currentCSV` is in no version folder (left out of every release):
    /// the channel and its `currentCSV`.
    pub headless: Vec<(String, String)>,
    /// Read from a community package folder (each version folder a registry+v1 bundle).
    pub community: bool,
}

/// The tree's YAML files together may hold this many times the bundle size.
pub const TREE_FACTOR: u64 = 16;

/// What reading one tree may still use: bytes, files and the parse budget of `limits`.
struct Allowance<'a> {
    tree: &'a Path,
    limits: &'a Limits,
    budget: std::cell::RefCell<Budget>,
    bytes: Cell<u64>,
    /// Bytes of the version folder being read.
    folder: Cell<u64>,
    files: Cell<usize>,
}

/// Reads a package-manifest tree within `limits`.
pub fn read(tree: &Path, limits: &Limits) -> Result<Tree, String> {
    let shown = tree.display();
    let left = Allowance {
        tree,
        limits,
        budget: std::cell::RefCell::new(Budget::new(limits)),
        bytes: Cell::new(0),
        folder: Cell::new(0),
        files: Cell::new(0),
    };
    let mut package = None;
    let mut versions = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(tree)
        .map_err(|e| format!("{shown}: {e}"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if let Some(v) = read_version(&path, &left)? {
                versions.push(v);
            }
            left.folder.set(0);
            *left.budget.borrow_mut() = Budget::new(limits);
            continue;
        }
        for doc in left.yaml_docs(&path)? {
            if doc.get("packageName").is_some() {
                let p: PackageManifest = serde_yaml_ng::from_value(doc)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                if package.replace(p).is_some() {
                    return Err(format!("{shown}: more than one package file at the top"));
                }
            }
        }
    }
    let package = package.ok_or_else(|| {
        format!("{shown}: no package file (a YAML file with packageName) at the top of the tree")
    })?;
    if versions.is_empty() {
        return Err(format!("{shown}: no version folder holding a CSV"));
    }
    versions.sort_by(|a, b| a.version.cmp(&b.version));
    for w in versions.windows(2) {
        if w[0].version == w[1].version {
            return Err(format!(
                "{} and {} hold the same version {}",
                w[0].dir.display(),
                w[1].dir.display(),
                w[0].version
            ));
        }
    }
    let (versions, left_out, headless) = on_channels(&package, versions);
    if versions.is_empty() {
        return Err(format!(
            "{shown}: no channel of the package file reaches the CSV of any version folder"
        ));
    }
    Ok(Tree {
        package,
        versions,
        left_out,
        headless,
        community: false,
    })
}

/// The version folders some channel reaches, those none does, and the channels whose head is
/// in no folder, as operator-registry's package-manifest loader builds the channels: each
/// channel's entries are its chain from `currentCSV` through `replaces` and the CSVs they skip.
pub(crate) type OnChannels = (
    Vec<VersionFolder>,
    Vec<(PathBuf, String)>,
    Vec<(String, String)>,
);

pub(crate) fn on_channels(package: &PackageManifest, versions: Vec<VersionFolder>) -> OnChannels {
    let full = Bundle {
        package: package.clone(),
        csvs: versions.iter().map(|v| v.csv.clone()).collect(),
        crds: Vec::new(),
    };
    let graph = super::graph::Graph::new(&full);
    let mut reached = std::collections::BTreeSet::new();
    let mut headless = Vec::new();
    for c in &package.channels {
        if graph.index(&c.current_csv).is_none() {
            headless.push((c.name.clone(), c.current_csv.clone()));
            continue;
        }
        reached.extend(graph.channel_content(&graph.walk(&c.current_csv)));
    }
    let (mut kept, mut left_out) = (Vec::new(), Vec::new());
    for (i, v) in versions.into_iter().enumerate() {
        if reached.contains(&i) {
            kept.push(v);
        } else {
            let name = v.csv.name().unwrap_or("?").to_string();
            left_out.push((v.dir, name));
        }
    }
    (kept, left_out, headless)
}

impl Tree {
    /// The bundle the registry serves once the `upto`-th version (0-based) is published.
    pub fn bundle_at(&self, upto: usize) -> Bundle {
        let published = &self.versions[..=upto];
        let csvs: Vec<Manifest> = published.iter().rev().map(|v| v.csv.clone()).collect();
        let mut crds: Vec<Manifest> = Vec::new();
        for v in published.iter().rev() {
            for crd in &v.crds {
                if !crds.iter().any(|c| c.name() == crd.name()) {
                    crds.push(crd.clone());
                }
            }
        }
        let full = Bundle {
            package: self.package.clone(),
            csvs: self.versions.iter().map(|v| v.csv.clone()).collect(),
            crds: Vec::new(),
        };
        let graph = super::graph::Graph::new(&full);
        let mut package = self.package.clone();
        package.channels.retain_mut(|c| {
            // The newest published CSV of the chain; when none is published yet, the newest
            // published CSV the chain skips (a history whose first versions are only skipped).
            let chain = graph.walk(&c.current_csv);
            let head = chain
                .members
                .iter()
                .copied()
                .find(|&i| i <= upto)
                .or_else(|| {
                    let skipped = graph.channel_content(&chain).into_iter();
                    skipped.filter(|&i| i <= upto).max()
                });
            match head {
                Some(i) => {
                    c.current_csv = graph.name(i).to_string();
                    true
                }
                None => false,
            }
        });
        if let Some(d) = &package.default_channel
            && package.channel(d).is_none()
        {
            package.default_channel = package.channels.first().map(|c| c.name.clone());
        }
        if package.channels.len() == 1 && self.package.default_channel.is_none() {
            package.default_channel = None;
        }
        Bundle {
            package,
            csvs,
            crds,
        }
    }
}

fn read_version(dir: &Path, left: &Allowance) -> Result<Option<VersionFolder>, String> {
    // A version folder is one bundle: its own size and parse budget.
    left.folder.set(0);
    *left.budget.borrow_mut() = Budget::new(left.limits);
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
        .collect();
    files.sort();
    let (mut csv, mut crds, mut objects) = (None, Vec::new(), Vec::new());
    for path in files {
        let file = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for doc in left.yaml_docs(&path)? {
            match doc_kind(&doc) {
                DocKind::Csv if csv.is_some() => {
                    return Err(format!("{}: more than one CSV", dir.display()));
                }
                DocKind::Csv => csv = Some(Manifest::new(&file, doc)),
                DocKind::Crd => crds.push(Manifest::new(&file, doc)),
                DocKind::Object => objects.push(Manifest::new(&file, doc)),
                DocKind::Package | DocKind::Other => {}
            }
        }
    }
    let Some(csv) = csv else { return Ok(None) };
    let version = csv.semver().ok_or_else(|| {
        format!(
            "{}: the CSV's spec.version is not SemVer",
            dir.join(&csv.file).display()
        )
    })?;
    Ok(Some(VersionFolder {
        version,
        dir: dir.to_path_buf(),
        csv,
        crds,
        objects,
    }))
}

impl Allowance<'_> {
    /// The documents of a `.yaml`/`.yml` file (nothing for other files, which are not opened),
    /// read and measured within what is left.
    fn yaml_docs(&self, path: &Path) -> Result<Vec<Value>, String> {
        let name = path.to_string_lossy();
        if !(name.ends_with(".yaml") || name.ends_with(".yml")) {
            return Ok(Vec::new());
        }
        let whole = |e: ReadError| e.within(self.tree.display().to_string()).to_string();
        let files = self.files.get() + 1;
        if files > self.limits.max_entries {
            return Err(whole(ReadError::TooManyEntries {
                what: "the tree's YAML files".into(),
                limit: self.limits.max_entries,
            }));
        }
        self.files.set(files);
        let (used, in_folder) = (self.bytes.get(), self.folder.get());
        let whole = self.limits.max_bytes.saturating_mul(TREE_FACTOR);
        let cap = (self.limits.max_bytes - in_folder).min(whole - used);
        let bytes = input::read(path, cap).map_err(|e| {
            if e.kind() == std::io::ErrorKind::FileTooLarge && cap < self.limits.max_bytes - in_folder {
                format!(
                    "{}: the tree's YAML files together pass {TREE_FACTOR} times the bundle size limit, {whole} bytes (at {name}); raise it with --max-bundle-bytes if the history is really that large",
                    self.tree.display(),
                )
            } else if e.kind() == std::io::ErrorKind::FileTooLarge {
                format!(
                    "{}: the YAML files of one version folder together pass the bundle size limit of {} bytes (at {name}); raise it with --max-bundle-bytes if the bundle is really that large",
                    self.tree.display(),
                    self.limits.max_bytes
                )
            } else {
                ReadError::io(name.to_string(), e).to_string()
            }
        })?;
        self.bytes.set(used + bytes.len() as u64);
        self.folder.set(in_folder + bytes.len() as u64);
        let text = std::str::from_utf8(&bytes).map_err(|_| {
            ReadError::NotText {
                file: name.to_string(),
            }
            .to_string()
        })?;
        self.budget
            .borrow()
            .check(&name, text)
            .map_err(|e| e.to_string())?;
        let parsed =
            crate::validate::load::parse::documents(text).map_err(|e| format!("{name}: {e}"))?;
        Ok(parsed.docs.into_iter().filter(|v| !v.is_null()).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_release_is_cumulative_and_its_package_trimmed() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/widget-operator");
        let tree = read(&root, &Limits::default()).unwrap();
        let versions: Vec<String> = tree
            .versions
            .iter()
            .map(|v| v.version.to_string())
            .collect();
        assert_eq!(versions, ["0.1.0", "0.2.0", "0.3.0"]);
        let first = tree.bundle_at(0);
        assert_eq!(first.csvs.len(), 1);
        assert_eq!(first.crds.len(), 1);
        let heads: Vec<(&str, &str)> = first
            .package
            .channels
            .iter()
            .map(|c| (c.name.as_str(), c.current_csv.as_str()))
            .collect();
        assert_eq!(
            heads,
            [
                ("stable", "widget-operator.v0.1.0"),
                ("fast", "widget-operator.v0.1.0")
            ]
        );
        let second = tree.bundle_at(1);
        assert_eq!(second.csvs[0].name(), Some("widget-operator.v0.2.0"));
        assert_eq!(second.csvs[0].replaces(), Some("widget-operator.v0.1.0"));
        assert_eq!(second.package.default_channel.as_deref(), Some("stable"));
    }
}
