//! The render step's inputs: the template data (built-in variables, the pipeline's variables,
//! folders of includes, and the variables filled from the assembled CSV parts), and the files
//! the CSV parts are read from.
//!
//! Built-in variables: `CsvVersion`, `PackageName`, `Channel`, `CreatedAt`, and
//! `ReplacesCsvVersion`, which is always empty here because fetch-previous sets `spec.replaces`
//! structurally once it knows the predecessor. Pipeline variables may override the others and
//! keep their YAML type (a list stays a list templates can `range` over).

use std::path::Path;

use crate::error::step::RenderError;
use crate::pipeline::render_spec::TemplateFunctions;
use crate::plan::{RenderStep, TimeSource};
use olm_release_gotemplate::{self as template, Data, Functions, Value};
use olm_release_olm::Finding;
use olm_release_olm::csv_build::{self, CsvError, Doc, PartFiles};
use olm_release_olm::render_checks;
use olm_release_olm::rendered_bundle::{self, RenderedBundleError};

/// `file` as the pipeline names it (relative to the source folder, or absolute).
fn resolve_path(source: &Path, file: &Path) -> std::path::PathBuf {
    if file.is_absolute() {
        file.to_path_buf()
    } else {
        source.join(file)
    }
}

/// The warning when `createdAt` has no source but the UNIX epoch.
pub(crate) fn created_at_finding(step: &RenderStep) -> Option<Finding> {
    (step.created_at.from == TimeSource::Epoch).then(|| {
        render_checks::epoch_created_at(&step.pipeline_file, &step.source.display().to_string())
    })
}

/// Built-in variables, the pipeline's variables and the include folders.
pub(crate) fn base_data(step: &RenderStep) -> Data {
    let mut data = Data::default();
    data.set_str("CsvVersion", step.version.to_string());
    data.set_str("PackageName", step.package.clone());
    data.set_str("Channel", step.channel.clone());
    data.set_str("ReplacesCsvVersion", "");
    data.set_str("CreatedAt", step.created_at.value.clone());
    for (name, dir) in &step.includes {
        data.vars.insert(name.clone(), Value::Files(dir.clone()));
    }
    for (name, dir) in &step.files {
        data.vars.insert(name.clone(), Value::Texts(dir.clone()));
    }
    for (k, v) in &step.vars {
        data.vars.insert(k.clone(), Value::from_yaml(v));
    }
    data.functions = match step.functions {
        TemplateFunctions::Go => Functions::Go,
        TemplateFunctions::Sprig => Functions::Sprig,
    };
    data
}

/// The files the CSV parts are read from, as the pipeline names them (relative to the source
/// folder): RBAC and Deployment files rendered with `data` when they are templates, and the
/// icon.
pub(crate) struct PartReader<'a> {
    pub(crate) source: &'a Path,
    pub(crate) data: &'a Data,
}

impl PartFiles for PartReader<'_> {
    fn docs(&mut self, file: &str) -> Result<Option<Vec<Doc>>, CsvError> {
        read_docs(self.source, file, self.data)
    }

    fn bytes(&mut self, file: &str) -> Result<Vec<u8>, CsvError> {
        let path = resolve_path(self.source, Path::new(file));
        olm_release_base::input::read(&path, olm_release_base::input::MAX_FILE_BYTES)
            .map_err(|e| CsvError::Load(format!("{}: {e} (render.csv.icon)", path.display())))
    }
}

/// What the CSV is assembled from besides its template.
pub(crate) fn request(step: &RenderStep) -> csv_build::Request<'_> {
    csv_build::Request {
        spec: &step.csv,
        version: &step.version,
        created_at: &step.created_at.value,
        skips: &step.skips,
        skip_range: step.skip_range.as_deref(),
    }
}

/// The package file (`render.package`) and CRDs (`render.crds`) read from outside the bundle
/// folder, as they are (not templates).
pub(crate) fn outside(step: &RenderStep) -> Result<rendered_bundle::Outside, RenderError> {
    let mut found = rendered_bundle::Outside::default();
    let read = |path: &Path| -> Result<Vec<Doc>, RenderError> {
        let shown = path.display().to_string();
        let text =
            olm_release_base::input::read_to_string(path, olm_release_base::input::MAX_FILE_BYTES)
                .map_err(|e| RenderError::Yaml(format!("{shown}: {e}")))?;
        Doc::parse_all(&shown, &text).map_err(RenderError::Yaml)
    };
    if let Some(file) = &step.package_file {
        let shown = file.display().to_string();
        let doc = read(file)?
            .into_iter()
            .find(|d| d.value.get("packageName").is_some())
            .ok_or_else(|| RenderedBundleError::PackageFile {
                file: shown.clone(),
                message: "no document with packageName (render.package)".into(),
            })?;
        found.package = Some((
            shown.clone(),
            rendered_bundle::parse_package(&shown, &doc.value)?,
        ));
    }
    if let Some(dir) = &step.crds {
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .map_err(|e| RenderError::Yaml(format!("{}: {e} (render.crds)", dir.display())))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
            .collect();
        files.sort();
        for path in files {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            for d in read(&path)? {
                if d.value.get("kind").and_then(serde_yaml_ng::Value::as_str)
                    == Some("CustomResourceDefinition")
                {
                    found
                        .crds
                        .push(olm_release_olm::Manifest::new(&name, d.value));
                }
            }
        }
    }
    Ok(found)
}

/// The YAML documents of a file, rendered first when it is a template; `None` if absent.
fn read_docs(source: &Path, file: &str, data: &Data) -> Result<Option<Vec<Doc>>, CsvError> {
    let path = resolve_path(source, Path::new(file));
    let text = match olm_release_base::input::read_to_string(
        &path,
        olm_release_base::input::MAX_FILE_BYTES,
    ) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(CsvError::Load(format!("{}: {e}", path.display()))),
    };
    let shown = path.display().to_string();
    let text = if file.ends_with(".in") {
        template::render(&shown, &text, data).map_err(|e| CsvError::Load(e.to_string()))?
    } else {
        text
    };
    Doc::parse_all(&shown, &text)
        .map(Some)
        .map_err(CsvError::Load)
}
