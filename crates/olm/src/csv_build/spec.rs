//! What the pipeline asks the CSV assembly for: which files give the permissions, the
//! deployments and the icon, and which template variables receive the assembled parts.
//!
//! These are domain inputs (the pipeline file's `render.csv` section deserialises straight into
//! them), kept here so that [`super::Parts::build`] depends on nothing outside `olm`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Structural parts of the CSV, built from files rather than pasted text. Each part given here
/// replaces what the template wrote at that place in the CSV.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CsvSpec {
    /// `metadata.name`; `{version}` is replaced by the version. Default: the template's.
    #[serde(default)]
    pub(crate) name: Option<String>,
    /// Image file whose bytes become `spec.icon` (media type read from the bytes).
    #[serde(default)]
    pub(crate) icon: Option<String>,
    /// Deployment YAML files whose `spec` become `install.spec.deployments`.
    #[serde(default)]
    pub(crate) deployments: Vec<DeploymentSource>,
    /// `install.spec.clusterPermissions`, one entry per service account.
    #[serde(default)]
    pub(crate) cluster_permissions: Vec<PermissionSpec>,
    /// `install.spec.permissions`, one entry per service account.
    #[serde(default)]
    pub(crate) permissions: Vec<PermissionSpec>,
    /// Template variables filled from the assembled parts, by path: `clusterPermissions[SA].rules`,
    /// `permissions[SA].rules`, `deployments[NAME].spec`, `icon.base64data`, `icon.mediatype`,
    /// `name`, `version`, `createdAt`. They print as YAML at the column of their action.
    #[serde(default)]
    pub(crate) vars: BTreeMap<String, String>,
    /// `metadata.annotations.createdAt`: `keep` (default) leaves the CSV's own (none added
    /// where it has none, as `opm render` reads a bundle); `set` writes the release time.
    #[serde(default)]
    pub created_at: CreatedAtPolicy,
    /// Container images by container name (`operator: quay.io/acme/op:v1.2.0`), set in every
    /// deployment of the CSV wherever a container of that name runs. The one set in the first
    /// deployment is the operator's image, and also becomes the `containerImage` annotation.
    #[serde(default)]
    pub(crate) images: BTreeMap<String, String>,
}

/// `render.csv.created_at`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CreatedAtPolicy {
    /// Keep a CSV's own `createdAt`, and add none.
    #[default]
    Keep,
    /// Always write the release time.
    Set,
}

/// A Deployment file (a template when it ends in `.in`).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DeploymentSource {
    /// The file, relative to the source folder.
    pub(crate) file: String,
    /// The Deployment's `metadata.name` when the file holds several.
    #[serde(default)]
    pub(crate) name: Option<String>,
    /// When true, a missing file is not an error: the template's own deployment stays.
    #[serde(default)]
    pub(crate) optional: bool,
}

/// Rules of one service account, built from RBAC files.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PermissionSpec {
    /// The service account the rules are granted to.
    pub(crate) service_account: String,
    /// The operator's own (Cluster)Role, whose rules come first.
    pub(crate) role: String,
    /// RBAC YAML files (multi-document, templates when they end in `.in`) holding that role
    /// and the others.
    pub(crate) rbac: Vec<String>,
    /// Other (Cluster)Roles whose rules are appended; `["*"]` means every other role in the files.
    #[serde(default)]
    pub(crate) include: Vec<String>,
}
