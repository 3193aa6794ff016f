//! One package name everywhere: the pipeline's package, the bundle folder's annotations file,
//! and any `olm.package` property of its properties file or of the CSV's `olm.properties`
//! annotation name the same package (and version), or the release stops before anything is
//! written — otherwise a bundle image labelled with one name would be listed under the other.
//! The metadata files' shapes are checked here too, so a malformed dependency is an input error
//! before the first write rather than at the catalog stage.

use super::super::error::CatalogError;
use super::super::model::Property;
use super::build::{BundleSource, ObjectStyle, bundle_entry, file_properties};
use crate::Manifest;
use crate::bundle_image::BundleMetadata;

/// The entries of a bundle's dependencies and properties files.
pub fn metadata_properties(
    metadata: &BundleMetadata,
) -> Result<(Vec<Property>, Vec<Property>), CatalogError> {
    let read = |doc: &Option<Manifest>, key: &str| match doc {
        Some(m) => file_properties(&m.doc, key, &m.file),
        None => Ok(Vec::new()),
    };
    Ok((
        read(&metadata.dependencies, "dependencies")?,
        read(&metadata.properties, "properties")?,
    ))
}

/// Checks that the bundle of `csv` names `package` everywhere: `annotated` is the package an
/// annotations file names (its file, the name), if the bundle folder has one.
pub fn check_package(
    package: &str,
    csv: &Manifest,
    metadata: &BundleMetadata,
    annotated: Option<(&str, &str)>,
) -> Result<(), CatalogError> {
    let version = csv.spec_version().unwrap_or_default();
    if let Some((file, named)) = annotated
        && named != package
    {
        return Err(CatalogError::PackageMismatch {
            bundle: csv.name().unwrap_or_default().into(),
            package: package.into(),
            version: version.into(),
            from: format!("{file} (operators.operatorframework.io.bundle.package.v1)"),
            named: named.into(),
        });
    }
    let (dependencies, properties) = metadata_properties(metadata)?;
    bundle_entry(&BundleSource {
        package,
        image: "",
        csv,
        objects: &[],
        dependencies: &dependencies,
        properties: &properties,
        style: ObjectStyle::CsvMetadata,
    })
    .map(|_| ())
}
