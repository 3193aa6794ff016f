//! Reading the bundle out of the rendered files: exactly one CSV, its CRDs and one package file,
//! all from the bundle sub-folder; anything else there is an error (the registry would carry
//! it to every cluster).

use serde_yaml_ng::Value;

use super::Output;
use crate::error::{Error, Result};
use crate::olm::{Manifest, PackageManifest};

/// Where the bundle's parts are among the outputs.
pub struct Found {
    /// (output index, document index) of the CSV.
    pub csv: (usize, usize),
    /// Output index of the package file.
    pub package_at: usize,
    pub package: PackageManifest,
    pub crds: Vec<Manifest>,
}

pub fn find(bundle_dir: &str, outputs: &[Output]) -> Result<Found> {
    let (mut csvs, mut crds, mut package) = (Vec::new(), Vec::new(), None);
    for (i, out) in outputs.iter().enumerate().filter(|(_, o)| o.in_bundle) {
        let file = out.rel.rsplit('/').next().unwrap_or(&out.rel).to_string();
        for (j, value) in out.docs.iter().enumerate() {
            if value.get("packageName").is_some() {
                let p: PackageManifest = serde_yaml_ng::from_value(value.clone())
                    .map_err(|e| Error::input(format!("{}: package file: {e}", out.template)))?;
                if package.replace((i, p)).is_some() {
                    return Err(Error::input(format!(
                        "{}: a second package file in the bundle",
                        out.template
                    )));
                }
                continue;
            }
            match value.get("kind").and_then(Value::as_str) {
                Some("ClusterServiceVersion") => csvs.push((i, j)),
                Some("CustomResourceDefinition") => crds.push(Manifest::new(&file, value.clone())),
                other => {
                    return Err(Error::input(format!(
                        "{}: unexpected {} in the bundle folder (only CSVs, CRDs and the package file belong there)",
                        out.template,
                        other.unwrap_or("document without kind")
                    )));
                }
            }
        }
    }
    if csvs.len() != 1 {
        return Err(Error::input(format!(
            "the bundle folder '{bundle_dir}' must render exactly one CSV, found {}",
            csvs.len()
        )));
    }
    let (package_at, package) = package.ok_or_else(|| {
        Error::input(format!(
            "the bundle folder '{bundle_dir}' has no package file (packageName)"
        ))
    })?;
    Ok(Found {
        csv: csvs[0],
        package_at,
        package,
        crds,
    })
}
