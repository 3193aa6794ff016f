//! What a registry+v1 bundle folder holds besides `manifests/`, carried into the release as
//! the project wrote it: its `metadata/annotations.yaml` (every annotation — operator-sdk's
//! `operators.operatorframework.io.metrics.*` and `…test.*`, `com.redhat.openshift.versions`,
//! which the OpenShift community catalog reads to decide where the operator ships) and its
//! scorecard configuration under `tests/scorecard/` (operator-sdk's `generate bundle` writes
//! `tests/scorecard/config.yaml` and points the `…test.config.v1` annotation at it:
//! <https://sdk.operatorframework.io/docs/testing-operators/scorecard/>).
//!
//! Both are inserted as they are (`render.files`), so there stays one copy of each: the
//! annotations file with its package annotation set to the pipeline's package (so the alpha
//! variant's own package is consistent; the six bundle keys are the release's anyway), the
//! scorecard files byte for byte (their template is only the insertion, its comment a template
//! comment that renders to nothing).

use std::collections::BTreeMap;
use std::path::Path;

use super::bundles::{BundleDir, Format};
use super::scan::MARK;

/// The annotation naming the bundle's package.
const PACKAGE: &str = "operators.operatorframework.io.bundle.package.v1";
/// The variable the annotations file is inserted from (the pipeline then renders with sprig's
/// `replace`).
pub(crate) const VAR: &str = "BundleMetadata";
/// The folder of a bundle's scorecard configuration.
const SCORECARD: &str = "tests/scorecard";

/// Templates under `dir` (`olm/bundle`) for the annotations and scorecard files of `b`, and
/// the folders they insert from, by variable.
pub(crate) fn templates(
    source: &Path,
    b: &BundleDir,
    dir: &str,
) -> (Vec<(String, String)>, BTreeMap<String, String>) {
    let mut files = Vec::new();
    let mut inserted = BTreeMap::new();
    if b.format != Format::RegistryV1 {
        return (files, inserted);
    }
    let join = |rel: &str| match b.root.as_str() {
        "" => rel.to_string(),
        root => format!("{root}/{rel}"),
    };
    let annotations = join("metadata/annotations.yaml");
    if let Ok(text) = std::fs::read_to_string(source.join(&annotations)) {
        let var = VAR;
        inserted.insert(var.to_string(), join("metadata"));
        let insert = format!("index .{var} \"annotations.yaml\"");
        // The package line exactly as written, so its quoting never defeats the replacement.
        let body = match text.lines().map(str::trim).find(|l| l.starts_with(PACKAGE)) {
            Some(line) => format!(
                "{{{{{insert} | replace {} (print \"{PACKAGE}: \" .PackageName)}}}}",
                go_quote(line)
            ),
            None => format!("{{{{{insert}}}}}"),
        };
        files.push((
            format!("{dir}/metadata/annotations.yaml.in"),
            format!(
                "{MARK}: {annotations}, included as it is (its package the pipeline's; the release sets the six bundle keys).\n{body}\n"
            ),
        ));
    }
    let tests = join(SCORECARD);
    for (n, (folder, names)) in files_under(&source.join(&tests), "")
        .into_iter()
        .enumerate()
    {
        let var = match n {
            0 => "ScorecardTests".to_string(),
            n => format!("ScorecardTests{}", n + 1),
        };
        let from = if folder.is_empty() {
            tests.clone()
        } else {
            format!("{tests}/{folder}")
        };
        for name in names {
            let rel = if folder.is_empty() {
                name.clone()
            } else {
                format!("{folder}/{name}")
            };
            files.push((
                format!("{dir}/{SCORECARD}/{rel}.in"),
                format!("{{{{/* Written by olm-release init: {from}/{name}, inserted as it is. */}}}}{{{{index .{var} \"{name}\"}}}}"),
            ));
        }
        inserted.insert(var, from);
    }
    (files, inserted)
}

/// The files under `dir`, by folder relative to it (`""` for its own), folders in order.
fn files_under(dir: &Path, rel: &str) -> Vec<(String, Vec<String>)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names = Vec::new();
    let mut folders = Vec::new();
    for e in entries.filter_map(Result::ok) {
        let name = e.file_name().to_string_lossy().into_owned();
        match e.file_type() {
            Ok(t) if t.is_file() => names.push(name),
            Ok(t) if t.is_dir() => folders.push(name),
            _ => {}
        }
    }
    names.sort();
    folders.sort();
    let mut out = Vec::new();
    if !names.is_empty() {
        out.push((rel.to_string(), names));
    }
    for f in folders {
        let sub = if rel.is_empty() {
            f.clone()
        } else {
            format!("{rel}/{f}")
        };
        out.extend(files_under(&dir.join(&f), &sub));
    }
    out
}

/// `text` as a Go template string literal.
fn go_quote(text: &str) -> String {
    let mut s = String::from("\"");
    for ch in text.chars() {
        match ch {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            _ => s.push(ch),
        }
    }
    s.push('"');
    s
}
