//! A registry+v1 bundle as OLM v1 reads it (operator-controller's
//! `rukpak/bundle/source`): the package name from `metadata/annotations.yaml`, the one CSV, the
//! CRDs and the other objects of `manifests/` (every YAML document of every file, no
//! subfolders), and the properties the catalog would carry for it (`metadata/properties.yaml`,
//! the CSV's `olm.properties` annotation, `metadata/dependencies.yaml` and the CSV's required
//! CRDs, as opm turns them into `olm.*.required` properties).

use std::collections::BTreeMap;

use serde_yaml_ng::Value;

use super::model::InstallError;
use crate::value_at;

/// One bundle, parsed.
#[derive(Debug, Clone)]
pub struct RegistryV1 {
    /// `operators.operatorframework.io.bundle.package.v1`.
    pub package_name: String,
    /// The ClusterServiceVersion.
    pub csv: Value,
    /// The CustomResourceDefinitions, in file order.
    pub crds: Vec<Value>,
    /// Every other object, in file order.
    pub others: Vec<Value>,
    /// The types of the properties the bundle declares (`olm.package.required`, …), with the
    /// file that declares each.
    pub property_types: Vec<(String, String)>,
}

impl RegistryV1 {
    /// Parses the files of a bundle folder (`manifests/NAME`, `metadata/NAME`, as
    /// [`crate::bundle_image::BundleFolder`] holds them).
    pub fn from_files(files: &BTreeMap<String, Vec<u8>>) -> Result<Self, InstallError> {
        let text = |path: &str| -> Result<Option<String>, InstallError> {
            files
                .get(path)
                .map(|b| {
                    String::from_utf8(b.clone())
                        .map_err(|_| InstallError::Unreadable(format!("{path}: not UTF-8 text")))
                })
                .transpose()
        };
        let annotations = text("metadata/annotations.yaml")?
            .ok_or_else(|| InstallError::Unreadable("metadata/annotations.yaml: missing".into()))?;
        let annotations = parse_one("metadata/annotations.yaml", &annotations)?;
        let package_name = annotations
            .get("annotations")
            .and_then(|a| a.get("operators.operatorframework.io.bundle.package.v1"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let mut bundle = RegistryV1 {
            package_name,
            csv: Value::Null,
            crds: Vec::new(),
            others: Vec::new(),
            property_types: Vec::new(),
        };
        for (path, bytes) in files.range("manifests/".to_string()..) {
            let Some(name) = path.strip_prefix("manifests/") else {
                break;
            };
            if name.contains('/') {
                return Err(InstallError::Unreadable(format!(
                    "subdirectories are not allowed within the \"manifests\" directory of the bundle image filesystem: found {path:?}"
                )));
            }
            let text = String::from_utf8(bytes.clone())
                .map_err(|_| InstallError::Unreadable(format!("{path}: not UTF-8 text")))?;
            for doc in parse_all(path, &text)? {
                match doc.get("kind").and_then(Value::as_str) {
                    Some("ClusterServiceVersion") => bundle.csv = doc,
                    Some("CustomResourceDefinition") => bundle.crds.push(doc),
                    _ => bundle.others.push(doc),
                }
            }
        }
        if bundle.csv.is_null() {
            return Err(InstallError::Unreadable(
                "no ClusterServiceVersion found in \"manifests\"".into(),
            ));
        }
        bundle.read_properties(
            &text("metadata/properties.yaml")?,
            &text("metadata/dependencies.yaml")?,
        )?;
        Ok(bundle)
    }

    /// A bundle of the package `package` made of objects already parsed (what a pipeline
    /// holds): the properties are those the CSV declares.
    pub fn from_parts(package: &str, csv: Value, crds: Vec<Value>, others: Vec<Value>) -> Self {
        let mut b = Self::from_objects(csv, crds, others);
        b.package_name = package.to_string();
        b
    }

    /// A bundle made of objects already parsed (what `verify` holds): the properties are those
    /// the CSV declares (no `metadata/` files).
    pub(crate) fn from_objects(csv: Value, crds: Vec<Value>, others: Vec<Value>) -> Self {
        let mut b = RegistryV1 {
            package_name: String::new(),
            csv,
            crds,
            others,
            property_types: Vec::new(),
        };
        // The CSV's own annotation may not parse; verify's olm-properties rule says so.
        let _ = b.read_properties(&None, &None);
        b
    }

    /// The CSV's name.
    pub fn csv_name(&self) -> &str {
        value_at(&self.csv, "metadata.name")
            .and_then(Value::as_str)
            .unwrap_or_default()
    }

    /// A list under the CSV (empty when absent).
    pub(crate) fn csv_list(&self, path: &str) -> &[Value] {
        value_at(&self.csv, path)
            .and_then(Value::as_sequence)
            .map(Vec::as_slice)
            .unwrap_or_default()
    }

    /// The install modes the CSV marks `supported: true`.
    pub fn supported_install_modes(&self) -> Vec<String> {
        let mut modes: Vec<String> = self
            .csv_list("spec.installModes")
            .iter()
            .filter(|m| m.get("supported").and_then(Value::as_bool) == Some(true))
            .filter_map(|m| m.get("type").and_then(Value::as_str).map(String::from))
            .collect();
        modes.sort();
        modes.dedup();
        modes
    }

    /// Collects the property types from the CSV, `properties.yaml` and `dependencies.yaml`.
    fn read_properties(
        &mut self,
        properties: &Option<String>,
        dependencies: &Option<String>,
    ) -> Result<(), InstallError> {
        let mut types = Vec::new();
        if let Some(json) = value_at(&self.csv, "metadata.annotations")
            .and_then(|a| a.get("olm.properties"))
            .and_then(Value::as_str)
        {
            let list: Value = serde_yaml_ng::from_str(json).map_err(|e| {
                InstallError::Unreadable(format!(
                    "failed to unmarshal csv.metadata.annotations['olm.properties']: {e}"
                ))
            })?;
            push_types(&list, "the CSV's olm.properties annotation", &mut types);
        }
        if let Some(text) = properties {
            let doc = parse_one("metadata/properties.yaml", text)?;
            if let Some(list) = doc.get("properties") {
                push_types(list, "metadata/properties.yaml", &mut types);
            }
        }
        if let Some(text) = dependencies {
            let doc = parse_one("metadata/dependencies.yaml", text)?;
            for dep in doc
                .get("dependencies")
                .and_then(Value::as_sequence)
                .into_iter()
                .flatten()
            {
                let t = match dep.get("type").and_then(Value::as_str) {
                    Some("olm.package") => "olm.package.required",
                    Some("olm.gvk") => "olm.gvk.required",
                    Some("olm.constraint") => "olm.constraint",
                    Some("olm.label") => "olm.label.required",
                    _ => continue,
                };
                types.push((t.to_string(), "metadata/dependencies.yaml".to_string()));
            }
        }
        if !self
            .csv_list("spec.customresourcedefinitions.required")
            .is_empty()
        {
            types.push((
                "olm.gvk.required".into(),
                "the CSV's spec.customresourcedefinitions.required".into(),
            ));
        }
        self.property_types = types;
        Ok(())
    }
}

fn push_types(list: &Value, from: &str, types: &mut Vec<(String, String)>) {
    for p in list.as_sequence().into_iter().flatten() {
        if let Some(t) = p.get("type").and_then(Value::as_str) {
            types.push((t.to_string(), from.to_string()));
        }
    }
}

fn parse_one(path: &str, text: &str) -> Result<Value, InstallError> {
    serde_yaml_ng::from_str(text).map_err(|e| InstallError::Unreadable(format!("{path}: {e}")))
}

/// Every non-empty document of a YAML (or JSON) file; a `kind: List` is flattened.
fn parse_all(path: &str, text: &str) -> Result<Vec<Value>, InstallError> {
    let mut out = Vec::new();
    for de in serde_yaml_ng::Deserializer::from_str(text) {
        let doc = <Value as serde::Deserialize>::deserialize(de).map_err(|e| {
            InstallError::Unreadable(format!("error parsing objects in {path:?}: {e}"))
        })?;
        match doc {
            Value::Null => {}
            Value::Mapping(_) if doc.get("kind").and_then(Value::as_str) == Some("List") => {
                out.extend(
                    doc.get("items")
                        .and_then(Value::as_sequence)
                        .cloned()
                        .unwrap_or_default(),
                );
            }
            Value::Mapping(_) => out.push(doc),
            _ => {
                return Err(InstallError::Unreadable(format!(
                    "error parsing objects in {path:?}: a document is not an object"
                )));
            }
        }
    }
    Ok(out)
}
