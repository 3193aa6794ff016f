//! What can go wrong assembling a CSV from files: a file the pipeline names is missing or not
//! what it should be. The pipeline's author fixes each of these (an input error), and every
//! message names the file and what to change.

/// A CSV part that cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum CsvError {
    /// A file could not be read or parsed (the loader's message names it).
    #[error("{0}")]
    Load(String),
    #[error("{file}: no such RBAC file")]
    NoRbacFile { file: String },
    #[error("permissions of service account '{account}': {source}")]
    Permissions {
        account: String,
        #[source]
        source: Box<CsvError>,
    },
    #[error("role '{role}' is not defined in {files}")]
    NoRole { role: String, files: String },
    #[error("role '{role}' (listed in include) is not defined in {files}")]
    NoIncludedRole { role: String, files: String },
    #[error("{file}: rules of {kind} '{name}' is not a list")]
    Rules {
        file: String,
        kind: String,
        name: String,
    },
    #[error("{file}: no such Deployment file (render.csv.deployments)")]
    NoDeploymentFile { file: String },
    #[error("{file}: expected one Deployment named '{name}', found {found}")]
    DeploymentNamed {
        file: String,
        name: String,
        found: usize,
    },
    #[error(
        "{file}: expected one Deployment, found {found}; name the one to use (render.csv.deployments[].name)"
    )]
    Deployments { file: String, found: usize },
    #[error("{file}: the Deployment has no {field}")]
    DeploymentField { file: String, field: &'static str },
    #[error(
        "{file}: not a PNG, JPEG, GIF or SVG image (first bytes: {head}); OLM accepts only those"
    )]
    Icon { file: String, head: String },
    #[error("{path} is not a mapping")]
    NotMapping { path: String },
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
