//! The package of a tree: the package file in its root, or, for registry+v1 bundles (a
//! `manifests/` folder beside `metadata/annotations.yaml`), the package the annotations name,
//! each channel headed by the highest version that lists it.

use std::collections::BTreeMap;

use serde_yaml_ng::Value;

use super::{CHANNELS_ANNOTATION, DEFAULT_ANNOTATION, Folder, PACKAGE_ANNOTATION, parent, within};
use crate::validate::rules::Tool;
use crate::validate::sink::{At, Sink};
use crate::validate::{package, rules, text};
use crate::{Channel, PackageManifest};

/// The package: the root's package file, else (registry+v1 bundles) the package their
/// `metadata/annotations.yaml` name, with each channel's head the highest version listing it.
pub(super) fn root_package(
    mut packages: Vec<(String, Value, bool)>,
    metadata: &[(String, Value)],
    folders: &[Folder],
    sink: &mut Sink,
) -> Option<(String, PackageManifest)> {
    if packages.len() > 1 {
        let names: Vec<&str> = packages.iter().map(|p| p.0.as_str()).collect();
        let msg = format!(
            "holds {} package files ({}); courier and the registry read exactly one",
            packages.len(),
            names.join(", ")
        );
        sink.add(
            &rules::PACKAGE,
            &At::new("(bundle)", "(package)"),
            "packageName",
            msg,
        );
    }
    if !packages.is_empty() {
        let (file, doc, _) = packages.remove(0);
        let p = package::parse(&doc, &file, sink);
        return Some((file, p));
    }
    if let Some(found) = from_metadata(metadata, folders) {
        let msg = format!(
            "holds no package file; the registry+v1 annotations in {} name package {}, which operator-framework/api reads, but courier and the app registry need a package file",
            found.0, found.1.package_name
        );
        let at = At::new("(bundle)", "(package)");
        sink.add_except(&rules::PACKAGE, &[Tool::Api], &at, "", msg);
        return Some(found);
    }
    let at = At::new("(bundle)", "(bundle)");
    let msg = "holds no package file (a YAML file with packageName and channels) in its root";
    sink.add(&rules::PACKAGE, &at, "", msg);
    None
}

fn from_metadata(
    metadata: &[(String, Value)],
    folders: &[Folder],
) -> Option<(String, PackageManifest)> {
    let ann = |doc: &Value, key: &str| {
        doc.get("annotations")
            .and_then(|a| a.get(key))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let (file, first) = metadata.first()?;
    let name = ann(first, PACKAGE_ANNOTATION)?;
    // channel → (version, CSV name) of its highest bundle.
    let mut heads: BTreeMap<String, (semver::Version, String)> = BTreeMap::new();
    let mut default = None;
    for (path, doc) in metadata {
        let dir = parent(parent(path));
        let Some(folder) = folders.iter().find(|f| within(&f.path, dir)) else {
            continue;
        };
        default = default.or_else(|| ann(doc, DEFAULT_ANNOTATION));
        for csv in &folder.csvs {
            let (Some(csv_name), Some(v)) = (
                csv.name(),
                csv.spec_version().and_then(text::tolerant_semver),
            ) else {
                continue;
            };
            for ch in ann(doc, CHANNELS_ANNOTATION).unwrap_or_default().split(',') {
                let ch = ch.trim();
                if ch.is_empty() {
                    continue;
                }
                let e = heads
                    .entry(ch.to_string())
                    .or_insert((v.clone(), csv_name.to_string()));
                if v > e.0 {
                    *e = (v.clone(), csv_name.to_string());
                }
            }
        }
    }
    let channels = heads
        .into_iter()
        .map(|(name, (_, head))| Channel {
            name,
            current_csv: head,
        })
        .collect();
    Some((
        file.clone(),
        PackageManifest {
            package_name: name,
            channels,
            default_channel: default,
        },
    ))
}
