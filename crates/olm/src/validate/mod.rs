//! Bundle validation: every rule of the catalogue ([`rules`]), each finding naming file, object
//! and field, the tools that enforce the rule and how to fix it.
//!
//! One entry point per input: [`verify_path`] (a folder, a flattened `bundle.yaml` or a
//! `.tar.gz`, used by `olm-release verify`), [`verify_tarball`] (a blob), [`verify_packed`] (the
//! verify stage, on the bundle it has just packed) and [`validate_with`] (an in-memory bundle).
//! All of them end in the same two passes: the checks of one bundle (each CSV alone in [`csv`],
//! `examples`, [`present`], [`install`] and `types`; CRDs and what the CSVs own in [`crd`];
//! other objects in `objects`) run on every bundle folder, and the checks across the package
//! ([`package`], [`graph`]) run once on all its CSVs. [`load`] turns files into bundle folders;
//! string checks are hand-written in [`text`] (no regular expressions to compile per CSV).

pub mod crd;
pub mod csv;
mod examples;
pub mod graph;
pub mod install;
pub mod load;
mod objects;
pub mod package;
pub mod present;
mod report;
pub mod rules;
mod sink;
pub mod text;
mod types;

pub use report::{
    Report, verify_packed, verify_packed_streamed, verify_path, verify_path_with, verify_tarball,
};
pub use sink::{At, Sink};

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::{Bundle, Finding, Manifest};

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
}

impl Profile {
    pub fn as_str(self) -> &'static str {
        match self {
            Profile::Appregistry2019 => "appregistry-2019",
            Profile::Modern => "modern",
        }
    }
}

/// What to enforce.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    pub profile: Profile,
    /// OperatorHub's rules too (courier's `--ui_validate_io`, api's OperatorHub validator).
    pub operatorhub: bool,
    /// The categories to accept instead of the catalog's list (`--categories FILE`, like
    /// operator-framework/api's `OPERATOR_BUNDLE_CATEGORIES`).
    pub categories: Option<Arc<[String]>>,
}

impl Options {
    pub fn new(profile: Profile) -> Self {
        Options {
            profile,
            ..Options::default()
        }
    }
}

/// Why a path could not be verified at all (an input error: exit 2).
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// The path (or the categories file) cannot be read.
    #[error("{}: cannot read it: {source}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The path cannot be read as a bundle within the limits (see [`verify_path_with`]).
    #[error(transparent)]
    Bundle(#[from] crate::archive::ReadError),
    /// The categories file is not `{"categories": [...]}`.
    #[error("{}: is not a categories file: {why}; expected JSON {{\"categories\": [\"Name\", ...]}}", path.display())]
    Categories { path: PathBuf, why: String },
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
    pub path: PathBuf,
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

/// Validates an in-memory bundle (as packaged: the package file is `bundle.package.file_name()`).
pub fn validate(bundle: &Bundle, profile: Profile) -> Vec<Finding> {
    validate_with(bundle, &Options::new(profile))
}

/// Validates an in-memory bundle (with no other objects) under `opts`; findings sorted errors
/// first.
pub fn validate_with(bundle: &Bundle, opts: &Options) -> Vec<Finding> {
    let file = bundle.package.file_name();
    let mut sink = Sink::new(opts);
    check(&Unit::of(bundle, &[]), bundle, Some(&file), &mut sink);
    report::sorted(sink.out)
}

/// Checks what [`load`] found: each bundle folder as a bundle, then the package across them.
pub fn check_loaded(loaded: load::Loaded, sink: &mut Sink) {
    sink.nested = loaded.nested;
    let mut csvs = Vec::new();
    for f in loaded.folders {
        let unit = Unit {
            csvs: &f.csvs,
            crds: &f.crds,
            objects: &f.objects,
        };
        for csv in unit.csvs {
            check_csv(csv, sink);
        }
        check_unit(&unit, sink);
        csvs.extend(f.csvs);
    }
    let (file, package) = match loaded.package {
        Some((file, p)) => (Some(file), p),
        None => (
            None,
            super::PackageManifest {
                package_name: String::new(),
                channels: Vec::new(),
                default_channel: None,
            },
        ),
    };
    let bundle = Bundle {
        package,
        csvs,
        crds: Vec::new(),
    };
    check_across(&bundle, file.as_deref(), sink);
}

/// The manifests of one bundle: what the checks of a bundle (as opposed to a package) see.
#[derive(Debug, Clone, Copy)]
pub struct Unit<'a> {
    pub csvs: &'a [Manifest],
    pub crds: &'a [Manifest],
    /// Objects other than CSVs and CRDs.
    pub objects: &'a [Manifest],
}

