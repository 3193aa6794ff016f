//! The community layout's model: a package folder's files as data, what is read from them (the
//! package, its version bundles, `ci.yaml`, the templates) and the problems found.

use std::collections::BTreeMap;
use std::fmt;

use semver::Version;

use super::top::{self, CiConfig, TemplateFile};
use crate::Manifest;
use crate::bundle_image::{BundleInput, BundleMetadata, BundleSpec};

/// The files of one package folder (`operators/<package>/`): each path relative to it, with `/`
/// between parts, and its bytes.
pub type PackageFiles = BTreeMap<String, Vec<u8>>;

/// One version folder, read: a registry+v1 bundle with what its metadata says.
#[derive(Debug, Clone)]
pub struct VersionBundle {
    /// The folder's name (`0.2.0`), as messages name it.
    pub folder: String,
    /// The CSV's `spec.version`.
    pub version: Version,
    /// The CSV, from `manifests/`.
    pub csv: Manifest,
    /// Every other object of `manifests/` (CRDs first as the folder lists them, then the rest).
    pub objects: Vec<Manifest>,
    /// The channels `metadata/annotations.yaml` names, in its order.
    pub channels: Vec<String>,
    /// The default channel the annotations name, if any.
    pub default_channel: Option<String>,
    /// The dependencies and properties files, the other annotations, the scorecard tests and
    /// the file names of `manifests/`, as the bundle image carries them.
    pub metadata: BundleMetadata,
}

impl VersionBundle {
    /// The CSV's name (`metadata.name`).
    pub fn name(&self) -> &str {
        self.csv.name().unwrap_or_default()
    }

    /// What the bundle image code builds this version's bundle from: the folder's manifests and
    /// metadata, the package and channels its annotations name. A default channel the bundle
    /// does not join itself (the package's, which an earlier version's channels hold: hive-operator's
    /// bundles join `ocm-2.x` and name `alpha`) is left to the catalog: the bundle image code
    /// labels an image with a default among its own channels, here the first.
    pub fn input(&self, package: &str) -> BundleInput {
        let own_default = self
            .default_channel
            .clone()
            .filter(|d| self.channels.contains(d));
        BundleInput {
            spec: BundleSpec {
                package: package.to_string(),
                channels: self.channels.clone(),
                default_channel: own_default,
            },
            csv: self.csv.clone(),
            objects: self.objects.clone(),
            metadata: self.metadata.clone(),
        }
    }
}

/// A package folder, read.
#[derive(Debug, Clone)]
pub struct CommunityPackage {
    /// The package every version's annotations name.
    pub package: String,
    /// `ci.yaml`, when there is one.
    pub ci: Option<CiConfig>,
    /// The version bundles, in ascending SemVer order of their CSVs' `spec.version`.
    pub versions: Vec<VersionBundle>,
    /// `catalog-templates/`, by file name.
    pub templates: Vec<TemplateFile>,
}

impl CommunityPackage {
    /// The package's default channel: the newest version's annotation, as the community
    /// pipeline's `opm` adds bundles in order and the last one's default wins.
    pub fn default_channel(&self) -> Option<&str> {
        self.versions
            .iter()
            .rev()
            .find_map(|v| v.default_channel.as_deref())
    }

    /// Whether `ci.yaml` has the community pipeline build the graph by version
    /// (`updateGraph: semver-mode` or `semver-skippatch-mode`, `opm index add --mode semver`):
    /// each version replaces the previous one of its channel, whatever its CSV's `replaces`.
    pub fn semver_mode(&self) -> bool {
        self.ci
            .as_ref()
            .and_then(|c| c.update_graph.as_deref())
            .is_some_and(|m| m.starts_with("semver"))
    }

    /// The template the catalog follows: the one `ci.yaml`'s `fbc.catalog_mapping` maps to the
    /// newest OpenShift catalog (`v4.NN`), else the one file, else the file whose name is the
    /// newest `vX.Y`; `None` without templates.
    pub fn template(&self) -> Option<&TemplateFile> {
        top::chosen_template(self.ci.as_ref(), &self.templates)
    }
}

/// One problem of the layout: the file (relative to the package folder), the field when one is
/// at fault, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayoutProblem {
    /// The file or folder, relative to the package folder.
    pub file: String,
    /// The field at fault (`spec.version`, `annotations.…channels.v1`), if one.
    pub field: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LayoutProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.field {
            Some(field) => write!(f, "{}: {field}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// Every problem of a package folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayoutErrors(pub Vec<LayoutProblem>);

impl fmt::Display for LayoutErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        write!(
            f,
            "the package folder has {}:",
            olm_release_base::words::count(n, "problem")
        )?;
        for p in &self.0 {
            write!(f, "\n  {p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LayoutErrors {}

pub(crate) fn problem(
    file: impl Into<String>,
    field: Option<&str>,
    message: impl Into<String>,
) -> LayoutProblem {
    LayoutProblem {
        file: file.into(),
        field: field.map(str::to_string),
        message: message.into(),
    }
}
