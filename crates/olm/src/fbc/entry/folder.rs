//! A registry+v1 bundle folder read the way operator-registry's bundle parser reads it
//! (`pkg/registry/parse.go`): the regular, non-hidden files directly in `manifests/`, in name
//! order, one object each (the first CSV kept, later ones ignored); every file in `metadata/`
//! tried as the annotations file (the package), the dependencies file (`dependencies:`) and the
//! properties file (`properties:`), the first of each kept — the names `annotations.yaml`,
//! `dependencies.yaml` and `properties.yaml` are convention. Each file is read within the input
//! budgets, a repeated key in a mapping keeping the last value as Kubernetes' decoder does
//! (`validate::load::parse`, the reading `verify` reports the repetition from). This is what
//! `opm render` reads from a bundle image once unpacked.

use std::path::Path;

use serde_yaml_ng::Value;

use super::super::error::CatalogError;
use super::super::model::Property;
use super::build::{BundleSource, ObjectStyle, file_properties};
use crate::Manifest;
use crate::archive::{Budget, Limits};
use olm_release_base::input;

/// The annotation naming a bundle's package.
const PACKAGE_KEY: &str = "operators.operatorframework.io.bundle.package.v1";

/// A bundle folder's parts, as its catalog entry needs them.
#[derive(Debug, Clone)]
pub struct BundleDir {
    /// The package its annotations name.
    pub package: String,
    /// Its ClusterServiceVersion.
    pub csv: Manifest,
    /// Its other manifests, in file-name order.
    pub objects: Vec<Manifest>,
    /// The entries of its dependencies file.
    pub dependencies: Vec<Property>,
    /// The entries of its properties file.
    pub properties: Vec<Property>,
}

impl BundleDir {
    /// What its entry is made from, listed as `image`.
    pub fn source<'a>(&'a self, image: &'a str, style: ObjectStyle) -> BundleSource<'a> {
        BundleSource {
            package: &self.package,
            image,
            csv: &self.csv,
            objects: &self.objects,
            dependencies: &self.dependencies,
            properties: &self.properties,
            style,
        }
    }
}

/// The first document of the file at `path`, read within the budgets (`None`: empty).
fn first_document(path: &Path) -> Result<Option<Value>, CatalogError> {
    let bytes = input::read(path, input::MAX_FILE_BYTES).map_err(|e| CatalogError::io(path, e))?;
    let shown = path.display().to_string();
    let text = std::str::from_utf8(&bytes).map_err(|e| CatalogError::NotUtf8 {
        file: shown.clone(),
        offset: e.valid_up_to(),
    })?;
    Budget::new(&Limits::default())
        .check(&shown, text)
        .map_err(CatalogError::Budget)?;
    // As Kubernetes' YAML decoder reads it (operator-registry's, so `opm render`'s): a key
    // repeated in a mapping is no error and the last one wins.
    let parsed =
        crate::validate::load::parse::documents(text).map_err(|source| CatalogError::Yaml {
            file: shown.clone(),
            document: 1,
            source,
        })?;
    Ok(parsed.docs.into_iter().next())
}

/// The regular, non-hidden files directly in `dir`, sorted by name.
fn files(dir: &Path) -> Result<Vec<(String, std::path::PathBuf)>, CatalogError> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| CatalogError::io(dir, e))? {
        let entry = entry.map_err(|e| CatalogError::io(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if !name.starts_with('.') && std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
            out.push((name, path));
        }
    }
    out.sort();
    Ok(out)
}

/// Reads the bundle folder at `dir`.
pub fn read_bundle_dir(dir: &Path) -> Result<BundleDir, CatalogError> {
    let missing = |what: &str| CatalogError::BundleDir {
        path: dir.into(),
        message: what.into(),
    };
    let mut csv = None;
    let mut objects = Vec::new();
    for (name, path) in files(&dir.join("manifests"))? {
        let Some(doc) = first_document(&path)? else {
            continue;
        };
        let m = Manifest::new(name, doc);
        if m.kind() == Some("ClusterServiceVersion") {
            if csv.is_none() {
                csv = Some(m);
            }
        } else {
            objects.push(m);
        }
    }
    let csv = csv.ok_or_else(|| missing("manifests/ holds no ClusterServiceVersion"))?;
    let (mut package, mut dependencies, mut properties) = (None, None, None);
    for (name, path) in files(&dir.join("metadata"))? {
        let Some(doc) = first_document(&path)? else {
            continue;
        };
        let from = format!("metadata/{name}");
        if package.is_none()
            && let Some(p) = doc
                .get("annotations")
                .and_then(|a| a.get(PACKAGE_KEY))
                .and_then(Value::as_str)
        {
            package = Some(p.to_string());
        }
        if dependencies.is_none() {
            let found = file_properties(&doc, "dependencies", &from)?;
            if !found.is_empty() {
                dependencies = Some(found);
            }
        }
        if properties.is_none() {
            let found = file_properties(&doc, "properties", &from)?;
            if !found.is_empty() {
                properties = Some(found);
            }
        }
    }
    Ok(BundleDir {
        package: package
            .ok_or_else(|| missing("metadata/ holds no annotations file naming the package"))?,
        csv,
        objects,
        dependencies: dependencies.unwrap_or_default(),
        properties: properties.unwrap_or_default(),
    })
}
