//! Reading the bundle out of the rendered files: exactly one CSV, its CRDs, the package file,
//! and the other objects OLM's bundle format allows, all from the bundle folder (`.` for the
//! templates folder itself); the package file and CRDs may also come from outside it
//! (`render.package`, `render.crds`). A kind OLM would not install from a bundle is an error
//! naming the kinds it would (operator-registry `pkg/lib/bundle/supported_resources.go`).
//!
//! An operator-sdk style bundle folder's metadata documents are recognised too, as
//! operator-registry's bundle parser reads them (`pkg/registry/parse.go`): a dependencies file
//! (`dependencies:`) and a properties file (`properties:`) travel to the bundle image's
//! `metadata/` and the catalog entry; an annotations file (`annotations:`) is read for the package
//! it names, and its annotations travel to the image's (the six bundle keys are the release's).
//! The files under the bundle folder's `tests/scorecard/` (operator-sdk's scorecard
//! configuration, `kind: Configuration`) are not objects: the image carries them as written.
//!
//! Plain data in and out: the render step hands the rendered files' parsed documents
//! ([`RenderedFile`]) and what it read outside the bundle folder ([`Outside`]); this finds the
//! parts ([`find`]) or says why it cannot, as a [`RenderedBundleError`]; once the CSV is
//! assembled, [`finish`] checks and completes the bundle.

use std::path::Path;

use serde_yaml_ng::Value;

use crate::bundle_image::annotations::annotations_of;
use crate::bundle_image::folder::SUPPORTED_KINDS;
use crate::bundle_image::names::object_key;
use crate::bundle_image::{BundleMetadata, metadata::TESTS_DIR};
use crate::{Manifest, PackageManifest};

mod error;
mod finish;
#[cfg(test)]
mod tests;

pub use error::RenderedBundleError;
pub use finish::{Finish, FinishError, Finished, finish};

/// One rendered (or copied) file.
#[derive(Debug, Clone)]
pub struct RenderedFile {
    /// Path relative to the render folder.
    pub rel: String,
    /// The template it came from, as the pipeline names it (for messages and findings).
    pub template: String,
    /// The template's own text.
    pub source_text: String,
    /// The rendered text (kept as written for the files under `tests/scorecard/`).
    pub content: String,
    /// Its YAML documents, parsed.
    pub docs: Vec<Value>,
    /// Whether it lies in the bundle folder.
    pub in_bundle: bool,
}

/// Where the bundle's parts are among the rendered files.
pub struct Found {
    /// (file index, document index) of the CSV.
    pub csv: (usize, usize),
    /// Where the package file came from (a template, or `render.package`).
    pub package_file: String,
    /// The package file.
    pub package: PackageManifest,
    /// The CRDs: those read outside the bundle folder first, then the rendered ones.
    pub crds: Vec<Manifest>,
    /// The other objects (RBAC, ConfigMaps, Services, …), as rendered.
    pub objects: Vec<Manifest>,
    /// The dependencies and properties files, if the bundle folder has them.
    pub metadata: BundleMetadata,
    /// The package an annotations file names (its file, the name), if the folder has one.
    pub annotated: Option<(String, String)>,
}

/// The key of a bundle's annotations file naming its package.
const PACKAGE_ANNOTATION: &str = "operators.operatorframework.io.bundle.package.v1";

/// Which metadata file a document without `kind` is, by its one top-level key.
fn metadata_kind(value: &Value) -> Option<&'static str> {
    if value.get("kind").is_some() || value.get("apiVersion").is_some() {
        return None;
    }
    ["dependencies", "properties", "annotations"]
        .into_iter()
        .find(|k| value.get(*k).is_some())
}

/// Whether a rendered file at `rel` belongs to the bundle folder `bundle_dir`.
pub fn in_bundle(bundle_dir: &str, rel: &str) -> bool {
    in_bundle_at(bundle_dir, rel).is_some()
}

/// The path of a rendered file at `rel` inside the bundle folder `bundle_dir`, if it is in it.
fn in_bundle_at<'a>(bundle_dir: &str, rel: &'a str) -> Option<&'a str> {
    let dir = bundle_dir.trim_start_matches("./").trim_end_matches('/');
    if dir.is_empty() || dir == "." {
        return Some(rel);
    }
    Path::new(rel)
        .starts_with(dir)
        .then(|| rel[dir.len()..].trim_start_matches('/'))
}

/// The package file and CRDs the step reads from outside the bundle folder.
#[derive(Default)]
pub struct Outside {
    /// The package file (`render.package`): its file as shown, and its content.
    pub package: Option<(String, PackageManifest)>,
    /// The CRDs (`render.crds`).
    pub crds: Vec<Manifest>,
}

