//! The top of a community package folder: `ci.yaml` (the community pipeline's settings for the
//! package: `updateGraph`, and `fbc:` with `enabled` and `catalog_mapping`, which maps each
//! template of `catalog-templates/` to the OpenShift catalogs rendered from it; the repositories'
//! `docs/operator-ci-yaml.md` and `docs/fbc_workflow.md`) and the templates themselves.

use serde_yaml_ng::Value;

use super::model::{LayoutProblem, PackageFiles, problem};

/// The folder of the maintainers' catalog templates.
pub(crate) const TEMPLATES_DIR: &str = "catalog-templates";
const CI_FILE: &str = "ci.yaml";

/// `ci.yaml`, as far as the import reads it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CiConfig {
    /// `updateGraph`: `replaces-mode`, `semver-mode` or `semver-skippatch-mode` (the graph the
    /// community pipeline built before FBC).
    pub update_graph: Option<String>,
    /// `fbc.enabled`: the package's catalogs are rendered from its templates.
    pub fbc_enabled: bool,
    /// `fbc.catalog_mapping`: which template renders which catalogs.
    pub catalog_mapping: Vec<CatalogMapping>,
}

/// One entry of `fbc.catalog_mapping`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogMapping {
    /// `template_name`: a file of `catalog-templates/`.
    pub template: String,
    /// `catalog_names`: the catalogs (`v4.18`) it renders.
    pub catalogs: Vec<String>,
}

/// One file of `catalog-templates/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateFile {
    /// Its name in `catalog-templates/`.
    pub name: String,
    /// Its text.
    pub text: String,
}

impl TemplateFile {
    /// Its path relative to the package folder, as messages name it.
    pub fn path(&self) -> String {
        format!("{TEMPLATES_DIR}/{}", self.name)
    }
}

/// `ci.yaml`, if the folder has one.
pub(super) fn ci(files: &PackageFiles, problems: &mut Vec<LayoutProblem>) -> Option<CiConfig> {
    let bytes = files.get(CI_FILE)?;
    let doc: Value = match std::str::from_utf8(bytes)
        .map_err(|e| e.to_string())
        .and_then(|t| serde_yaml_ng::from_str(t).map_err(|e| e.to_string()))
    {
        Ok(d) => d,
        Err(e) => {
            problems.push(problem(CI_FILE, None, format!("not YAML: {e}")));
            return None;
        }
    };
    let mut ci = CiConfig::default();
    if doc.is_null() {
        return Some(ci);
    }
    match doc.get("updateGraph") {
        None => {}
        Some(Value::String(s)) => ci.update_graph = Some(s.clone()),
        Some(_) => problems.push(problem(CI_FILE, Some("updateGraph"), "is not a string")),
    }
    let Some(fbc) = doc.get("fbc") else {
        return Some(ci);
    };
    ci.fbc_enabled = fbc.get("enabled").and_then(Value::as_bool).unwrap_or(false);
    let mapping = fbc.get("catalog_mapping").and_then(Value::as_sequence);
    for (i, m) in mapping.into_iter().flatten().enumerate() {
        let field = |k: &str| format!("fbc.catalog_mapping[{i}].{k}");
        let template = m.get("template_name").and_then(Value::as_str);
        let catalogs: Option<Vec<String>> = m.get("catalog_names").and_then(|c| {
            c.as_sequence()?
                .iter()
                .map(|n| n.as_str().map(str::to_string))
                .collect()
        });
        match (template, catalogs) {
            (Some(t), Some(c)) => ci.catalog_mapping.push(CatalogMapping {
                template: t.to_string(),
                catalogs: c,
            }),
            (None, _) => problems.push(problem(CI_FILE, Some(&field("template_name")), "missing")),
            (_, None) => problems.push(problem(
                CI_FILE,
                Some(&field("catalog_names")),
                "missing or not a list of names",
            )),
        }
    }
    Some(ci)
}

/// The files of `catalog-templates/`, in name order.
pub(super) fn templates(
    files: &PackageFiles,
    problems: &mut Vec<LayoutProblem>,
) -> Vec<TemplateFile> {
    let prefix = format!("{TEMPLATES_DIR}/");
    files
        .iter()
        .filter_map(|(path, bytes)| {
            let name = path.strip_prefix(&prefix)?;
            if name.contains('/')
                || !(name.ends_with(".yaml") || name.ends_with(".yml") || name.ends_with(".json"))
            {
                return None;
            }
            match String::from_utf8(bytes.clone()) {
                Ok(text) => Some(TemplateFile {
                    name: name.to_string(),
                    text,
                }),
                Err(_) => {
                    problems.push(problem(path.as_str(), None, "is not UTF-8 text"));
                    None
                }
            }
        })
        .collect()
}

/// `v4.18` → (4, 18); other names → `None`.
fn openshift_version(name: &str) -> Option<(u64, u64)> {
    let stem = name.split('.').take(2).collect::<Vec<_>>().join(".");
    let (major, minor) = stem.strip_prefix('v')?.split_once('.')?;
    let minor: String = minor.chars().take_while(char::is_ascii_digit).collect();
    Some((major.parse().ok()?, minor.parse().ok()?))
}

/// The template the catalog follows ([`super::CommunityPackage::template`]).
pub(super) fn chosen_template<'a>(
    ci: Option<&CiConfig>,
    templates: &'a [TemplateFile],
) -> Option<&'a TemplateFile> {
    let mapped = ci
        .into_iter()
        .flat_map(|c| &c.catalog_mapping)
        .filter_map(|m| {
            let newest = m
                .catalogs
                .iter()
                .filter_map(|c| openshift_version(c))
                .max()?;
            let file = templates.iter().find(|t| t.name == m.template)?;
            Some((newest, file))
        });
    if let Some((_, file)) = mapped.max_by_key(|(v, _)| *v) {
        return Some(file);
    }
    if templates.len() == 1 {
        return templates.first();
    }
    templates
        .iter()
        .filter_map(|t| Some((openshift_version(&t.name)?, t)))
        .max_by_key(|(v, _)| *v)
        .map(|(_, t)| t)
}
