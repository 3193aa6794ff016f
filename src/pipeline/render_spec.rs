//! The `render:` section of a pipeline file: templates, variables and how the CSV is assembled.

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
    /// Folder for `{{index .GeneratedManifests "FILE"}}` includes.
    #[serde(default)]
    pub generated: Option<String>,
    /// Template variables (strings).
    #[serde(default)]
    pub vars: BTreeMap<String, String>,
    /// How the CSV is assembled structurally.
    #[serde(default)]
    pub csv: Option<CsvSpec>,
}

fn default_bundle_dir() -> String {
    "bundle".into()
}

/// Structural parts of the CSV, built from files rather than pasted text.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CsvSpec {
    /// `metadata.name`; `{version}` is replaced by the version. Default: the template's.
    #[serde(default)]
    pub name: Option<String>,
    /// Image file whose bytes become `spec.icon`.
    #[serde(default)]
    pub icon: Option<String>,
    /// Deployment YAML files whose `spec` become `install.spec.deployments`.
    #[serde(default)]
    pub deployments: Vec<String>,
    /// `install.spec.clusterPermissions`, one entry per service account.
    #[serde(default)]
    pub cluster_permissions: Vec<PermissionSpec>,
    /// `install.spec.permissions`, one entry per service account.
    #[serde(default)]
    pub permissions: Vec<PermissionSpec>,
}

/// Rules of one service account, built from RBAC files.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PermissionSpec {
    pub service_account: String,
    /// The operator's own (Cluster)Role, whose rules come first.
    pub role: String,
    /// RBAC YAML files (multi-document) holding that role and the others.
    pub rbac: Vec<String>,
    /// Other (Cluster)Roles whose rules are appended; `["*"]` means every other role in the files.
    #[serde(default)]
    pub include: Vec<String>,
}
