//! Migrating app-registry releases: a KubeVirt-like chain split into per-CSV bundle contents,
//! and the catalog that keeps the same upgrade graph: it validates, its edges equal the app
//! registry's, and the existing graph drawer draws both alike ([`super::migration_check`]).
//! The sample operator's and KubeVirt's releases, published by the pipeline and then migrated,
//! are the application's tests (tests/it/fbc/migrate.rs).

use std::collections::BTreeMap;

use olm_release_olm::Bundle;
use olm_release_olm::fbc::{CatalogError, migrate};

use super::migration_check::{entry_properties, migrate_and_check};
use super::{bundle, csv};

/// KubeVirt's shape: `beta` ends at 0.17.0; `alpha` runs 0.18.0 → 0.22.0 (0.18.0 replaces
/// nothing); `beta` stays the default. Plus a CSV no channel reaches.
fn kubevirt_like() -> Bundle {
    let n = |v: &str| format!("kubevirtoperator.{v}");
    let mut csvs = vec![csv(&n("0.17.0"), "0.17.0", None, &[])];
    let alpha = ["0.18.0", "0.19.0", "0.20.0", "0.20.1", "0.21.0", "0.22.0"];
    for (i, v) in alpha.iter().enumerate() {
        let prev = (i > 0).then(|| n(alpha[i - 1]));
        csvs.push(csv(&n(v), v, prev.as_deref(), &[]));
    }
    csvs.push(csv(&n("0.16.9"), "0.16.9", None, &[]));
    bundle(
        "kubevirt-operatorhub",
        &[("beta", &n("0.17.0")), ("alpha", &n("0.22.0"))],
        Some("beta"),
        csvs,
    )
}

#[test]
fn a_kubevirt_like_chain_keeps_both_channels_and_names_what_it_leaves_out() {
    let plan = migrate_and_check(&kubevirt_like());
    assert_eq!(plan.bundles.len(), 7);
    assert_eq!(plan.left_out, ["kubevirtoperator.0.16.9"]);
    let channels: Vec<(&str, Vec<String>)> = plan
        .bundles
        .iter()
        .map(|c| (c.version(), c.channels.clone()))
        .collect();
    assert_eq!(channels[0], ("0.17.0", vec!["beta".to_string()]));
    assert!(channels[1..].iter().all(|(_, c)| c == &["alpha"]));
    assert_eq!(plan.model.default_channel.as_deref(), Some("beta"));
    assert_eq!(
        plan.model.channels["alpha"].heads,
        ["kubevirtoperator.0.22.0"]
    );
}

#[test]
fn migration_refuses_what_a_catalog_cannot_hold() {
    let mut looped = kubevirt_like();
    let first = looped
        .csvs
        .iter_mut()
        .find(|c| c.name() == Some("kubevirtoperator.0.18.0"))
        .unwrap();
    first.set_replaces(Some("kubevirtoperator.0.20.0"));
    let err = migrate::plan(&looped).unwrap_err();
    assert!(matches!(err, CatalogError::Migration { .. }));
    assert!(err.to_string().contains("the replaces chain of channel alpha loops: kubevirtoperator.0.22.0 -> kubevirtoperator.0.21.0 -> kubevirtoperator.0.20.1 -> kubevirtoperator.0.20.0 -> kubevirtoperator.0.19.0 -> kubevirtoperator.0.18.0 -> kubevirtoperator.0.20.0"), "{err}");

    let mut no_default = kubevirt_like();
    no_default.package.default_channel = None;
    let err = migrate::plan(&no_default).unwrap_err().to_string();
    assert!(
        err.contains("several channels and no defaultChannel"),
        "{err}"
    );

    let plan = migrate::plan(&kubevirt_like()).unwrap();
    let err = migrate::catalog(&plan, &BTreeMap::new(), Default::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "migrating package kubevirt-operatorhub: no bundle image was given for kubevirtoperator.0.17.0"
    );
    let tags: BTreeMap<String, String> = plan
        .bundles
        .iter()
        .map(|c| {
            (
                c.name().to_string(),
                format!("quay.io/kubevirt/bundle:{}", c.version()),
            )
        })
        .collect();
    assert!(matches!(
        migrate::catalog(&plan, &tags, Default::default()),
        Err(CatalogError::ImageNotByDigest { .. })
    ));
}

