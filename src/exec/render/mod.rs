//! The render step: templates → manifests in the step's folder, the CSV assembled
//! structurally, and the bundle parsed from them.
//!
//! Order of work: the template data ([`inputs`]; `createdAt` was resolved by the plan); the CSV parts from RBAC,
//! Deployment and icon files (`olm::csv_build`), which also fill the template variables the
//! pipeline maps to them; every `*.yaml.in` under the templates folder rendered (`*.yaml`
//! copied; output names drop `.in` and replace `VERSION` with the version); the bundle read from
//! the bundle sub-folder (`olm::rendered_bundle::find`); the parts set into the CSV, which is
//! then checked (`olm::render_checks`), written back re-serialised and its package checked
//! (`olm::rendered_bundle::finish`); and the defects of the inputs reported. Nothing is written
//! before everything has rendered and parsed, so a failed render leaves no half-written folder.
//! Same inputs, same bytes: the only clock is `createdAt` (the `{{.CreatedAt}}` variable, and
//! the CSV's annotation with `render.csv.created_at: set`), taken from `SOURCE_DATE_EPOCH` or
//! the source's commit time.

pub(crate) mod inputs;

use std::fs;
use std::path::{Path, PathBuf};

use serde_yaml_ng::Value;

use super::outputs::{Rendered, RenderedFile};
use crate::error::step::RenderError;
use crate::error::{Error, Result};
use crate::plan::RenderStep;
use crate::report::Reporter;
use olm_release_base::Class;
use olm_release_gotemplate as template;
use olm_release_olm::Bundle;
use olm_release_olm::csv_build::{self, Doc, spec::CreatedAtPolicy};
use olm_release_olm::render_checks::{self, Wanted};
use olm_release_olm::rendered_bundle::{self, RenderedFile as RenderedOutput};

/// The render step: renders, reports, and hands the result on.
pub(crate) fn run(step: &RenderStep, report: &Reporter) -> Result<Rendered> {
    let rendered = render(step)?;
    report.info(&format!(
        "rendered {} into {} (CSV {})",
        olm_release_base::words::count(rendered.files.len(), "file"),
        rendered.dir.display(),
        rendered.csv_name
    ));
    if !rendered.objects.is_empty() {
        report.info(&format!(
            "the bundle folder also holds {} (the bundle-image stage carries them; the app registry's bundle holds only CSVs, CRDs and the package file)",
            rendered.object_names().join(", ")
        ));
    }
    report.findings(&rendered.findings);
    if let Some(csv) = rendered.bundle.csvs.first()
        && let Some(w) = olm_release_olm::decision::stale_skip_range(csv, None)
    {
        report.warn(&w);
    }
    if let (Some(tag), Some(csv)) = (&step.release_tag, rendered.bundle.csvs.first()) {
        for w in render_checks::image_tags(csv, tag) {
            report.warn(&w);
        }
    }
    Ok(rendered)
}

/// The rendered templates and where the bundle's parts are among them.
struct Templates {
    outputs: Vec<RenderedOutput>,
    found: rendered_bundle::Found,
}

impl csv_build::RenderedCsv for Templates {
    fn csv_doc(&mut self) -> (&mut Value, &str) {
        let (ci, di) = self.found.csv;
        let out = &mut self.outputs[ci];
        (&mut out.docs[di], &out.template)
    }
}

/// Renders the step's templates into its folder.
pub(crate) fn render(step: &RenderStep) -> Result<Rendered> {
    let (rendered, outputs) = build(step)?;
    write_all(&step.into, &outputs)?;
    Ok(rendered)
}

/// Renders the step's templates in memory and writes nothing (what `plan` checks): the same
/// bundle, objects and findings [`render`] hands on.
pub(crate) fn preview(step: &RenderStep) -> Result<Rendered> {
    Ok(build(step)?.0)
}