/// The bundle's parts among `outputs`, the files rendered for the bundle folder `bundle_dir`
/// (`.` for the templates folder itself), with what was read from `outside` it.
pub fn find(
    bundle_dir: &str,
    outputs: &[RenderedFile],
    outside: Outside,
) -> Result<Found, RenderedBundleError> {
    let (mut csvs, mut crds, mut objects) = (Vec::new(), outside.crds, Vec::new());
    // Where each CRD came from (the template, or the render.crds file), to name both copies.
    let mut crd_sources: Vec<String> = crds.iter().map(|c| c.file.clone()).collect();
    let mut package = outside.package;
    let mut metadata = BundleMetadata::default();
    let mut annotated = None;
    for (i, out) in outputs.iter().enumerate().filter(|(_, o)| o.in_bundle) {
        if let Some(at) =
            in_bundle_at(bundle_dir, &out.rel).filter(|at| Path::new(at).starts_with(TESTS_DIR))
        {
            metadata
                .tests
                .insert(at.to_string(), out.content.as_bytes().to_vec());
            continue;
        }
        let file = out.rel.rsplit('/').next().unwrap_or(&out.rel).to_string();
        // The bundle image keeps the name of a file of one object.
        let mut own_name = |m: &Manifest| {
            if out.docs.len() == 1 {
                metadata.file_names.insert(object_key(m), file.clone());
            }
        };
        for (j, value) in out.docs.iter().enumerate() {
            if let Some(kind) = metadata_kind(value) {
                let slot = match kind {
                    "dependencies" => &mut metadata.dependencies,
                    "properties" => &mut metadata.properties,
                    _ => {
                        let named = value
                            .get("annotations")
                            .and_then(|a| a.get(PACKAGE_ANNOTATION))
                            .and_then(Value::as_str);
                        if let Some(named) = named {
                            annotated = Some((out.template.to_string(), named.to_string()));
                        }
                        metadata.annotations = annotations_of(value).map_err(|why| {
                            RenderedBundleError::Annotations {
                                file: out.template.to_string(),
                                why,
                            }
                        })?;
                        continue;
                    }
                };
                if slot
                    .replace(Manifest::new(&out.template, value.clone()))
                    .is_some()
                {
                    return Err(RenderedBundleError::SecondMetadata {
                        file: out.template.to_string(),
                        kind,
                    });
                }
                continue;
            }
            if value.get("packageName").is_some() {
                let p = parse_package(&out.template, value)?;
                if package.replace((out.template.to_string(), p)).is_some() {
                    return Err(RenderedBundleError::SecondPackage {
                        file: out.template.to_string(),
                    });
                }
                continue;
            }
            match value.get("kind").and_then(Value::as_str) {
                Some("ClusterServiceVersion") => csvs.push((i, j)),
                Some("CustomResourceDefinition") => {
                    let crd = Manifest::new(&file, value.clone());
                    own_name(&crd);
                    crds.push(crd);
                    crd_sources.push(out.template.to_string());
                }
                Some(kind) if SUPPORTED_KINDS.contains(&kind) => {
                    let object = Manifest::new(&file, value.clone());
                    own_name(&object);
                    objects.push(object);
                }
                other => {
                    return Err(RenderedBundleError::Unexpected {
                        file: out.template.to_string(),
                        kind: other.unwrap_or("document without kind").into(),
                        allowed: SUPPORTED_KINDS.join(", "),
                    });
                }
            }
        }
    }
    same_crds(&crds, &crd_sources)?;
    if csvs.len() != 1 {
        return Err(RenderedBundleError::CsvCount {
            dir: bundle_dir.into(),
            found: csvs.len(),
        });
    }
    let (package_file, package) = package.ok_or_else(|| RenderedBundleError::NoPackage {
        dir: bundle_dir.into(),
    })?;
    Ok(Found {
        csv: csvs[0],
        package_file,
        package,
        crds,
        objects,
        metadata,
        annotated,
    })
}

/// Every CRD name rendered from more than one file, all at once with their files.
fn same_crds(crds: &[Manifest], sources: &[String]) -> Result<(), RenderedBundleError> {
    let mut by_name: Vec<(String, Vec<String>)> = Vec::new();
    for (crd, source) in crds.iter().zip(sources) {
        let name = crd.name().unwrap_or("unnamed").to_string();
        match by_name.iter_mut().find(|(n, _)| *n == name) {
            Some((_, files)) => files.push(source.clone()),
            None => by_name.push((name, vec![source.clone()])),
        }
    }
    let twice: Vec<(String, Vec<String>)> =
        by_name.into_iter().filter(|(_, f)| f.len() > 1).collect();
    if twice.is_empty() {
        Ok(())
    } else {
        Err(RenderedBundleError::SameCrds(twice))
    }
}

/// A package file's document.
pub fn parse_package(file: &str, value: &Value) -> Result<PackageManifest, RenderedBundleError> {
    serde_yaml_ng::from_value(value.clone()).map_err(|e| RenderedBundleError::PackageFile {
        file: file.into(),
        message: e.to_string(),
    })
}
