//! The OLM v1 objects that install a release from its catalog image: a `ClusterCatalog`
//! (`olm.operatorframework.io/v1`) serving the image, and a `ClusterExtension` for the package,
//! its channel and this version, selecting that catalog by the
//! `olm.operatorframework.io/metadata.name` label catalogd sets. Fields as operator-controller's
//! API (`api/v1/clustercatalog_types.go`, `api/v1/clusterextension_types.go`) and its tutorials
//! (`docs/tutorials/add-catalog.md`, `docs/tutorials/install-extension.md`,
//! `docs/concepts/controlling-catalog-selection.md`) write them. The catalog is referenced by
//! its tag and polled, so later releases reach the cluster; the extension is pinned to this
//! version (a reviewer widens it to a range, such as `">=1.2.0 <2"`, to follow the channel).

use serde_json::json;
use serde_yaml_ng::Value;

use super::model::to_value;

/// What the objects name.
#[derive(Debug, Clone)]
pub struct ExtensionRequest<'a> {
    /// The catalog image as a cluster pulls it: `HOST/REPOSITORY:TAG`.
    pub catalog_ref: &'a str,
    /// The ClusterCatalog's name.
    pub catalog_name: &'a str,
    /// The OLM package.
    pub package: &'a str,
    /// The channel.
    pub channel: &'a str,
    /// The release's version.
    pub version: &'a str,
    /// The namespace the extension installs into (`spec.namespace`).
    pub namespace: &'a str,
}

/// How often catalogd polls the catalog's tag for a new digest, in minutes.
const POLL_MINUTES: u32 = 10;

/// The ClusterCatalog and the ClusterExtension, in that order (the order to apply them).
pub fn olm_v1_install(r: &ExtensionRequest) -> (Value, Value) {
    let catalog = json!({
        "apiVersion": "olm.operatorframework.io/v1",
        "kind": "ClusterCatalog",
        "metadata": {"name": r.catalog_name},
        "spec": {
            "source": {
                "type": "Image",
                "image": {"ref": r.catalog_ref, "pollIntervalMinutes": POLL_MINUTES}
            }
        }
    });
    let extension = json!({
        "apiVersion": "olm.operatorframework.io/v1",
        "kind": "ClusterExtension",
        "metadata": {"name": r.package},
        "spec": {
            "namespace": r.namespace,
            // Required by operator-controller releases before its deprecation (it names the
            // account the installer acts as); ignored by later ones.
            "serviceAccount": {"name": format!("{}-installer", r.package)},
            "source": {
                "sourceType": "Catalog",
                "catalog": {
                    "packageName": r.package,
                    "channels": [r.channel],
                    "version": r.version,
                    "selector": {
                        "matchLabels": {"olm.operatorframework.io/metadata.name": r.catalog_name}
                    }
                }
            }
        }
    });
    (to_value(catalog), to_value(extension))
}

/// The ClusterCatalog's name for a catalog image repository: its last path segment, as an RFC
/// 1123 name (lowercase; other characters become `-`).
pub fn catalog_name(repository: &str) -> String {
    let last = repository.rsplit('/').next().unwrap_or(repository);
    let name: String = last
        .chars()
        .map(|c| match c.to_ascii_lowercase() {
            c @ ('a'..='z' | '0'..='9' | '-' | '.') => c,
            _ => '-',
        })
        .collect();
    name.trim_matches(|c: char| !c.is_ascii_alphanumeric())
        .to_string()
}
