//! A bundle's optional metadata files beside `metadata/annotations.yaml`:
//! `metadata/dependencies.yaml` (`dependencies:`, what the bundle needs from other operators:
//! `olm.package`, `olm.gvk`, `olm.constraint`, `olm.label` entries) and
//! `metadata/properties.yaml` (`properties:`, properties the bundle declares, such as
//! `olm.maxOpenShiftVersion`), as operator-registry's bundle parser reads them
//! (`pkg/registry/parse.go`) and operator-sdk's bundle layout holds them. The image carries them,
//! so OLM's resolver and `opm render` see the same dependencies as the catalog entry lists.

use crate::Manifest;

/// The documents of a bundle's dependencies and properties files, each with the file it came
/// from (for messages).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BundleMetadata {
    /// The dependencies file's document (`dependencies: [...]`).
    pub dependencies: Option<Manifest>,
    /// The properties file's document (`properties: [...]`).
    pub properties: Option<Manifest>,
}

/// The path of the dependencies file in a bundle.
pub const DEPENDENCIES_FILE: &str = "metadata/dependencies.yaml";
/// The path of the properties file in a bundle.
pub const PROPERTIES_FILE: &str = "metadata/properties.yaml";

impl BundleMetadata {
    /// The files it adds to the bundle folder, written with the project's YAML writer.
    pub(crate) fn files(&self) -> Vec<(String, Vec<u8>)> {
        [
            (DEPENDENCIES_FILE, &self.dependencies),
            (PROPERTIES_FILE, &self.properties),
        ]
        .into_iter()
        .filter_map(|(path, doc)| {
            let doc = doc.as_ref()?;
            Some((
                path.to_string(),
                olm_release_base::yaml::to_string(&doc.doc).into_bytes(),
            ))
        })
        .collect()
    }
}