/// Everything [`render`] does but the writing: the rendered bundle and the files to write.
fn build(step: &RenderStep) -> Result<(Rendered, Vec<RenderedOutput>)> {
    if let Some(k) = &step.kustomize {
        olm_release_init::check_kustomize_snapshot(&step.source, &k.build, &k.snapshot)
            .map_err(|e| RenderError::Kustomize(e.to_string()))?;
    }
    let dir = &step.into;
    let mut findings = Vec::new();
    findings.extend(inputs::created_at_finding(step));
    let data = inputs::base_data(step);
    let mut files = inputs::PartReader {
        source: &step.source,
        data: &data,
    };
    let assembled = csv_build::assemble(&inputs::request(step), &mut files, |vars| {
        let mut data = data.clone();
        data.vars.extend(
            vars.into_iter()
                .map(|(k, v)| (k, template::Value::Block(v))),
        );
        let outputs = render_all(step, &data)?;
        let outside = inputs::outside(step)?;
        let found = rendered_bundle::find(&step.bundle_dir, &outputs, outside)
            .map_err(RenderError::from)?;
        Ok::<_, Error>(Templates { outputs, found })
    })?;
    let Templates { mut outputs, found } = assembled.rendered;
    let ask = rendered_bundle::Finish {
        wanted: Wanted {
            package: &step.package,
            channels: &step.channels,
        },
        created_at: &step.created_at.value,
        keep_created_at: step.csv.created_at == CreatedAtPolicy::Keep,
        default_channel: step.default_channel.as_deref(),
    };
    let finished =
        rendered_bundle::finish(&mut outputs, found, assembled.csv, &mut findings, &ask)?;
    let csv_name = finished.csv.name().unwrap_or_default().to_string();
    let rendered = Rendered {
        dir: dir.to_path_buf(),
        files: outputs
            .iter()
            .map(|o| RenderedFile {
                path: o.rel.clone(),
                in_bundle: o.in_bundle,
            })
            .collect(),
        bundle: Bundle {
            package: finished.package,
            csvs: vec![finished.csv],
            crds: finished.crds,
        },
        csv_name,
        objects: finished.objects,
        metadata: finished.metadata,
        findings,
    };
    Ok((rendered, outputs))
}

/// Renders every template (copies plain YAML files), parsing each output.
fn render_all(step: &RenderStep, data: &template::Data) -> Result<Vec<RenderedOutput>> {
    let templates = &step.templates;
    let mut inputs = Vec::new();
    list_files(templates, templates, &mut inputs)?;
    if inputs.is_empty() {
        return Err(RenderError::NoTemplates {
            dir: templates.clone(),
        }
        .into());
    }
    // A file name: the version's text.
    let version = step.version.to_string();
    let mut outputs = Vec::new();
    for rel in inputs {
        let src = templates.join(&rel);
        let shown = format!("{}/{rel}", step.templates_shown);
        let text =
            olm_release_base::input::read_to_string(&src, olm_release_base::input::MAX_FILE_BYTES)
                .map_err(|e| Error::io(Class::Input, &src, e))?;
        let (out_rel, content) = match rel.strip_suffix(".in") {
            Some(stem) => (
                stem.to_string(),
                template::render(&shown, &text, data).map_err(RenderError::from)?,
            ),
            None => (rel.clone(), text.clone()),
        };
        if !(out_rel.ends_with(".yaml") || out_rel.ends_with(".yml")) {
            continue;
        }
        let docs = Doc::parse_all(&format!("{shown} (rendered)"), &content)
            .map_err(RenderError::Yaml)?
            .into_iter()
            .map(|d| d.value)
            .collect();
        let out_rel = out_rel.replace("VERSION", &version);
        outputs.push(RenderedOutput {
            in_bundle: rendered_bundle::in_bundle(&step.bundle_dir, &out_rel),
            rel: out_rel,
            template: shown,
            source_text: text,
            content,
            docs,
        });
    }
    Ok(outputs)
}

fn write_all(dir: &Path, outputs: &[RenderedOutput]) -> Result<()> {
    if dir.exists() {
        fs::remove_dir_all(dir).map_err(|e| Error::output(dir, e))?;
    }
    for o in outputs {
        let dest = dir.join(&o.rel);
        if let Some(parent) = dest.parent() {
            fs::create_dir_all(parent).map_err(|e| Error::output(parent, e))?;
        }
        fs::write(&dest, &o.content).map_err(|e| Error::output(&dest, e))?;
    }
    Ok(())
}

/// Every file under `dir`, relative to `root`, sorted; hidden files and folders (a `.git`, a
/// `.github` with its workflow YAML, an editor's swap file) are not templates and are skipped,
/// so `render.templates: .` works in a repository's root.
fn list_files(root: &Path, dir: &Path, out: &mut Vec<String>) -> Result<()> {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| Error::io(Class::Input, dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
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
