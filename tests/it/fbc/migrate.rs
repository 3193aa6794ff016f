//! Migrating the app-registry releases the pipeline published: the sample operator's and
//! KubeVirt's cumulative bundles split into per-CSV bundle contents, and the catalog that keeps
//! the same upgrade graph.

use olm_release_olm::fbc::migrate;
use olm_release_olm::{Bundle, archive};

use super::migration_check::{entry_properties, migrate_and_check};
use crate::support::{Work, assert_code};

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

fn names(plan: &migrate::Migration) -> Vec<&str> {
    plan.bundles.iter().map(|c| c.name()).collect()
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