#[test]
fn each_bundle_gets_the_crds_of_the_release_that_introduced_its_csv() {
    let mut first = bundle(
        "widget",
        &[("alpha", "widget.v0.1.0")],
        None,
        vec![csv("widget.v0.1.0", "0.1.0", None, &[])],
    );
    // 0.1.0 shipped the CRD with v1 only; 0.2.0 added v1beta1 (the helper's CRD).
    let versions = &mut first.crds[0].doc["spec"]["versions"];
    *versions = serde_yaml_ng::from_str("[{name: v1, served: true, storage: true}]").unwrap();
    let cumulative = bundle(
        "widget",
        &[("alpha", "widget.v0.2.0")],
        None,
        vec![
            csv("widget.v0.2.0", "0.2.0", Some("widget.v0.1.0"), &[]),
            csv("widget.v0.1.0", "0.1.0", None, &[]),
        ],
    );
    let gvk_versions = |plan: &migrate::Migration, i: usize| -> Vec<String> {
        let c = &plan.bundles[i];
        entry_properties("widget", c)
            .iter()
            .filter(|p| p.type_ == "olm.gvk")
            .map(|p| p.value["version"].as_str().unwrap().to_string())
            .collect()
    };
    let plain = migrate::plan(&cumulative).unwrap();
    assert_eq!(
        gvk_versions(&plain, 0),
        ["v1", "v1beta1"],
        "the cumulative copy"
    );
    let faithful =
        migrate::plan_with_releases(&cumulative, &[first.clone(), cumulative.clone()]).unwrap();
    assert_eq!(gvk_versions(&faithful, 0), ["v1"], "0.1.0 as released");
    assert_eq!(gvk_versions(&faithful, 1), ["v1", "v1beta1"]);
    assert_eq!(faithful.bundles[0].objects(), first.crds);
}

/// The migrated package replaces its own documents in a catalog and nothing else: the other
/// package's documents stay before it, in their order.
#[test]
fn a_migrated_package_replaces_only_its_own_documents() {
    use olm_release_olm::fbc::{BundleDoc, Catalog, ChannelDoc, PackageDoc};
    let package = |name: &str| PackageDoc {
        name: name.into(),
        ..Default::default()
    };
    let channel = |package: &str, name: &str| ChannelDoc {
        package: package.into(),
        name: name.into(),
        ..Default::default()
    };
    let bundle = |package: &str, name: &str| BundleDoc {
        package: package.into(),
        name: name.into(),
        ..Default::default()
    };
    let mut catalog = Catalog {
        packages: vec![package("op"), package("other")],
        channels: vec![channel("op", "alpha"), channel("other", "stable")],
        bundles: vec![bundle("op", "op.v0.1.0"), bundle("other", "other.v1.0.0")],
        others: Vec::new(),
    };
    let migrated = Catalog {
        packages: vec![package("op")],
        channels: vec![channel("op", "stable")],
        bundles: vec![bundle("op", "op.v0.2.0")],
        others: Vec::new(),
    };
    catalog.replace_package("op", migrated);
    let names = |v: Vec<(&str, &str)>| {
        v.into_iter()
            .map(|(a, b)| format!("{a}/{b}"))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        catalog
            .packages
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>(),
        ["other", "op"]
    );
    assert_eq!(
        names(
            catalog
                .channels
                .iter()
                .map(|c| (c.package.as_str(), c.name.as_str()))
                .collect()
        ),
        ["other/stable", "op/stable"]
    );
    assert_eq!(
        names(
            catalog
                .bundles
                .iter()
                .map(|b| (b.package.as_str(), b.name.as_str()))
                .collect()
        ),
        ["other/other.v1.0.0", "op/op.v0.2.0"]
    );
}
