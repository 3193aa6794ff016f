//! One version folder of the community layout: `manifests/` (one CSV and the objects shipped
//! with it), `metadata/annotations.yaml` (package, channels, default channel),
//! `metadata/dependencies.yaml` and `metadata/properties.yaml` when present, and
//! `tests/scorecard/`, read within the bundle limits as one bundle (operator-registry,
//! `docs/design/operator-bundle.md`). Anything else in the folder (`bundle.Dockerfile`, the
//! community pipeline's `release-config.yaml`) is not part of the bundle and is not read.

use std::collections::BTreeMap;

use serde_yaml_ng::Value;

use super::model::{LayoutProblem, VersionBundle, problem};
use crate::archive::{Budget, Limits};
use crate::bundle_image::BundleMetadata;
use crate::bundle_image::annotations::annotations_of;
use crate::bundle_image::metadata::TESTS_DIR;
use crate::bundle_image::names::object_key;
use crate::{DocKind, Manifest, doc_kind};

/// The annotation naming the bundle's package (operator-registry's bundle format).
const PACKAGE_KEY: &str = "operators.operatorframework.io.bundle.package.v1";
/// The annotation listing the bundle's channels, comma-separated.
const CHANNELS_KEY: &str = "operators.operatorframework.io.bundle.channels.v1";
/// The annotation naming the package's default channel.
const DEFAULT_CHANNEL_KEY: &str = "operators.operatorframework.io.bundle.channel.default.v1";
const ANNOTATIONS_FILE: &str = "metadata/annotations.yaml";

/// Reads the folder `folder` whose files are `inside` (paths relative to it); `None` when the
/// folder is not a version folder (neither `manifests/` nor `metadata/`) or has a problem,
/// which is added to `problems`.
pub(super) fn read(
    folder: &str,
    inside: &BTreeMap<&str, &[u8]>,
    limits: &Limits,
    problems: &mut Vec<LayoutProblem>,
) -> Option<VersionBundle> {
    let is_bundle_file = |p: &str| {
        p.starts_with("manifests/") || p.starts_with("metadata/") || p.starts_with(TESTS_DIR)
    };
    if !inside
        .keys()
        .any(|p| p.starts_with("manifests/") || p.starts_with("metadata/"))
    {
        return None;
    }
    let before = problems.len();
    let at = |rel: &str| format!("{folder}/{rel}");
    let bundle: Vec<(&str, &[u8])> = inside
        .iter()
        .filter(|(p, _)| is_bundle_file(p))
        .map(|(p, b)| (*p, *b))
        .collect();
    let total: u64 = bundle.iter().map(|(_, b)| b.len() as u64).sum();
    if total > limits.max_bytes {
        problems.push(problem(
            folder,
            None,
            format!(
                "its bundle files together are {total} bytes, past the bundle size limit of {} bytes; raise it with --max-bundle-bytes if the bundle is really that large",
                limits.max_bytes
            ),
        ));
        return None;
    }
    if bundle.len() > limits.max_entries {
        problems.push(problem(
            folder,
            None,
            format!(
                "{} files, more than the entry limit of {}",
                bundle.len(),
                limits.max_entries
            ),
        ));
        return None;
    }
    let budget = Budget::new(limits);
    let mut metadata = BundleMetadata::default();
    let (mut csv, mut objects, mut annotated) = (None, Vec::new(), false);
    let mut crds = Vec::new();
    for (rel, bytes) in &bundle {
        if rel.starts_with(TESTS_DIR) {
            metadata.tests.insert(rel.to_string(), bytes.to_vec());
            continue;
        }
        let yaml = [".yaml", ".yml", ".json"].iter().any(|x| rel.ends_with(x));
        if !yaml {
            continue;
        }
        let Some(docs) = documents(&at(rel), bytes, &budget, problems) else {
            continue;
        };
        if let Some(name) = rel.strip_prefix("metadata/") {
            let Some(doc) = docs.into_iter().next() else {
                continue;
            };
            match name {
                "annotations.yaml" | "annotations.yml" => {
                    annotated = annotations(&at(rel), &doc, &mut metadata, problems);
                }
                "dependencies.yaml" | "dependencies.yml" => {
                    check_list(&at(rel), &doc, "dependencies", problems);
                    metadata.dependencies = Some(Manifest::new(at(rel), doc));
                }
                "properties.yaml" | "properties.yml" => {
                    check_list(&at(rel), &doc, "properties", problems);
                    metadata.properties = Some(Manifest::new(at(rel), doc));
                }
                _ => {}
            }
            continue;
        }
        let file = rel.rsplit('/').next().unwrap_or(rel).to_string();
        let single = docs.len() == 1;
        for doc in docs {
            let m = Manifest::new(&file, doc);
            match doc_kind(&m.doc) {
                DocKind::Csv if csv.is_some() => problems.push(problem(
                    at(rel),
                    Some("kind"),
                    "a second ClusterServiceVersion; a bundle holds exactly one",
                )),
                DocKind::Csv => {
                    if single {
                        metadata.file_names.insert(object_key(&m), file.clone());
                    }
                    csv = Some(m);
                }
                DocKind::Crd | DocKind::Object => {
                    if single {
                        metadata.file_names.insert(object_key(&m), file.clone());
                    }
                    if doc_kind(&m.doc) == DocKind::Crd {
                        crds.push(m);
                    } else {
                        objects.push(m);
                    }
                }
                DocKind::Package | DocKind::Other => problems.push(problem(
                    at(rel),
                    Some("kind"),
                    "not a Kubernetes object (no kind and apiVersion); a bundle's manifests/ holds only objects",
                )),
            }
        }
    }
    let Some(csv) = csv else {
        problems.push(problem(
            at("manifests"),
            None,
            "no ClusterServiceVersion; a version folder holds exactly one",
        ));
        return None;
    };
    let version = match csv.semver() {
        Some(v) => Some(v),
        None => {
            problems.push(problem(
                at(&format!("manifests/{}", csv.file)),
                Some("spec.version"),
                format!(
                    "'{}' is not a SemVer version",
                    csv.spec_version().unwrap_or("(missing)")
                ),
            ));
            None
        }
    };
    if csv.name().is_none_or(str::is_empty) {
        problems.push(problem(
            at(&format!("manifests/{}", csv.file)),
            Some("metadata.name"),
            "missing; a CSV is named",
        ));
    }
    if !annotated {
        if !inside.contains_key(ANNOTATIONS_FILE) {
            problems.push(problem(
                at(ANNOTATIONS_FILE),
                None,
                "missing; the annotations name the package and its channels",
            ));
        }
        return None;
    }
    let version = version?;
    if problems.len() > before {
        return None;
    }
    let channels = channels_of(&metadata.annotations);
    let default_channel = value_of(&metadata.annotations, DEFAULT_CHANNEL_KEY)
        .map(str::to_string)
        .filter(|d| !d.is_empty());
    crds.extend(objects);
    Some(VersionBundle {
        folder: folder.to_string(),
        version,
        csv,
        objects: crds,
        channels,
        default_channel,
        metadata,
    })
}

