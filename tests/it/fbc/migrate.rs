//! Migrating app-registry releases: the sample operator's and KubeVirt's cumulative bundles
//! (real, published by the pipeline) and a KubeVirt-like chain split into per-CSV bundle
//! contents, and the catalog that keeps the same upgrade graph: it validates, its edges equal
//! the app registry's, and the existing graph drawer draws both alike.

use std::collections::BTreeMap;

use olm_release_olm::drawing::{Style, draw};
use olm_release_olm::fbc::{self, CatalogError, ReleaseModel, compare, disk, migrate};
use olm_release_olm::{Bundle, archive};

use super::{bundle, csv, image};
use crate::support::{Work, assert_code};

/// Migrates `b` with a digest-pinned image per CSV; checks the catalog validates, keeps every
/// edge, draws like the app registry and survives a write and a read. Returns the plan.
fn migrate_and_check(b: &Bundle) -> migrate::Migration {
    let plan = migrate::plan(b).unwrap();
    let images: BTreeMap<String, String> = plan
        .bundles
        .iter()
        .map(|c| (c.name().to_string(), image(c.name())))
        .collect();
    let catalog = migrate::catalog(&plan, &images, Default::default()).unwrap();
    let findings = fbc::validate(&catalog);
    assert!(findings.is_empty(), "{findings:#?}");
    let registry = ReleaseModel::from_bundle(b);
    let dir = tempfile::tempdir().unwrap();
    disk::write(dir.path(), &catalog, &[]).unwrap();
    let reread = disk::read(dir.path()).unwrap().catalog;
    let model = ReleaseModel::from_catalog(&reread, &b.package.package_name).unwrap();
    assert_eq!(
        compare(&registry, &model),
        [],
        "the catalog keeps the graph"
    );
    assert_eq!(registry.edges(), model.edges());
    let skeleton = model.to_bundle().unwrap();
    // The app registry's drawing also lists the CSVs no channel reaches, which a catalog
    // cannot hold: they are what the migration leaves out.
    let drawn = draw(b, Style::Text);
    let drawn = match drawn.split_once("stranded (no channel reaches them): ") {
        Some((graph, lost)) => {
            assert_eq!(lost.trim_end(), plan.left_out.join(", "));
            graph.to_string()
        }
        None => drawn,
    };
    assert_eq!(draw(&skeleton, Style::Text), drawn);
    let left_out: Vec<String> = plan
        .left_out
        .iter()
        .map(|n| format!("  \"{n}\" ->"))
        .collect();
    let edge_lines = |dot: String| {
        let mut lines: Vec<String> = dot
            .lines()
            .filter(|l| l.contains(" -> ") && !left_out.iter().any(|p| l.starts_with(p)))
            .map(str::to_string)
            .collect();
        lines.sort();
        lines
    };
    assert_eq!(
        edge_lines(draw(&skeleton, Style::Dot)),
        edge_lines(draw(b, Style::Dot)),
        "graph --registry and graph CATALOG print the same edges"
    );
    for c in &plan.bundles {
        let doc = reread.bundle(&plan.package, c.name()).unwrap();
        assert_eq!(doc.image, image(c.name()));
        assert_eq!(doc.version_str().as_deref(), Some(c.version()));
    }
    plan
}

fn names(plan: &migrate::Migration) -> Vec<&str> {
    plan.bundles.iter().map(|c| c.name()).collect()
}

