//! The OLM v1 objects that install a release from its catalog image
//! ([`cluster::olm_v1_install`]): a ClusterCatalog serving the image's tag and a
//! ClusterExtension for the package, channel and version, selecting that catalog, with the
//! fields operator-controller's API and tutorials give them.

use olm_release_olm::cluster::{self, ExtensionRequest};
use serde_yaml_ng::Value;

fn at<'a>(v: &'a Value, path: &str) -> &'a Value {
    path.split('.').fold(v, |v, k| &v[k])
}

#[test]
fn the_catalog_serves_the_tag_and_the_extension_pins_the_release() {
    let name = cluster::catalog_name("example/Sample_Operator-catalog");
    assert_eq!(name, "sample-operator-catalog");
    let (catalog, extension) = cluster::olm_v1_install(&ExtensionRequest {
        catalog_ref: "quay.io/example/sample_operator-catalog:latest",
        catalog_name: &name,
        package: "sample-operator",
        channel: "alpha",
        version: "0.2.0",
        namespace: "sample-operator",
    });
    assert_eq!(at(&catalog, "apiVersion"), "olm.operatorframework.io/v1");
    assert_eq!(at(&catalog, "kind"), "ClusterCatalog");
    assert_eq!(at(&catalog, "metadata.name"), "sample-operator-catalog");
    assert_eq!(at(&catalog, "spec.source.type"), "Image");
    assert_eq!(
        at(&catalog, "spec.source.image.ref"),
        "quay.io/example/sample_operator-catalog:latest"
    );
    assert_eq!(at(&extension, "kind"), "ClusterExtension");
    assert_eq!(at(&extension, "spec.namespace"), "sample-operator");
    let source = at(&extension, "spec.source");
    assert_eq!(source["sourceType"], "Catalog");
    assert_eq!(source["catalog"]["packageName"], "sample-operator");
    assert_eq!(source["catalog"]["channels"][0], "alpha");
    assert_eq!(source["catalog"]["version"], "0.2.0");
    assert_eq!(
        source["catalog"]["selector"]["matchLabels"]["olm.operatorframework.io/metadata.name"],
        "sample-operator-catalog"
    );
}
