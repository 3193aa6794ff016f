//! What `init` found in a repository, as data: the layout of its OLM manifests and everything
//! the pipeline and the templates are written from.

use std::collections::{BTreeMap, BTreeSet};

use super::bundles::{BundleDir, Format};
use super::parts::{Crd, Deployment, Permissions};
use super::rbac;

/// How the repository's OLM manifests are laid out.
#[derive(Debug, Clone)]
pub(crate) enum Layout {
    /// Templates rendered in place: `templates` holds the `bundle` sub-folder (KubeVirt).
    Templates { templates: String, bundle: String },
    /// A bundle with a complete CSV: a registry+v1 folder, or the newest version folder of an
    /// operator-sdk catalog.
    Bundle(Box<BundleDir>),
    /// A kubebuilder `config/` tree: the CSV base in `config/manifests/bases/`, the objects
    /// from `kustomize build config/default` (`built`, when it could be built).
    Kubebuilder {
        csv: Option<String>,
        built: Option<String>,
    },
    /// Plain manifests; `csv` is a CSV file if the repository has one.
    Plain { csv: Option<String> },
    /// A kubebuilder / operator-sdk project whose `make bundle` builds the kustomization `dir`:
    /// built and generated as operator-sdk does into the folder `snapshot`.
    MakeBundle { dir: String, snapshot: String },
}

impl Layout {
    pub fn describe(&self) -> String {
        match self {
            Layout::Templates { templates, bundle } => {
                format!("templates in {templates}/, bundle in {templates}/{bundle}/")
            }
            Layout::Bundle(b) => match (&b.tree, b.format) {
                (Some(tree), Format::PackageManifest) => {
                    format!("operator-sdk catalog {tree}/, newest version {}", b.version)
                }
                (Some(tree), Format::RegistryV1) => format!(
                    "operator-sdk catalog {tree}/, newest version {} (a registry+v1 bundle: {}/)",
                    b.version, b.root
                ),
                (None, _) => format!("registry+v1 bundle {}/ (version {})", b.root, b.version),
            },
            Layout::Kubebuilder { csv, built } => format!(
                "kubebuilder config/ (CSV base {}; objects from {})",
                csv.as_deref().unwrap_or("none yet"),
                built.as_deref().unwrap_or("config/'s bases, not built")
            ),
            Layout::Plain { csv: Some(csv) } => format!("plain manifests with the CSV {csv}"),
            Layout::Plain { csv: None } => "plain manifests, no CSV yet".into(),
            Layout::MakeBundle { dir, snapshot } => format!(
                "kubebuilder config/ as `make bundle` builds it: {dir}, generated as operator-sdk generate bundle does into {snapshot}/"
            ),
        }
    }
}

/// Everything the pipelines are written from.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    pub layout: Layout,
    /// The package and where the name came from.
    pub package: Option<(String, String)>,
    /// Whether the package file writes `packageName` literally (not `{{.PackageName}}`).
    pub literal_package: bool,
    /// The channels a release joins (the first is the one whose head it replaces).
    pub channels: Vec<String>,
    /// The package's default channel, when the repository says it.
    pub default_channel: Option<String>,
    /// The CSV template or file.
    pub csv: Option<String>,
    /// `metadata.name` with `{version}` for the version, when it can be told.
    pub csv_name: Option<String>,
    /// The CSV is complete (its deployments and permissions stay as written).
    pub complete_csv: bool,
    pub crds: Vec<Crd>,
    /// Other files of the bundle (Services, ConfigMaps, roles…), included as they are.
    pub objects: Vec<String>,
    /// `metadata/dependencies.yaml` of a registry+v1 bundle.
    pub dependencies: Option<String>,
    /// `metadata/properties.yaml` of a registry+v1 bundle.
    pub properties: Option<String>,
    pub deployment: Option<Deployment>,
    /// The operator's permissions in a templates layout.
    pub permissions: Option<Permissions>,
    /// The permissions of each service account of the CSV's deployments (other layouts).
    pub accounts: Vec<rbac::Permissions>,
    /// Container images to set by container name, `${VERSION}` where the tag holds the version.
    pub images: Vec<(String, String)>,
    pub icon: Option<String>,
    /// Include folders by template variable (`{{index .Var "FILE"}}`).
    pub includes: BTreeMap<String, String>,
    /// Template variables the pipeline must define, with the files that use them.
    pub vars: BTreeMap<String, BTreeSet<String>>,
    /// Rendered names of OperatorSource manifests (release assets).
    pub operator_sources: Vec<String>,
    /// Example custom resources of the CRDs (for a new CSV's `alm-examples`).
    pub examples: Vec<serde_json::Value>,
    /// The operators the repository holds, when more than one: (name, description).
    pub operators: Vec<(String, String)>,
    /// What `init` chose and why (copies not taken, patches ignored), for its report.
    pub notes: Vec<String>,
    /// What the user should do (a tool to install, a command to run).
    pub todo: Vec<String>,
    /// Files `init` writes besides the templates (kustomize's output): (path, text).
    pub built: Vec<(String, String)>,
    /// `render.kustomize`: the kustomization `make bundle` builds and the snapshot of it.
    pub kustomize: Option<(String, String)>,
    /// A kubebuilder CSV base, parsed, to complete into the CSV to start from.
    pub csv_base: Option<serde_yaml_ng::Value>,
    /// The package's other bundle flavours (`bundle/openshift` beside `bundle/community`),
    /// each released by a variant of its own ([`super::flavours`]).
    pub flavours: Vec<BundleDir>,
}

impl Found {
    pub fn new(layout: Layout) -> Found {
        Found {
            layout,
            package: None,
            literal_package: false,
            channels: Vec::new(),
            default_channel: None,
            csv: None,
            csv_name: None,
            complete_csv: false,
            crds: Vec::new(),
            objects: Vec::new(),
            dependencies: None,
            properties: None,
            deployment: None,
            permissions: None,
            accounts: Vec::new(),
            images: Vec::new(),
            icon: None,
            includes: BTreeMap::new(),
            vars: BTreeMap::new(),
            operator_sources: Vec::new(),
            examples: Vec::new(),
            operators: Vec::new(),
            notes: Vec::new(),
            todo: Vec::new(),
            built: Vec::new(),
            kustomize: None,
            csv_base: None,
            flavours: Vec::new(),
        }
    }

    /// Whether anything was found to release.
    pub fn is_empty(&self) -> bool {
        matches!(self.layout, Layout::Plain { csv: None })
            && self.crds.is_empty()
            && self.deployment.is_none()
    }
}
