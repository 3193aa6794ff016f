//! What a bundle carries besides its manifests, from the project's bundle folder:
//! `metadata/dependencies.yaml` (`dependencies:`, what the bundle needs from other operators:
//! `olm.package`, `olm.gvk`, `olm.constraint`, `olm.label` entries) and
//! `metadata/properties.yaml` (`properties:`, properties the bundle declares, such as
//! `olm.maxOpenShiftVersion`), as operator-registry's bundle parser reads them
//! (`pkg/registry/parse.go`) and operator-sdk's bundle layout holds them; the annotations of
//! the project's `metadata/annotations.yaml` besides the six bundle keys; and the scorecard
//! configuration under `tests/scorecard/` (operator-sdk's `generate bundle` puts
//! `tests/scorecard/config.yaml` there and points its `operators.operatorframework.io.test.*`
//! annotations at it); and the bundle folder's own file names. The image carries them, so OLM's resolver and `opm render` see the same
//! dependencies as the catalog entry lists, and the image is the bundle the project ships.

use std::collections::BTreeMap;

use super::names::ObjectKey;
use crate::Manifest;

/// A bundle's metadata files, annotations and tests, each document with the file it came
/// from (for messages).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BundleMetadata {
    /// The dependencies file's document (`dependencies: [...]`).
    pub dependencies: Option<Manifest>,
    /// The properties file's document (`properties: [...]`).
    pub properties: Option<Manifest>,
    /// The project's annotations, in its file's order (the six bundle keys among them are
    /// replaced by the release's).
    pub annotations: Vec<(String, String)>,
    /// The files under `tests/scorecard/`, by their path in the bundle, byte for byte.
    pub tests: BTreeMap<String, Vec<u8>>,
    /// The project's file name of each object that had a file of its own, kept in
    /// `manifests/` ([`super::names`]).
    pub file_names: BTreeMap<ObjectKey, String>,
}

/// The path of the dependencies file in a bundle.
pub const DEPENDENCIES_FILE: &str = "metadata/dependencies.yaml";
/// The path of the properties file in a bundle.
pub const PROPERTIES_FILE: &str = "metadata/properties.yaml";
/// The folder of a bundle's scorecard configuration.
pub const TESTS_DIR: &str = "tests/scorecard";

impl BundleMetadata {
    /// The files it adds to the bundle folder: the metadata files written with the project's
    /// YAML writer, the tests as they are.
    pub(crate) fn files(&self) -> Vec<(String, Vec<u8>)> {
        let docs = [
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
        });
        let tests = self.tests.iter().map(|(p, b)| (p.clone(), b.clone()));
        docs.chain(tests).collect()
    }
}