#[test]
fn the_sample_operator_migrates_with_its_graph() {
    let work = Work::sample();
    assert_code(&work.run(&["-q", "run", "pipelines/sample.yaml"], &[]), 0);
    let args = [
        "-q",
        "run",
        "pipelines/sample.yaml",
        "--var",
        "VERSION=0.2.0",
    ];
    assert_code(&work.run(&args, &[]), 0);
    let cumulative = archive::read_path(
        &work.path().join("_out/sample-release/bundle"),
        &Default::default(),
    )
    .unwrap();
    assert_eq!(cumulative.csvs.len(), 2);
    let plan = migrate_and_check(&cumulative);
    assert_eq!(
        names(&plan),
        ["sample-operator.v0.1.0", "sample-operator.v0.2.0"]
    );
    for c in &plan.bundles {
        assert_eq!(c.package, "sample-operator");
        assert_eq!(c.channels, ["alpha"]);
        assert_eq!(c.default_channel.as_deref(), Some("alpha"));
        let crds: Vec<&str> = c.crds.iter().filter_map(|m| m.name()).collect();
        assert_eq!(
            crds,
            ["samples.example.com"],
            "each bundle holds the CRD its CSV owns"
        );
    }
    assert_eq!(
        plan.bundles[1].csv.replaces(),
        Some("sample-operator.v0.1.0")
    );
    assert!(plan.left_out.is_empty());
    assert!(
        plan.icon.is_some(),
        "the package icon comes from the default channel's head"
    );
}

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

/// KubeVirt v0.17.0 → v0.22.0 released by the pipeline from the real inputs (to a `dir:`
/// registry), then migrated: the catalog keeps the real chain.
#[test]
fn kubevirt_releases_migrate_with_their_graph() {
    let Some(shared) = crate::support::shared() else {
        return;
    };
    let work = Work::sample();
    let pipeline = crate::kubevirt_chain::registry_only_pipeline(&work);
    let registry = format!("dir:{}", work.path().join("_out/registry").display());
    for tag in &crate::kubevirt_chain::TAGS[1..] {
        let out =
            crate::kubevirt_chain::release(&work, &pipeline, &shared, tag, &registry, "kubevirt");
        assert_code(&out, 0);
    }
    let cumulative = archive::read_path(
        &work.path().join("_out/v0.22.0/bundle"),
        &Default::default(),
    )
    .unwrap();
    let plan = migrate_and_check(&cumulative);
    let versions: Vec<&str> = plan.bundles.iter().map(|c| c.version()).collect();
    assert_eq!(
        versions,
        [
            "0.17.0", "0.18.0", "0.19.0", "0.20.0", "0.20.1", "0.21.0", "0.22.0"
        ]
    );
    assert_eq!(plan.model.default_channel.as_deref(), Some("beta"));
    for c in &plan.bundles {
        let crds: Vec<&str> = c.crds.iter().filter_map(|m| m.name()).collect();
        assert_eq!(crds, ["kubevirts.kubevirt.io"], "{}", c.name());
    }
    check_gvk(&plan, "kubevirt.io");
    // With every release at hand, each bundle holds the CRD its CSV was released with.
    let releases: Vec<Bundle> = crate::kubevirt_chain::TAGS[1..]
        .iter()
        .map(|t| {
            archive::read_path(
                &work.path().join("_out").join(t).join("bundle"),
                &Default::default(),
            )
            .unwrap()
        })
        .collect();
    let plan = migrate::plan_with_releases(&cumulative, &releases).unwrap();
    for (c, release) in plan.bundles.iter().zip(&releases) {
        assert_eq!(c.objects(), release.crds, "{}", c.name());
    }
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

/// The properties of a migrated bundle's entry.
fn entry_properties(package: &str, c: &migrate::BundleContents) -> Vec<fbc::Property> {
    let image = super::image(c.name());
    let src = fbc::BundleSource {
        package,
        image: &image,
        csv: &c.csv,
        objects: &c.objects(),
        dependencies: &[],
        properties: &[],
        style: fbc::ObjectStyle::default(),
    };
    fbc::bundle_entry(&src).unwrap().properties
}

/// Every migrated bundle provides the KubeVirt API it owns.
fn check_gvk(plan: &migrate::Migration, group: &str) {
    for c in &plan.bundles {
        let props = entry_properties(&plan.package, c);
        assert!(
            props.iter().any(|p| p.type_ == "olm.gvk"
                && p.value.get("group").and_then(|g| g.as_str()) == Some(group)
                && p.value.get("kind").and_then(|k| k.as_str()) == Some("KubeVirt")),
            "{}: {props:?}",
            c.name()
        );
    }
}