/// The package every version names; a version naming another is a problem.
pub(super) fn one_package(
    versions: &[VersionBundle],
    problems: &mut Vec<LayoutProblem>,
) -> Option<String> {
    let first = versions.first()?;
    let package = value_of(&first.metadata.annotations, PACKAGE_KEY)?.to_string();
    for v in &versions[1..] {
        let named = value_of(&v.metadata.annotations, PACKAGE_KEY).unwrap_or_default();
        if named != package {
            problems.push(problem(
                format!("{}/{ANNOTATIONS_FILE}", v.folder),
                Some(&format!("annotations.{PACKAGE_KEY}")),
                format!(
                    "names package '{named}'; version folder {} names '{package}' (one folder is one package)",
                    first.folder
                ),
            ));
        }
    }
    Some(package)
}

fn value_of<'a>(annotations: &'a [(String, String)], key: &str) -> Option<&'a str> {
    annotations
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

fn channels_of(annotations: &[(String, String)]) -> Vec<String> {
    value_of(annotations, CHANNELS_KEY)
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(str::to_string)
        .collect()
}

/// The annotations file: the package and at least one channel are required.
fn annotations(
    file: &str,
    doc: &Value,
    metadata: &mut BundleMetadata,
    problems: &mut Vec<LayoutProblem>,
) -> bool {
    let all = match annotations_of(doc) {
        Ok(a) => a,
        Err(why) => {
            problems.push(problem(file, Some("annotations"), why));
            return false;
        }
    };
    let mut ok = true;
    if value_of(&all, PACKAGE_KEY).unwrap_or_default().is_empty() {
        problems.push(problem(
            file,
            Some(&format!("annotations.{PACKAGE_KEY}")),
            "missing; it names the bundle's package",
        ));
        ok = false;
    }
    if channels_of(&all).is_empty() {
        problems.push(problem(
            file,
            Some(&format!("annotations.{CHANNELS_KEY}")),
            "missing or empty; it lists the channels the bundle joins",
        ));
        ok = false;
    }
    metadata.annotations = all;
    ok
}

/// A dependencies or properties file holds a list under `key`.
fn check_list(file: &str, doc: &Value, key: &str, problems: &mut Vec<LayoutProblem>) {
    match doc.get(key) {
        Some(Value::Sequence(_)) | Some(Value::Null) => {}
        Some(_) => problems.push(problem(file, Some(key), "is not a list")),
        None => problems.push(problem(
            file,
            Some(key),
            format!("missing; the file holds '{key}:' with a list"),
        )),
    }
}

/// The non-empty documents of a YAML file, measured against the version's parse budget.
fn documents(
    file: &str,
    bytes: &[u8],
    budget: &Budget,
    problems: &mut Vec<LayoutProblem>,
) -> Option<Vec<Value>> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        problems.push(problem(file, None, "is not UTF-8 text"));
        return None;
    };
    if let Err(e) = budget.check(file, text) {
        problems.push(problem(file, None, e.to_string()));
        return None;
    }
    match crate::validate::load::parse::documents(text) {
        Ok(parsed) => Some(parsed.docs.into_iter().filter(|v| !v.is_null()).collect()),
        Err(e) => {
            problems.push(problem(file, None, format!("not YAML: {e}")));
            None
        }
    }
}
