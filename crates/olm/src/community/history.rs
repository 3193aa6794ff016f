//! A community package folder as a package-manifest history ([`crate::history::Tree`]), for
//! `publish --history` to the app registry: the package file the layout has no file for is
//! built from the versions' annotations (each channel's head is the newest version in it, the
//! default channel the newest version's), and a CSV that names no `replaces` replaces the
//! previous version (by SemVer) that shares a channel with it, as the community pipeline's
//! `semver-mode` built the graph (community-operators `docs/operator-ci-yaml.md`), so every
//! version is on a channel's chain. A CSV's own `replaces` and `skips` are kept as written,
//! but for a package whose `ci.yaml` says `semver-mode`, where every CSV replaces the previous
//! version, as the community pipeline's `opm index add --mode semver` did.

use std::collections::BTreeMap;
use std::path::Path;

use super::model::{CommunityPackage, VersionBundle};
use crate::archive::Limits;
use crate::history::{Tree, VersionFolder, on_channels};
use crate::{Channel, DocKind, PackageManifest, doc_kind};

/// The package file of `pkg`.
fn package_file(pkg: &CommunityPackage) -> PackageManifest {
    let mut heads: BTreeMap<&str, &VersionBundle> = BTreeMap::new();
    let mut order: Vec<&str> = Vec::new();
    for v in &pkg.versions {
        for c in &v.channels {
            if !heads.contains_key(c.as_str()) {
                order.push(c);
            }
            heads.insert(c, v);
        }
    }
    PackageManifest {
        package_name: pkg.package.clone(),
        channels: order
            .iter()
            .map(|c| Channel {
                name: c.to_string(),
                current_csv: heads[c].name().to_string(),
            })
            .collect(),
        default_channel: pkg.default_channel().map(str::to_string),
    }
}

/// The version folders of `pkg` under `tree`, in SemVer order, each CSV without `replaces`
/// chained to the previous version sharing a channel.
fn version_folders(tree: &Path, pkg: &CommunityPackage) -> Vec<VersionFolder> {
    let mut out: Vec<VersionFolder> = Vec::new();
    for (i, v) in pkg.versions.iter().enumerate() {
        let mut csv = v.csv.clone();
        if csv.replaces().is_none() || pkg.semver_mode() {
            let previous = pkg.versions[..i]
                .iter()
                .rev()
                .find(|p| p.channels.iter().any(|c| v.channels.contains(c)));
            if let Some(p) = previous {
                csv.set_replaces(Some(p.name()));
            }
        }
        let (crds, objects) = v
            .objects
            .iter()
            .cloned()
            .partition(|m| doc_kind(&m.doc) == DocKind::Crd);
        out.push(VersionFolder {
            version: v.version.clone(),
            dir: tree.join(&v.folder),
            csv,
            crds,
            objects,
        });
    }
    out
}

/// Whether the top of `tree` holds a YAML file other than `ci.yaml` (a package file: then it is
/// a package-manifest tree).
fn top_has_yaml(tree: &Path) -> bool {
    std::fs::read_dir(tree).is_ok_and(|entries| {
        entries.filter_map(Result::ok).any(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            e.path().is_file()
                && name != "ci.yaml"
                && (name.ends_with(".yaml") || name.ends_with(".yml"))
        })
    })
}

/// The history at `tree`, read within `limits`: a community package folder ([`super::read`]:
/// each version folder one bundle), or else a package-manifest tree ([`crate::history::read`]).
pub fn read_history(tree: &Path, limits: &Limits) -> Result<Tree, String> {
    if super::disk::is_package_folder(tree) && !top_has_yaml(tree) {
        return community_tree(tree, limits);
    }
    crate::history::read(tree, limits)
}

/// The community package folder `tree` as a history.
fn community_tree(tree: &Path, limits: &Limits) -> Result<Tree, String> {
    let files = super::disk::read_folder(tree, limits.max_bytes)?;
    let pkg = super::read::read(&files, limits).map_err(|e| format!("{}: {e}", tree.display()))?;
    drop(files);
    let package = package_file(&pkg);
    let versions = version_folders(tree, &pkg);
    let (versions, left_out, headless) = on_channels(&package, versions);
    Ok(Tree {
        package,
        versions,
        left_out,
        headless,
        community: true,
    })
}
