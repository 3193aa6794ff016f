//! After the catalog step published a catalog image: the ClusterCatalog that serves it and the
//! ClusterExtension for the package, channel and version
//! ([`olm_release_olm::cluster::olm_v1_install`]), printed, kept in the summary (and so in the
//! GitHub job summary), and handed to the release step for the `{olm-v1}` asset. A catalog
//! image kept in an OCI layout (`image:oci:PATH:TAG`) is named by its layout; a note says to
//! push it to a registry and put that reference in the ClusterCatalog.

use crate::plan::CatalogStep;
use crate::report::Reporter;
use crate::report::summary::OlmV1Install;
use crate::settings::CatalogTarget;
use olm_release_oci::ImageLocation;
use olm_release_olm::cluster::{self, ExtensionRequest};

use super::outputs::Imaged;

/// The objects as one YAML stream, `None` when the catalog target is no image.
pub(crate) fn report(step: &CatalogStep, image: &Imaged, report: &Reporter) -> Option<String> {
    let CatalogTarget::Image(job) = step.target.as_ref() else {
        return None;
    };
    let (catalog_ref, repository) = match &job.image.target {
        ImageLocation::Remote(r) => (
            format!("{}:{}", r.describe(), job.tag),
            r.repository.clone(),
        ),
        ImageLocation::Layout(path) => {
            report.note(&format!(
                "the catalog image is in the OCI layout {}: push it to a registry and put that reference in the ClusterCatalog's spec.source.image.ref",
                path.display()
            ));
            let folder = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| format!("{}-catalog", step.package));
            (format!("oci:{}:{}", path.display(), job.tag), folder)
        }
    };
    let version = image
        .csv
        .semver()
        .map(|v| v.to_string())
        .unwrap_or_default();
    let name = cluster::catalog_name(&repository);
    let (catalog, extension) = cluster::olm_v1_install(&ExtensionRequest {
        catalog_ref: &catalog_ref,
        catalog_name: &name,
        package: &step.package,
        channel: &step.channel,
        version: &version,
        namespace: &step.package,
    });
    let yaml = cluster::to_yaml_stream(&[catalog.clone(), extension.clone()]);
    let json = |v: &serde_yaml_ng::Value| serde_json::to_value(v).unwrap_or_default();
    report.olm_v1_install(
        OlmV1Install {
            cluster_catalog: json(&catalog),
            cluster_extension: json(&extension),
        },
        &yaml,
    );
    Some(yaml)
}
