//! What can go wrong assembling a CSV from files: a file the pipeline names is missing or not
//! what it should be. The pipeline's author fixes each of these (an input error), and every
//! message names the file and what to change.

/// A CSV part that cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum CsvError {
    /// A file could not be read or parsed (the loader's message names it).
    #[error("{0}")]
    Load(String),
    /// An RBAC file a permission lists (`render.csv.permissions[].rbac`,
    /// `render.csv.cluster_permissions[].rbac`) does not exist.
    #[error("{file}: no such RBAC file")]
    NoRbacFile {
        /// The file, as the pipeline names it.
        file: String,
    },
    /// The rules of one service account could not be built from its RBAC files.
    #[error("permissions of service account '{account}': {source}")]
    Permissions {
        /// The service account (`service_account`) the permission is for.
        account: String,
        /// Why: the role or its rules are not in the files.
        #[source]
        source: Box<CsvError>,
    },
    /// The permission's own `role` is not a Role or ClusterRole of its RBAC files.
    #[error("role '{role}' is not defined in {files}")]
    NoRole {
        /// The role's name, as the pipeline gives it.
        role: String,
        /// The RBAC files searched, comma-separated.
        files: String,
    },
    /// A role the permission's `include` names is not a Role or ClusterRole of its RBAC files.
    #[error("role '{role}' (listed in include) is not defined in {files}")]
    NoIncludedRole {
        /// The role's name, as `include` gives it.
        role: String,
        /// The RBAC files searched, comma-separated.
        files: String,
    },
    /// A Role's or ClusterRole's `rules` is something other than a list.
    #[error("{file}: rules of {kind} '{name}' is not a list")]
    Rules {
        /// The RBAC file that defines the role.
        file: String,
        /// `Role` or `ClusterRole`.
        kind: String,
        /// The role's `metadata.name`.
        name: String,
    },
    /// A Deployment file `render.csv.deployments` names does not exist (and is not `optional`).
    #[error("{file}: no such Deployment file (render.csv.deployments)")]
    NoDeploymentFile {
        /// The file, as the pipeline names it.
        file: String,
    },
    /// The Deployment file does not hold exactly one Deployment of the `name` the pipeline gives.
    #[error("{file}: expected one Deployment named '{name}', found {found}")]
    DeploymentNamed {
        /// The Deployment file, as the pipeline names it.
        file: String,
        /// The Deployment's `metadata.name` the pipeline asks for.
        name: String,
        /// How many Deployments of that name the file holds.
        found: usize,
    },
    /// The Deployment file names no Deployment and holds none or several.
    #[error(
        "{file}: expected one Deployment, found {found}; name the one to use (render.csv.deployments[].name)"
    )]
    Deployments {
        /// The Deployment file, as the pipeline names it.
        file: String,
        /// How many Deployments the file holds.
        found: usize,
    },
    /// The Deployment has no `spec` or no `metadata.name`.
    #[error("{file}: the Deployment has no {field}")]
    DeploymentField {
        /// The Deployment file, as the pipeline names it.
        file: String,
        /// The missing field: `spec` or `metadata.name`.
        field: &'static str,
    },
    /// The icon file is not an image type the CSV schema accepts (judged by its first bytes).
    #[error(
        "{file}: not a PNG, JPEG, GIF or SVG image (first bytes: {head}); OLM accepts only those"
    )]
    Icon {
        /// The icon file, as the pipeline names it (`render.csv.icon`).
        file: String,
        /// Its first eight bytes, in hex.
        head: String,
    },
    /// A place of the CSV where a part is set holds something other than a mapping.
    #[error("{path} is not a mapping")]
    NotMapping {
        /// The place: a dotted path such as `spec.install.spec`, or `the CSV` for the document
        /// itself.
        path: String,
    },
    /// The template's `spec.install.spec.deployments` is something other than a list, so the
    /// deployments cannot be set in it.
    #[error("spec.install.spec.deployments is not a list")]
    DeploymentsNotList,
    /// Reading the parts failed.
    #[error("assembling the CSV: {0}")]
    Assembling(#[source] Box<CsvError>),
    /// Setting the parts into the CSV of `file` failed.
    #[error("{file}: {source}")]
    InCsv {
        /// The CSV's template.
        file: String,
        /// Why.
        #[source]
        source: Box<CsvError>,
    },
    /// The rendered CSV has no name.
    #[error("{file}: the CSV has no metadata.name")]
    NoName {
        /// The CSV's template.
        file: String,
    },
}

impl olm_release_base::Classified for CsvError {
    /// A file the pipeline names must change: an input error.
    fn class(&self) -> olm_release_base::Class {
        olm_release_base::Class::Input
    }
}
