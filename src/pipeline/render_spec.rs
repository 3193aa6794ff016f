//! The `render:` section of a pipeline file: templates, variables and how the CSV is assembled.
//!
//! Nothing here names an operator: which template variable receives which assembled part
//! (KubeVirt's `{{.OperatorRules}}`, `{{.OperatorDeploymentSpec}}`, `{{.KubeVirtLogo}}`) and
//! which variable reads a folder of includes (`{{index .GeneratedManifests "FILE"}}`) are
//! written in the pipeline file.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// How manifests are rendered.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RenderSpec {
    /// Folder of templates (`*.yaml.in` rendered as Go templates, `*.yaml` copied), relative to
    /// the source folder.
    pub templates: String,
    /// Sub-folder of `templates` whose outputs form the bundle (default `bundle`).
    #[serde(default = "default_bundle_dir")]
    pub bundle: String,
    /// Folders of includes by template variable: with `GeneratedManifests: manifests/generated`,
    /// `{{index .GeneratedManifests "FILE"}}` renders `manifests/generated/FILE` in place.
    #[serde(default)]
    pub includes: BTreeMap<String, String>,
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

/// Structural parts of the CSV, built from files rather than pasted text. Each part given here
/// replaces what the template wrote at that place in the CSV.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CsvSpec {
    /// `metadata.name`; `{version}` is replaced by the version. Default: the template's.
    #[serde(default)]
    pub name: Option<String>,
    /// Image file whose bytes become `spec.icon` (media type read from the bytes).
    #[serde(default)]
    pub icon: Option<String>,
    /// Deployment YAML files whose `spec` become `install.spec.deployments`.
    #[serde(default)]
    pub deployments: Vec<DeploymentSource>,
    /// `install.spec.clusterPermissions`, one entry per service account.
    #[serde(default)]
    pub cluster_permissions: Vec<PermissionSpec>,
    /// `install.spec.permissions`, one entry per service account.
    #[serde(default)]
    pub permissions: Vec<PermissionSpec>,
    /// Template variables filled from the assembled parts, by path: `clusterPermissions[SA].rules`,
    /// `permissions[SA].rules`, `deployments[NAME].spec`, `icon.base64data`, `icon.mediatype`,
    /// `name`, `version`, `createdAt`. They print as YAML at the column of their action.
    #[serde(default)]
    pub vars: BTreeMap<String, String>,
}

/// A Deployment file (a template when it ends in `.in`).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DeploymentSource {
    pub file: String,
    /// The Deployment's `metadata.name` when the file holds several.
    #[serde(default)]
    pub name: Option<String>,
    /// When true, a missing file is not an error: the template's own deployment stays.
    #[serde(default)]
    pub optional: bool,
}

/// Rules of one service account, built from RBAC files.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PermissionSpec {
    pub service_account: String,
    /// The operator's own (Cluster)Role, whose rules come first.
    pub role: String,
    /// RBAC YAML files (multi-document, templates when they end in `.in`) holding that role
    /// and the others.
    pub rbac: Vec<String>,
    /// Other (Cluster)Roles whose rules are appended; `["*"]` means every other role in the files.
    #[serde(default)]
    pub include: Vec<String>,
}
