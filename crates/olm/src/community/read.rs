//! Reading a package folder's files: `ci.yaml` and the templates ([`super::top`]), every version
//! folder ([`super::version`]), in SemVer order, every problem at once.

use std::collections::BTreeMap;

use super::model::{CommunityPackage, LayoutErrors, PackageFiles, VersionBundle, problem};
use super::{top, version};
use crate::archive::Limits;

/// Reads the package folder's `files` within `limits`: every problem at once.
pub fn read(files: &PackageFiles, limits: &Limits) -> Result<CommunityPackage, LayoutErrors> {
    let mut problems = Vec::new();
    let ci = top::ci(files, &mut problems);
    let templates = top::templates(files, &mut problems);
    let mut folders: BTreeMap<&str, BTreeMap<&str, &[u8]>> = BTreeMap::new();
    for (path, bytes) in files {
        let Some((first, rest)) = path.split_once('/') else {
            continue;
        };
        if first == top::TEMPLATES_DIR || first.starts_with('.') {
            continue;
        }
        folders
            .entry(first)
            .or_default()
            .insert(rest, bytes.as_slice());
    }
    if folders.len() > limits.max_entries {
        problems.push(problem(
            ".",
            None,
            format!(
                "{} version folders, more than the entry limit of {}",
                folders.len(),
                limits.max_entries
            ),
        ));
        return Err(LayoutErrors(problems));
    }
    let mut versions: Vec<VersionBundle> = folders
        .iter()
        .filter_map(|(folder, inside)| version::read(folder, inside, limits, &mut problems))
        .collect();
    versions.sort_by(|a, b| a.version.cmp(&b.version));
    for w in versions.windows(2) {
        if w[0].version == w[1].version {
            problems.push(problem(
                format!("{}/manifests", w[1].folder),
                Some("spec.version"),
                format!("{} again; folder {} has it too", w[1].version, w[0].folder),
            ));
        }
    }
    let package = version::one_package(&versions, &mut problems);
    if versions.is_empty() && problems.is_empty() {
        problems.push(problem(
            ".",
            None,
            "no version folder (a folder holding manifests/ and metadata/annotations.yaml)",
        ));
    }
    if !problems.is_empty() {
        return Err(LayoutErrors(problems));
    }
    Ok(CommunityPackage {
        package: package.unwrap_or_default(),
        ci,
        versions,
        templates,
    })
}
