//! The render stage: templates → manifests in `<out>/render`, and the bundle parsed from them.
//!
//! Every `*.yaml.in` under the templates folder is rendered with the pipeline's variables and the
//! built-in ones (`CsvVersion`, `PackageName`, `Channel`, `ReplacesCsvVersion`, `CreatedAt`);
//! `*.yaml` files are copied. Output names drop `.in` and replace `VERSION` with the version.
//! Files under the bundle sub-folder are parsed into the [`Bundle`]: exactly one CSV, its CRDs
//! and one package file.

use std::fs;
use std::path::{Path, PathBuf};

use serde_yaml_ng::Value;

use super::{Ctx, Rendered, RenderedFile};
use crate::error::{Class, Error, Result};
use crate::olm::{Bundle, Manifest, PackageManifest};
use crate::settings::{Settings, resolve_path};
use crate::template;

pub async fn run(ctx: &mut Ctx<'_>) -> Result<()> {
    let rendered = render(ctx.settings, &ctx.out().join("render"))?;
    ctx.report.info(&format!(
        "rendered {} files into {} (CSV {})",
        rendered.files.len(),
        rendered.dir.display(),
        rendered.csv_name
    ));
    ctx.report.findings(&rendered.findings);
    ctx.state.bundle = Some(rendered.bundle.clone());
    ctx.state.rendered = Some(rendered);
    Ok(())
}

/// Renders the pipeline's templates into `dir`.
pub fn render(settings: &Settings, dir: &Path) -> Result<Rendered> {
    let spec = &settings.pipeline.render;
    let templates = resolve_path(&settings.source, Path::new(&spec.templates));
    let mut inputs = Vec::new();
    list_files(&templates, &templates, &mut inputs)?;
    if inputs.is_empty() {
        return Err(Error::input(format!(
            "{}: no templates found (render.templates)",
            templates.display()
        )));
    }
    if dir.exists() {
        fs::remove_dir_all(dir).map_err(|e| Error::io(Class::Stage, dir, e))?;
    }
    let data = template_data(settings);
    let version = settings.version.to_string();
    let mut files = Vec::new();
    let mut bundle_docs = Vec::new();
    for rel in inputs {
        let src = templates.join(&rel);
        let text = fs::read_to_string(&src).map_err(|e| Error::io(Class::Input, &src, e))?;
        let (out_rel, content) = match rel.strip_suffix(".in") {
            Some(stem) => (
                stem.to_string(),
                template::render(&src.display().to_string(), &text, &data).map_err(Error::input)?,
            ),
            None => (rel.clone(), text),
        };
        if !(out_rel.ends_with(".yaml") || out_rel.ends_with(".yml")) {
            continue;
        }
        let out_rel = out_rel.replace("VERSION", &version);
        let in_bundle = Path::new(&out_rel).starts_with(&spec.bundle);
        let dest = dir.join(&out_rel);
        if let Some(parent) = dest.parent() {
            fs::create_dir_all(parent).map_err(|e| Error::io(Class::Stage, parent, e))?;
        }
        fs::write(&dest, &content).map_err(|e| Error::io(Class::Stage, &dest, e))?;
        if in_bundle {
            bundle_docs.push((out_rel.clone(), content));
        }
        files.push(RenderedFile {
            path: out_rel,
            in_bundle,
        });
    }
    let bundle = parse_bundle(settings, &bundle_docs)?;
    let csv_name = bundle.csvs[0].name().unwrap_or_default().to_string();
    Ok(Rendered {
        dir: dir.to_path_buf(),
        files,
        bundle,
        csv_name,
        findings: Vec::new(),
    })
}

fn template_data(settings: &Settings) -> template::Data {
    let mut data = template::Data::default();
    let mut set = |k: &str, v: String| {
        data.vars.insert(k.to_string(), template::Value::Str(v));
    };
    set("CsvVersion", settings.version.to_string());
    set("PackageName", settings.pipeline.package.clone());
    set("Channel", settings.pipeline.channel.clone());
    set("ReplacesCsvVersion", String::new());
    set(
        "CreatedAt",
        created_at(settings.source_date_epoch.unwrap_or(0)),
    );
    for (k, v) in &settings.pipeline.render.vars {
        set(k, v.clone());
    }
    data
}

