//! The `render:` section of a pipeline file: templates, variables and how the CSV is assembled.
//!
//! Nothing here names an operator: which template variable receives which assembled part
//! (KubeVirt's `{{.OperatorRules}}`, `{{.OperatorDeploymentSpec}}`, `{{.KubeVirtLogo}}`) and
//! which variable reads a folder of includes (`{{index .GeneratedManifests "FILE"}}`) are
//! written in the pipeline file.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use olm_release_olm::csv_build::spec::{CsvSpec, DeploymentSource, PermissionSpec};

/// How manifests are rendered.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RenderSpec {
    /// Folder of templates (`*.yaml.in` rendered as Go templates, `*.yaml` copied), relative to
    /// the source folder.
    pub templates: String,
    /// Sub-folder of `templates` whose outputs form the bundle (default `bundle`); `.` for the
    /// templates folder itself (a version folder of a package-manifest tree).
    #[serde(default = "default_bundle_dir")]
    pub bundle: String,
    /// The package file, when it is not in the bundle folder (e.g. at the top of a
    /// package-manifest tree), relative to the source folder. Read as it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
    /// A folder of CRDs kept outside the bundle folder, relative to the source folder; every
    /// CustomResourceDefinition in its `*.yaml` files joins the bundle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crds: Option<String>,
    /// Folders of includes by template variable: with `GeneratedManifests: manifests/generated`,
    /// `{{index .GeneratedManifests "FILE"}}` renders `manifests/generated/FILE` in place.
    #[serde(default)]
    pub includes: BTreeMap<String, String>,
    /// Folders of files inserted as they are, by template variable: with `Bundle:
    /// bundle/manifests`, `{{index .Bundle "FILE"}}` inserts `bundle/manifests/FILE`
    /// unrendered, so a manifest that is not a template (a CRD whose description quotes
    /// `{{ .value }}`) stays as written.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub files: BTreeMap<String, String>,
    /// Template variables: any YAML value (strings, numbers, booleans, lists, maps), seen by
    /// templates as Go sees YAML data (`{{range .Images}}` over a list or map).
    #[serde(default)]
    pub vars: BTreeMap<String, serde_yaml_ng::Value>,
    /// Functions templates may call besides Go's builtins: `go` (default) or `sprig` (the sprig
    /// subset operator templates use: `default`, `quote`, `toYaml`, `semverCompare`, …).
    #[serde(default)]
    pub functions: TemplateFunctions,
    /// How the CSV is assembled structurally.
    #[serde(default)]
    pub csv: Option<CsvSpec>,
    /// A snapshot of what a project's `make bundle` builds (written by `olm-release init`):
    /// the release first builds the kustomization again and stops while the snapshot differs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kustomize: Option<KustomizeSnapshot>,
}

/// `render.kustomize`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct KustomizeSnapshot {
    /// The kustomization the project's `make bundle` builds (`config/manifests`), relative to
    /// the source folder.
    pub build: String,
    /// The folder `olm-release init` wrote its output into, as `operator-sdk generate bundle`
    /// writes it, relative to the source folder.
    pub snapshot: String,
}

/// `render.functions`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TemplateFunctions {
    #[default]
    Go,
    Sprig,
}

fn default_bundle_dir() -> String {
    "bundle".into()
}
