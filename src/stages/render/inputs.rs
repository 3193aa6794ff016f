//! The render stage's inputs: the creation time, the template data (built-in variables, the
//! pipeline's variables, folders of includes, and the variables filled from the assembled CSV
//! parts), and the files the CSV parts are read from.
//!
//! Built-in variables: `CsvVersion`, `PackageName`, `Channel`, `CreatedAt`, and
//! `ReplacesCsvVersion`, which is always empty here because fetch-previous sets `spec.replaces`
//! structurally once it knows the predecessor. Pipeline variables may override the others and
//! keep their YAML type (a list stays a list templates can `range` over).

use std::path::Path;
use std::process::Command;

use serde::Deserialize;

use crate::error::{Error, Result};
use crate::olm::csv_build::{self, Doc, Parts};
use crate::olm::{Finding, Level};
use crate::pipeline::render_spec::TemplateFunctions;
use crate::settings::{Settings, resolve_path};
use crate::template::{self, Data, Functions, Value};

/// `createdAt`: `SOURCE_DATE_EPOCH`, else the commit time of the source folder's `HEAD`, so
/// the same inputs render the same bytes. Without either, the UNIX epoch and a warning.
pub fn created_at(settings: &Settings) -> (String, Option<Finding>) {
    if let Some(epoch) = settings.source_date_epoch {
        return (format_time(epoch), None);
    }
    if let Some(epoch) = git_commit_time(&settings.source) {
        return (format_time(epoch), None);
    }
    let finding = Finding {
        level: Level::Warning,
        rule: "created-at".into(),
        mirrors: String::new(),
        file: settings.pipeline_file.display().to_string(),
        object: "ClusterServiceVersion".into(),
        field: "metadata.annotations.createdAt".into(),
        message: format!(
            "SOURCE_DATE_EPOCH is not set and {} is not a git checkout; createdAt is 1970-01-01T00:00:00Z",
            settings.source.display()
        ),
        fix: "set SOURCE_DATE_EPOCH (e.g. to the tag's commit time) or run from the operator's git checkout".into(),
    };
    (format_time(0), Some(finding))
}

fn git_commit_time(source: &Path) -> Option<u64> {
    let out = Command::new("git")
        .arg("-C")
        .arg(source)
        .args(["log", "-1", "--format=%ct", "HEAD"])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    String::from_utf8_lossy(&out.stdout).trim().parse().ok()
}

/// `2006-01-02T15:04:05Z` for a UNIX time (the form OperatorHub asks for).
pub fn format_time(epoch: u64) -> String {
    crate::olm::time::rfc3339(epoch)
}

/// Built-in variables, the pipeline's variables and the include folders.
pub fn base_data(settings: &Settings, created_at: &str) -> Data {
    let mut data = Data::default();
    data.set_str("CsvVersion", settings.version.to_string());
    data.set_str("PackageName", settings.pipeline.package.clone());
    data.set_str("Channel", settings.pipeline.channel.clone());
    data.set_str("ReplacesCsvVersion", "");
    data.set_str("CreatedAt", created_at);
    let spec = &settings.pipeline.render;
    for (name, dir) in &spec.includes {
        let dir = resolve_path(&settings.source, Path::new(dir));
        data.vars.insert(name.clone(), Value::Files(dir));
    }
    for (k, v) in &spec.vars {
        data.vars.insert(k.clone(), Value::from_yaml(v));
    }
    data.functions = match spec.functions {
        TemplateFunctions::Go => Functions::Go,
        TemplateFunctions::Sprig => Functions::Sprig,
    };
    data
}

/// Builds the CSV parts the pipeline asks for, reading RBAC and Deployment files (rendered with
/// `data` when they are templates) and the icon.
/// Without a `render.csv` section only the release's own parts (version, createdAt) are set.
pub fn build_parts(settings: &Settings, data: &Data, created_at: &str) -> Result<Parts> {
    let default = csv_build_spec_default();
    let spec = settings.pipeline.render.csv.as_ref().unwrap_or(&default);
    let source = &settings.source;
    let mut docs = |file: &str| read_docs(source, file, data);
    let mut bytes = |file: &str| {
        let path = resolve_path(source, Path::new(file));
        std::fs::read(&path).map_err(|e| format!("{}: {e} (render.csv.icon)", path.display()))
    };
    let version = settings.version.to_string();
    Parts::build(spec, &version, created_at, &mut docs, &mut bytes)
        .map_err(|e| Error::input(format!("assembling the CSV: {e}")))
}

fn csv_build_spec_default() -> crate::pipeline::render_spec::CsvSpec {
    crate::pipeline::render_spec::CsvSpec::default()
}

/// The YAML documents of a file, rendered first when it is a template; `None` if absent.
fn read_docs(source: &Path, file: &str, data: &Data) -> Result<Option<Vec<Doc>>, String> {
    let path = resolve_path(source, Path::new(file));
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let shown = path.display().to_string();
    let text = if file.ends_with(".in") {
        template::render(&shown, &text, data).map_err(|e| e.to_string())?
    } else {
        text
    };
    parse_docs(&shown, &text).map(Some)
}

/// Every non-empty YAML document of `text`.
pub fn parse_docs(file: &str, text: &str) -> Result<Vec<Doc>, String> {
    let mut out = Vec::new();
    for doc in serde_yaml_ng::Deserializer::from_str(text) {
        let value = serde_yaml_ng::Value::deserialize(doc).map_err(|e| format!("{file}: {e}"))?;
        if !value.is_null() {
            out.push(Doc {
                file: file.to_string(),
                value,
            });
        }
    }
    Ok(out)
}

/// Adds the variables `render.csv.vars` maps to the assembled parts, as YAML blocks.
pub fn add_part_vars(settings: &Settings, parts: &Parts, data: &mut Data) {
    let Some(spec) = &settings.pipeline.render.csv else {
        return;
    };
    for (name, value) in parts.vars(&spec.vars) {
        data.vars.insert(name, Value::Block(value));
    }
}

/// The structural CSV parts, applied to the parsed CSV.
pub fn apply_parts(csv: &mut serde_yaml_ng::Value, parts: &Parts, file: &str) -> Result<()> {
    csv_build::apply(csv, parts).map_err(|e| Error::input(format!("{file}: {e}")))
}

#[cfg(test)]
mod tests {
    #[test]
    fn formats_times() {
        assert_eq!(super::format_time(0), "1970-01-01T00:00:00Z");
        assert_eq!(super::format_time(1_554_465_600), "2019-04-05T12:00:00Z");
    }
}
