//! The checks every migration must pass, whatever its source: the catalog validates, keeps
//! every edge of the app registry's graph, draws like it and survives a write and a read; and
//! the properties of each migrated bundle's entry. Shared with the application's
//! tests, which migrate what the pipeline published (tests/it/fbc/migrate.rs) and include
//! this file, so besides other crates it names only `super::image`.

use std::collections::BTreeMap;

use olm_release_olm::Bundle;
use olm_release_olm::drawing::{Style, draw};
use olm_release_olm::fbc::{self, ReleaseModel, compare, disk, migrate};

use super::image;

/// Migrates `b` with a digest-pinned image per CSV; checks the catalog validates, keeps every
/// edge, draws like the app registry and survives a write and a read. Returns the plan.
pub fn migrate_and_check(b: &Bundle) -> migrate::Migration {
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

/// The properties of a migrated bundle's entry.
pub fn entry_properties(package: &str, c: &migrate::BundleContents) -> Vec<fbc::Property> {
    let image = image(c.name());
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