impl<'a> Unit<'a> {
    /// What is checked as one bundle when the bundle is in memory: its CSVs and CRDs, and the
    /// other objects released with it (`objects`: what render read beside the CSV in a
    /// pipeline, what `publish` read beside the CSVs in a folder, tree or tarball). The verify
    /// stage, `publish` and `publish --history` all check this unit; `verify PATH` checks each
    /// bundle folder its loader finds (a folder's CSVs, CRDs and objects), so the same folder
    /// gives the same findings every way.
    pub fn of(bundle: &'a Bundle, objects: &'a [Manifest]) -> Self {
        Unit {
            csvs: &bundle.csvs,
            crds: &bundle.crds,
            objects,
        }
    }
}

/// Every rule on a flat in-memory bundle (`unit` is [`Unit::of`] it). `package_file` is `None`
/// when the bundle had no package file (already reported), which turns off the package and
/// channel checks.
pub fn check(unit: &Unit, bundle: &Bundle, package_file: Option<&str>, sink: &mut Sink) {
    for csv in unit.csvs {
        check_csv(csv, sink);
    }
    check_unit(unit, sink);
    check_across(bundle, package_file, sink);
}

/// The checks that look at one CSV alone. Together with the CRD and object checks and the
/// checks across the package on the CSVs' [`skeleton`]s they find what the whole-bundle check
/// finds (the bundle-size rule from the CSVs' list items: [`check_size_streamed`]), so a large
/// bundle can be validated one CSV at a time.
pub fn check_csv(csv: &Manifest, sink: &mut Sink) {
    csv::check(csv, sink);
    install::check(csv, sink);
    types::check(csv, sink);
    objects::requests(csv, sink);
}

/// The bundle-size finding of a bundle read one CSV at a time: its CSVs as the flattened
/// bundle's list items it kept (`csv_items`, in the canonical order), its CRDs and objects
/// whole. The same finding [`check_unit`] gives the bundle read whole.
pub fn check_size_streamed(
    csv_items: &str,
    contents: &crate::archive::Contents,
    opts: &Options,
) -> Vec<Finding> {
    let mut sink = Sink::new(opts);
    if sink.on(&rules::BUNDLE_SIZE) {
        let unit = Unit::of(&contents.bundle, &contents.objects);
        package::check_size_of(csv_items, &unit, &mut sink);
    }
    sink.out
}

/// The checks of one bundle beyond its CSVs alone: CRDs and ownership, other objects, size.
pub fn check_unit(unit: &Unit, sink: &mut Sink) {
    crd::check(unit, sink);
    objects::check(unit, sink);
    if sink.on(&rules::BUNDLE_SIZE) {
        package::check_size(unit, sink);
    }
}

/// What the checks across a bundle read of a CSV: its identity, version and upgrade edges
/// (`replaces`, `skips`, `olm.skipRange`), its owned and required APIs and its examples, and
/// the service accounts its deployments run as (which the object checks compare with the
/// bundle's ServiceAccounts). The rest (install strategy, permissions, icon, description) is
/// only read by [`check_csv`].
pub fn skeleton(csv: &Manifest) -> Manifest {
    use serde_yaml_ng::{Mapping, Value};
    let mut top = Mapping::new();
    for key in ["apiVersion", "kind", "metadata"] {
        if let Some(v) = csv.doc.get(key) {
            top.insert(key.into(), v.clone());
        }
    }
    if let Some(spec) = csv.doc.get("spec").and_then(Value::as_mapping) {
        let mut kept = Mapping::new();
        for key in ["version", "replaces", "skips", "customresourcedefinitions"] {
            if let Some(v) = spec.get(key) {
                kept.insert(key.into(), v.clone());
            }
        }
        if let Some(install) = install::accounts_only(csv) {
            kept.insert("install".into(), install);
        }
        top.insert("spec".into(), Value::Mapping(kept));
    } else if let Some(spec) = csv.doc.get("spec") {
        top.insert("spec".into(), spec.clone());
    }
    Manifest::new(csv.file.clone(), Value::Mapping(top))
}

/// The checks across the package: names and versions, the package file and the upgrade graph.
pub fn check_across(bundle: &Bundle, package_file: Option<&str>, sink: &mut Sink) {
    graph::check_versions(bundle, sink);
    if let Some(file) = package_file {
        package::check(bundle, file, sink);
        graph::check(bundle, sink);
    }
}
