//! The catalog stage's cost on a large catalog: adding a release's bundle to
//! a file-based catalog of 500 bundles and validating the whole catalog, as the catalog stage
//! does it — read the folder, add, validate with the `opm validate` rules, render, and write
//! what changed — with the parts timed alone too. Standard harness, `std::time::Instant`.
//!
//!     cargo bench --bench catalog                  # 500 bundles (target: < 0.5 s on 2 cores)
//!     BENCH_CATALOG_BUNDLES=2000 cargo bench --bench catalog
//!
//! The catalog is synthetic and shaped like a long-lived operator's: one package, a `stable`
//! channel chaining every bundle through `replaces` (every tenth entry also skipping a z-stream
//! the catalog never listed, with a `skipRange`), a `fast` channel holding the newest fifth,
//! each bundle with an `olm.package` property, three `olm.gvk` properties and a
//! digest-pinned image.

mod support;
use support::digest;

use std::path::Path;
use std::time::Duration;

use olm_release_olm::fbc::{self, AddBundle, Catalog, Entry, Property, disk};

const RUNS: support::Runs = support::Runs {
    runs: 5,
    for_at_least: Duration::from_secs(1),
    at_most: 500,
    width: 52,
};

/// Times `f` after `setup` with this benchmark's repetitions ([`support::time`]).
fn time<T>(name: &str, setup: impl FnMut(), f: impl FnMut() -> T) -> Duration {
    support::time(name, RUNS, setup, f)
}

fn name(i: usize) -> String {
    format!("widget.v1.{i}.0")
}

fn synthetic(n: usize) -> Catalog {
    let mut c = Catalog::default();
    c.packages.push(fbc::PackageDoc {
        name: "widget".into(),
        default_channel: Some("stable".into()),
        description: Some("A widget operator with a long history.".into()),
        ..Default::default()
    });
    let mut stable = fbc::ChannelDoc {
        package: "widget".into(),
        name: "stable".into(),
        ..Default::default()
    };
    let mut fast = fbc::ChannelDoc {
        package: "widget".into(),
        name: "fast".into(),
        ..Default::default()
    };
    for i in 0..n {
        let mut e = Entry::new(name(i), (i > 0).then(|| name(i - 1)).as_deref());
        if i % 10 == 9 {
            e.skips = vec![format!("widget.v1.{}.1", i - 1)]; // a z-stream never listed here
            e.skip_range = Some(format!(">=1.{}.0 <1.{i}.0", i - 9));
        }
        if i >= n - n / 5 {
            let replaces = (i > n - n / 5).then(|| name(i - 1));
            fast.entries.push(Entry {
                replaces,
                ..e.clone()
            });
        }
        stable.entries.push(e);
        let mut properties = vec![Property::package("widget", &format!("1.{i}.0"))];
        for kind in ["Widget", "WidgetPool", "WidgetPolicy"] {
            properties.push(Property::gvk("widgets.example.com", kind, "v1", false));
        }
        c.bundles.push(fbc::BundleDoc {
            package: "widget".into(),
            name: name(i),
            image: format!("quay.io/example/widget-bundle@sha256:{}", digest(i)),
            properties,
            ..Default::default()
        });
    }
    c.channels = vec![stable, fast];
    c
}

fn request(n: usize) -> AddBundle {
    let mut props = Vec::new();
    for kind in ["Widget", "WidgetPool", "WidgetPolicy"] {
        props.push(Property::gvk("widgets.example.com", kind, "v1", false));
    }
    AddBundle {
        package: "widget".into(),
        name: name(n),
        version: format!("1.{n}.0"),
        image: format!("quay.io/example/widget-bundle@sha256:{}", digest(n)),
        properties: props,
        channels: vec!["stable".into(), "fast".into()],
        skip_range: Some(format!(">=1.{}.0 <1.{n}.0", n - 3)),
        ..AddBundle::default()
    }
}

/// The catalog stage: read the package's part, add, validate, render, write what changed.
fn stage(root: &Path, req: &AddBundle) -> usize {
    let mut loaded = disk::read_package(root, &req.package).expect("reads");
    let mut catalog = std::mem::take(&mut loaded.catalog);
    fbc::add(&mut catalog, req).expect("adds");
    let findings = fbc::validate(&catalog);
    assert!(findings.is_empty(), "{findings:?}");
    let changes = fbc::rewrite::plan(root, &loaded, &catalog).expect("plans");
    disk::apply(root, &changes).expect("writes");
    changes.len()
}

fn main() {
    let n: usize = std::env::var("BENCH_CATALOG_BUNDLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500);
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("catalog");
    let catalog = synthetic(n);
    assert!(fbc::validate(&catalog).is_empty());
    disk::write(&root, &catalog, &[]).expect("writes the catalog");
    let file = root.join("widget/catalog.yaml");
    let original = std::fs::read(&file).expect("catalog file");
    println!(
        "catalog: {n} bundles, {} entries, {:.1} KB in widget/catalog.yaml",
        catalog
            .channels
            .iter()
            .map(|c| c.entries.len())
            .sum::<usize>(),
        original.len() as f64 / 1024.0
    );
    let req = request(n);
    let restore = || std::fs::write(&file, &original).expect("restores");

    let read = time(
        "read the catalog folder",
        || {},
        || disk::read(&root).expect("reads"),
    );
    let loaded = disk::read(&root).expect("reads");
    let add = time(
        "add a bundle to 2 channels (in memory)",
        || {},
        || {
            let mut c = loaded.catalog.clone();
            fbc::add(&mut c, &req).expect("adds");
            c
        },
    );
    let mut added = loaded.catalog.clone();
    fbc::add(&mut added, &req).expect("adds");
    let validate = time(
        "validate the whole catalog",
        || {},
        || fbc::validate(&added),
    );
    let render = time(
        "render the catalog (deterministic YAML)",
        || {},
        || fbc::write::render(&added).expect("renders"),
    );
    let plan = time(
        "plan + diff the write (what --dry-run shows)",
        || {},
        || {
            let rendered = fbc::write::render(&added).expect("renders");
            let changes = disk::plan(&root, &loaded.files, &rendered).expect("plans");
            disk::diff(&changes)
        },
    );
    let total = time(
        "catalog stage: read + add + validate + write",
        restore,
        || stage(&root, &req),
    );
    // A rerun: the bundle is there, nothing is written.
    let rerun = time(
        "rerun of the same release (no-op, nothing written)",
        || {},
        || stage(&root, &req),
    );
    println!(
        "\nparts: read {:.1} + add {:.1} + validate {:.1} + render {:.1} ms; dry-run plan {:.1} ms",
        read.as_secs_f64() * 1e3,
        add.as_secs_f64() * 1e3,
        validate.as_secs_f64() * 1e3,
        render.as_secs_f64() * 1e3,
        plan.as_secs_f64() * 1e3
    );
    println!(
        "catalog add + validate of {n} bundles: {:.1} ms (target < 500 ms); rerun {:.1} ms",
        total.as_secs_f64() * 1e3,
        rerun.as_secs_f64() * 1e3
    );
}
