//! What a validation is asked and what it is given: the profile and options (which rules
//! apply), a custom categories list, the unit of manifests checked as one bundle, and why a
//! path cannot be verified at all.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::{Bundle, Manifest};

/// Which era's rules apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Profile {
    /// OpenShift 4.1 / app registry: what operator-courier 2.1.11 and the registry loader
    /// enforced.
    #[default]
    #[serde(rename = "appregistry-2019")]
    Appregistry2019,
    /// What operator-framework/api's validators and `opm validate` enforce today.
    Modern,
    /// `modern` and what OLM v1 (operator-controller) refuses or does not support.
    #[serde(rename = "olm-v1")]
    OlmV1,
}

impl Profile {
    /// The profile's name, as `--profile` takes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Profile::Appregistry2019 => "appregistry-2019",
            Profile::Modern => "modern",
            Profile::OlmV1 => "olm-v1",
        }
    }
}

/// One accepted error: a rule, optionally for one object only, and why (see
/// [`super::accept`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Acceptance {
    /// The rule's id (`crd-conversion-schemas`, …).
    pub rule: String,
    /// The object the acceptance is for (`metadata.name` of the CRD, Deployment, …); `None`:
    /// every finding of the rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
    /// Why the project ships it anyway, as the finding then says.
    pub because: String,
}

impl Acceptance {
    /// Whether this acceptance covers a finding of `rule` about `object`.
    pub(crate) fn covers(&self, rule: &str, object: &str) -> bool {
        self.rule == rule && self.object.as_deref().is_none_or(|o| o == object)
    }

    /// `RULE` or `RULE for OBJECT`, as messages name it.
    pub fn shown(&self) -> String {
        match &self.object {
            Some(o) => format!("{} for {o}", self.rule),
            None => self.rule.clone(),
        }
    }
}

/// What to enforce.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// The set of tools whose verdicts the findings follow (`--profile`).
    pub profile: Profile,
    /// OperatorHub's rules too (courier's `--ui_validate_io`, api's OperatorHub validator).
    pub operatorhub: bool,
    /// The categories to accept instead of the catalog's list (`--categories FILE`, like
    /// operator-framework/api's `OPERATOR_BUNDLE_CATEGORIES`).
    pub categories: Option<Arc<[String]>>,
    /// Objects the cluster admin creates in the install namespace before installing, as
    /// `Kind/name` (e.g. `ConfigMap/ack-ec2-user-config`, which AWS's ACK controllers document
    /// as a prerequisite): a Deployment naming one is not refused by `deployment-references`
    /// (`verify --provided`, a pipeline's `verify.provided`).
    pub provided: Arc<[String]>,
    /// Errors of olm-release's own the project ships anyway, each with its reason: reported as
    /// warnings (`verify --accept`, a pipeline's `verify.accept`; see [`super::accept`]).
    pub accepted: Arc<[Acceptance]>,
}

impl Options {
    /// The options of `profile`, without OperatorHub's rules and with the catalog's categories.
    pub fn new(profile: Profile) -> Self {
        Options {
            profile,
            ..Options::default()
        }
    }
}

/// The kinds a Deployment's pods name that a cluster admin may create before installing.
pub const PROVIDED_KINDS: [&str; 4] = [
    "Secret",
    "ConfigMap",
    "PersistentVolumeClaim",
    "ServiceAccount",
];

/// Checks one `Kind/name` of [`Options::provided`]: a kind of [`PROVIDED_KINDS`] and a name.
pub fn check_provided(value: &str) -> Result<(), String> {
    match value.split_once('/') {
        Some((kind, name))
            if PROVIDED_KINDS.contains(&kind) && !name.is_empty() && !name.contains('/') =>
        {
            Ok(())
        }
        _ => Err(format!(
            "{value:?} is not KIND/NAME with KIND one of {}",
            PROVIDED_KINDS.join(", ")
        )),
    }
}

/// Why a path could not be verified at all (an input error: exit 2).
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// The path (or the categories file) cannot be read.
    #[error("{}: cannot read it: {source}", path.display())]
    Read {
        /// The file that could not be read.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// The path cannot be read as a bundle within the limits (see [`super::verify_path_with`]).
    #[error(transparent)]
    Bundle(#[from] crate::archive::ReadError),
    /// The categories file is not `{"categories": [...]}`.
    #[error("{}: is not a categories file: {why}; expected JSON {{\"categories\": [\"Name\", ...]}}", path.display())]
    Categories {
        /// The categories file.
        path: PathBuf,
        /// The JSON parser's error.
        why: String,
    },
}

impl olm_release_base::Classified for VerifyError {
    /// An unreadable path or categories file is an input error; a bundle that cannot be read
    /// says its own class.
    fn class(&self) -> olm_release_base::Class {
        match self {
            VerifyError::Bundle(e) => e.class(),
            VerifyError::Read { .. } | VerifyError::Categories { .. } => {
                olm_release_base::Class::Input
            }
        }
    }
}

/// A custom categories file, read: its path (what plans and messages show) and its names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Categories {
    /// The file, as given to `--categories`.
    pub path: PathBuf,
    /// The category names it lists, in its order.
    pub names: Arc<[String]>,
}

impl Categories {
    /// Reads the file ([`read_categories`]).
    pub fn read(path: &Path) -> Result<Self, VerifyError> {
        Ok(Categories {
            path: path.to_path_buf(),
            names: read_categories(path)?,
        })
    }
}

/// The manifests of one bundle: what the checks of a bundle (as opposed to a package) see.
#[derive(Debug, Clone, Copy)]
pub struct Unit<'a> {
    pub(crate) csvs: &'a [Manifest],
    pub(crate) crds: &'a [Manifest],
    /// Objects other than CSVs and CRDs.
    pub(crate) objects: &'a [Manifest],
}

impl<'a> Unit<'a> {
    /// What is checked as one bundle when the bundle is in memory: its CSVs and CRDs, and the
    /// other objects released with it (`objects`: what render read beside the CSV in a
    /// pipeline, what `publish` read beside the CSVs in a folder, tree or tarball). The verify
    /// stage, `publish` and `publish --history` all check this unit; `verify PATH` checks each
    /// bundle folder its loader finds (a folder's CSVs, CRDs and objects), so the same folder
    /// gives the same findings every way.
    pub(crate) fn of(bundle: &'a Bundle, objects: &'a [Manifest]) -> Self {
        Unit {
            csvs: &bundle.csvs,
            crds: &bundle.crds,
            objects,
        }
    }
}

/// Reads a custom categories file: JSON `{"categories": [...]}` as operator-framework/api's
/// `OPERATOR_BUNDLE_CATEGORIES` file.
pub fn read_categories(path: &Path) -> Result<Arc<[String]>, VerifyError> {
    #[derive(Deserialize)]
    struct File {
        categories: Vec<String>,
    }
    let max = olm_release_base::input::MAX_FILE_BYTES;
    let bytes = olm_release_base::input::read(path, max).map_err(|source| VerifyError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let file: File = serde_json::from_slice(&bytes).map_err(|e| VerifyError::Categories {
        path: path.to_path_buf(),
        why: e.to_string(),
    })?;
    Ok(file.categories.into())
}
