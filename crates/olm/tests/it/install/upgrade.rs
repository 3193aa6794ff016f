//! What an upgrade changes in the cluster ([`cluster::upgrade_diff`]): the webhook fixture
//! rendered as it ships and as edited copies of it (another image, a wider and a narrower
//! permission, a CRD version dropped or added, an object removed), each change named once.

use std::path::PathBuf;

use olm_release_olm::cluster::{self, RegistryV1, UpgradeDiff, rendering_for_diff};

use super::common::bundle_files;

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/install/bundles/webhook-mini.v0.1.0")
}

/// The fixture's rendering with `from` replaced by `to` in file `file` (`""`: as it ships).
fn rendered(edits: &[(&str, &str, &str)]) -> Vec<serde_yaml_ng::Value> {
    let mut files = bundle_files(&fixture());
    for (file, from, to) in edits {
        let text = String::from_utf8(files[*file].clone()).unwrap();
        assert!(text.contains(from), "{file} holds {from}");
        files.insert(file.to_string(), text.replace(from, to).into_bytes());
    }
    let bundle = RegistryV1::from_files(&files).unwrap();
    rendering_for_diff(&bundle, "mini-system").unwrap()
}

const CSV: &str = "manifests/webhook-mini.clusterserviceversion.yaml";
const CRD: &str = "manifests/mini.example.com_gadgets.yaml";

fn diff(edits: &[(&str, &str, &str)]) -> UpgradeDiff {
    cluster::upgrade_diff(&rendered(&[]), &rendered(edits))
}

#[test]
fn the_same_bundle_changes_nothing_even_under_another_csv_name() {
    let d = diff(&[(
        CSV,
        "name: webhook-mini.v0.1.0",
        "name: webhook-mini.v0.2.0",
    )]);
    assert!(d.is_empty(), "{d}");
    assert_eq!(d.to_string(), "  nothing changes in the cluster\n");
}

#[test]
fn a_new_image_is_named_with_its_deployment_and_container() {
    let d = diff(&[(
        CSV,
        "quay.io/example/sidecar:v1",
        "quay.io/example/sidecar:v2",
    )]);
    assert_eq!(d.images.len(), 1, "{d}");
    let i = &d.images[0];
    assert_eq!(
        (
            i.deployment.as_str(),
            i.container.as_str(),
            i.old.as_deref(),
            i.new.as_deref()
        ),
        (
            "mini.manager",
            "sidecar",
            Some("quay.io/example/sidecar:v1"),
            Some("quay.io/example/sidecar:v2")
        )
    );
    assert!(
        d.added.is_empty() && d.removed.is_empty() && d.widened.is_empty(),
        "{d}"
    );
}

#[test]
fn permissions_widened_and_narrowed_are_the_account_s_not_the_role_s() {
    let d = diff(&[(
        CSV,
        "verbs: [get, list, watch, create, patch]",
        "verbs: [get, list, watch, create, delete]",
    )]);
    let show = |g: &[cluster::Grant]| g.iter().map(ToString::to_string).collect::<Vec<_>>();
    // Installed for all namespaces, the permissions are ClusterRoles bound cluster-wide.
    assert_eq!(
        show(&d.widened),
        [
            "ServiceAccount mini-system/mini-manager cluster-wide: delete configmaps",
            "ServiceAccount mini-system/mini-manager cluster-wide: delete events"
        ]
    );
    assert_eq!(
        show(&d.narrowed),
        [
            "ServiceAccount mini-system/mini-manager cluster-wide: patch configmaps",
            "ServiceAccount mini-system/mini-manager cluster-wide: patch events"
        ]
    );
    assert!(d.added.is_empty() && d.removed.is_empty(), "{d}");
}

#[test]
fn a_wildcard_covers_what_it_replaces() {
    let d = diff(&[(
        CSV,
        "verbs: [get, list, watch, create, patch]",
        "verbs: [\"*\"]",
    )]);
    assert!(d.narrowed.is_empty(), "{d}");
    assert_eq!(d.widened.len(), 2, "{d}");
    assert!(d.widened.iter().all(|g| g.verb == "*"), "{d}");
}

#[test]
fn a_removed_served_crd_version_is_what_a_pipeline_refuses() {
    let text = std::fs::read_to_string(fixture().join(CRD)).unwrap();
    let v2 = text.find("  - name: v2").unwrap();
    let without_v2 = text[..v2].replace("storage: false", "storage: true");
    let d = diff(&[(CRD, &text, &without_v2)]);
    let removed: Vec<(&str, &str)> = d
        .removed_served()
        .iter()
        .map(|c| (c.crd.as_str(), c.version.as_str()))
        .collect();
    assert_eq!(removed, [("gadgets.mini.example.com", "v2")], "{d}");
    assert!(
        d.to_string()
            .contains("CRD gadgets.mini.example.com version v2: removed (was served")
    );

    // The other way round, the version is added, which strands nothing.
    let d = cluster::upgrade_diff(&rendered(&[(CRD, &text, &without_v2)]), &rendered(&[]));
    assert!(d.removed_served().is_empty(), "{d}");
    assert_eq!(d.crd_versions[0].change, "added");
}

#[test]
fn a_version_no_longer_served_is_reported_not_refused() {
    let text = std::fs::read_to_string(fixture().join(CRD)).unwrap();
    let v2 = text.find("  - name: v2").unwrap();
    let unserved = format!(
        "{}{}",
        &text[..v2],
        text[v2..].replacen("served: true", "served: false", 1)
    );
    let d = diff(&[(CRD, &text, &unserved)]);
    assert!(d.removed_served().is_empty(), "{d}");
    assert_eq!(d.crd_versions[0].change, "unserved", "{d}");
}

#[test]
fn objects_added_and_removed_are_named_by_kind_and_namespace() {
    let d = cluster::upgrade_diff(
        &rendered(&[]),
        &rendered(&[(
            "manifests/mini-config_v1_configmap.yaml",
            "name: mini-config",
            "name: mini-settings",
        )]),
    );
    assert_eq!(d.added, ["ConfigMap mini-system/mini-settings"], "{d}");
    assert_eq!(d.removed, ["ConfigMap mini-system/mini-config"], "{d}");
    assert!(
        d.to_string()
            .contains("  + ConfigMap mini-system/mini-settings\n")
    );
}
