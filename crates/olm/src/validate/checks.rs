//! The entry points of validation over what is in memory: every rule on a bundle
//! ([`validate_with`]), on one bundle's unit, on one CSV, on a loaded tree, and across a
//! package. The readers of paths and blobs (`report`) end in them too.

use super::model::{Options, Profile, Unit};
use super::sink::Sink;
use super::{
    crd, csv, deployment, graph, install, load, objects, olm_v1, package, pods, rules, types,
};
use crate::{Bundle, Finding, Manifest};

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
    super::sink::sorted(sink.out)
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
            crate::PackageManifest {
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
    deployment::check(csv, sink);
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
    pods::check(unit, sink);
    olm_v1::check(unit, sink);
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