/// `2006-01-02T15:04:05Z` for a UNIX time.
pub fn created_at(epoch: u64) -> String {
    let days = (epoch / 86_400) as i64;
    let secs = epoch % 86_400;
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

fn list_files(root: &Path, dir: &Path, out: &mut Vec<String>) -> Result<()> {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| Error::io(Class::Input, dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            list_files(root, &path, out)?;
        } else if let Ok(rel) = path.strip_prefix(root) {
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
    Ok(())
}

/// Parses the rendered bundle files: one CSV, CRDs, one package file.
fn parse_bundle(settings: &Settings, docs: &[(String, String)]) -> Result<Bundle> {
    let (mut csvs, mut crds, mut package) = (Vec::new(), Vec::new(), None::<PackageManifest>);
    for (path, text) in docs {
        for doc in serde_yaml_ng::Deserializer::from_str(text) {
            let value = Value::deserialize(doc)
                .map_err(|e| Error::input(format!("rendered {path}: {e}")))?;
            if value.is_null() {
                continue;
            }
            let file = path.rsplit('/').next().unwrap_or(path).to_string();
            if value.get("packageName").is_some() {
                let p = serde_yaml_ng::from_value(value)
                    .map_err(|e| Error::input(format!("rendered {path}: package file: {e}")))?;
                if package.replace(p).is_some() {
                    return Err(Error::input(format!(
                        "rendered {path}: a second package file in the bundle"
                    )));
                }
                continue;
            }
            match value.get("kind").and_then(Value::as_str) {
                Some("ClusterServiceVersion") => csvs.push(Manifest::new(file, value)),
                Some("CustomResourceDefinition") => crds.push(Manifest::new(file, value)),
                other => {
                    return Err(Error::input(format!(
                        "rendered {path}: unexpected {} in the bundle folder (only CSVs, CRDs and the package file belong there)",
                        other.unwrap_or("document without kind")
                    )));
                }
            }
        }
    }
    let folder = &settings.pipeline.render.bundle;
    if csvs.len() != 1 {
        return Err(Error::input(format!(
            "the bundle folder '{folder}' must render exactly one CSV, found {}",
            csvs.len()
        )));
    }
    let package = package.ok_or_else(|| {
        Error::input(format!(
            "the bundle folder '{folder}' has no package file (packageName)"
        ))
    })?;
    let mut csv = csvs.remove(0);
    set_identity(settings, &mut csv)?;
    Ok(Bundle {
        package,
        csvs: vec![csv],
        crds,
    })
}

/// Sets `metadata.name` (when the pipeline gives a form) and `spec.version` structurally.
fn set_identity(settings: &Settings, csv: &mut Manifest) -> Result<()> {
    let version = settings.version.to_string();
    let name = settings
        .pipeline
        .render
        .csv
        .as_ref()
        .and_then(|c| c.name.as_ref())
        .map(|n| n.replace("{version}", &version));
    let doc = csv
        .doc
        .as_mapping_mut()
        .ok_or_else(|| Error::input(format!("{}: the CSV is not a mapping", csv.file)))?;
    if let Some(name) = name {
        if let Some(meta) = doc.get_mut("metadata").and_then(Value::as_mapping_mut) {
            meta.insert("name".into(), Value::String(name));
        }
    }
    if let Some(spec) = doc.get_mut("spec").and_then(Value::as_mapping_mut) {
        spec.insert("version".into(), Value::String(version));
    }
    if csv.name().is_none() {
        return Err(Error::input(format!(
            "{}: the CSV has no metadata.name",
            csv.file
        )));
    }
    csv.file = crate::olm::csv_file_name(csv.name().unwrap_or_default());
    Ok(())
}

use serde::Deserialize;
