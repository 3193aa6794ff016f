//! Reading the bundle out of the rendered files: exactly one CSV, its CRDs and one package file,
//! all from the bundle sub-folder; anything else there is an error (the registry would carry
//! it to every cluster).

use serde_yaml_ng::Value;

use super::Output;
use crate::exec::errors::RenderError;
use crate::olm::{Manifest, PackageManifest};

/// Where the bundle's parts are among the outputs.
pub(crate) struct Found {
    /// (output index, document index) of the CSV.
    pub(crate) csv: (usize, usize),
    /// Output index of the package file.
    pub(crate) package_at: usize,
    pub(crate) package: PackageManifest,
    pub(crate) crds: Vec<Manifest>,
}

pub(crate) fn find(bundle_dir: &str, outputs: &[Output]) -> Result<Found, RenderError> {
    let (mut csvs, mut crds, mut package) = (Vec::new(), Vec::new(), None);
    for (i, out) in outputs.iter().enumerate().filter(|(_, o)| o.in_bundle) {
        let file = out.rel.rsplit('/').next().unwrap_or(&out.rel).to_string();
        for (j, value) in out.docs.iter().enumerate() {
            if value.get("packageName").is_some() {
                let p: PackageManifest = serde_yaml_ng::from_value(value.clone()).map_err(|e| {
                    RenderError::PackageFile {
                        file: out.template.clone(),
                        message: e.to_string(),
                    }
                })?;
                if package.replace((i, p)).is_some() {
                    return Err(RenderError::SecondPackage {
                        file: out.template.clone(),
                    });
                }
                continue;
            }
            match value.get("kind").and_then(Value::as_str) {
                Some("ClusterServiceVersion") => csvs.push((i, j)),
                Some("CustomResourceDefinition") => crds.push(Manifest::new(&file, value.clone())),
                other => {
                    return Err(RenderError::Unexpected {
                        file: out.template.clone(),
                        kind: other.unwrap_or("document without kind").into(),
                    });
                }
            }
        }
    }
    if csvs.len() != 1 {
        return Err(RenderError::CsvCount {
            dir: bundle_dir.into(),
            found: csvs.len(),
        });
    }
    let (package_at, package) = package.ok_or_else(|| RenderError::NoPackage {
        dir: bundle_dir.into(),
    })?;
    Ok(Found {
        csv: csvs[0],
        package_at,
        package,
        crds,
    })
}
