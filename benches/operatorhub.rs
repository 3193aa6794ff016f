//! Adding a release to an OperatorHub-sized catalog, in one run: a catalog
//! generated here (not committed) shaped like OperatorHub's — 400 packages, 8,000 bundles, one
//! folder per package, each entry with `olm.csv.metadata`, `olm.gvk` and `relatedImages` built by
//! the same entry builder as a release — and the catalog stage's operation on it (build the
//! entry, read the package's part, add, validate, plan and write what changed), against the same
//! operation on an empty catalog. Peak heap is measured by a counting allocator around one run
//! of each operation.
//!
//!     cargo bench --bench operatorhub            # also run by scripts/bench.sh
//!     BENCH_HUB_PACKAGES=400 BENCH_HUB_BUNDLES=8000 cargo bench --bench operatorhub
//!
//! Targets: the release costs at most 1.2x what it costs in an empty catalog, with a peak
//! heap of at most 64 MiB.

mod support;
use support::digest;

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use olm_release_olm::Manifest;
use olm_release_olm::fbc::{self, AddBundle, BundleSource, ObjectStyle, disk, rewrite};

/// Counts live heap bytes and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// The heap `f` takes at its peak, above what was live before it, in MiB.
fn peak_mib<T>(f: impl FnOnce() -> T) -> f64 {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    black_box(f());
    (PEAK.load(Ordering::Relaxed) - before) as f64 / (1 << 20) as f64
}

const RUNS: support::Runs = support::Runs {
    runs: 15,
    for_at_least: Duration::from_secs(2),
    at_most: 400,
    width: 60,
};

/// Times `f` after `setup` with this benchmark's repetitions ([`support::time`]).
fn time<T>(name: &str, setup: impl FnMut(), f: impl FnMut() -> T) -> Duration {
    support::time(name, RUNS, setup, f)
}

/// A CSV shaped like a community operator's: a long description, alm-examples, install modes,
/// three owned CRDs with descriptors, two deployments, related images.
fn csv(package: &str, version: &str, replaces: Option<&str>) -> Manifest {
    let name = format!("{package}.v{version}");
    let kinds = ["Widget", "WidgetPool", "WidgetPolicy"];
    let mut owned = String::new();
    for k in kinds {
        owned.push_str(&format!(
            "    - name: {}s.{package}.example.com\n      version: v1\n      kind: {k}\n      displayName: {k}\n      description: A {k} managed by {package}; it holds the desired state and reports status.\n      resources:\n      - {{kind: Deployment, name: '', version: v1}}\n      - {{kind: Service, name: '', version: v1}}\n      specDescriptors:\n      - {{path: size, displayName: Size, description: Number of replicas, x-descriptors: ['urn:alm:descriptor:com.tectonic.ui:podCount']}}\n      - {{path: version, displayName: Version, description: The version to run, x-descriptors: ['urn:alm:descriptor:com.tectonic.ui:text']}}\n      - {{path: resources, displayName: Resources, x-descriptors: ['urn:alm:descriptor:com.tectonic.ui:resourceRequirements']}}\n      statusDescriptors:\n      - {{path: conditions, displayName: Conditions, x-descriptors: ['urn:alm:descriptor:io.kubernetes.conditions']}}\n      - {{path: nodes, displayName: Nodes, x-descriptors: ['urn:alm:descriptor:com.tectonic.ui:podStatuses']}}\n",
            k.to_lowercase()
        ));
    }
    let description = format!(
        "{package} manages widgets on Kubernetes.\n\n{}",
        "## Features\n\n* Creates widget pools and scales them.\n* Applies widget policies to namespaces.\n* Reports the state of every widget in its status.\n\n## Before you start\n\nThe operator needs a storage class and a service account with the permissions below. Read the documentation for the details of each custom resource.\n\n"
            .repeat(6)
    );
    let examples = format!(
        "[{}]",
        kinds
            .iter()
            .map(|k| format!(
                "{{\"apiVersion\": \"{package}.example.com/v1\", \"kind\": \"{k}\", \"metadata\": {{\"name\": \"example-{}\"}}, \"spec\": {{\"size\": 3, \"version\": \"{version}\", \"resources\": {{\"requests\": {{\"cpu\": \"100m\", \"memory\": \"128Mi\"}}}}}}}}",
                k.to_lowercase()
            ))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let replaces = replaces
        .map(|r| format!("  replaces: {r}\n"))
        .unwrap_or_default();
    let text = format!(
        "apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: {name}
  namespace: placeholder
  annotations:
    alm-examples: '{examples}'
    capabilities: Seamless Upgrades
    categories: Database, Storage
    certified: 'false'
    containerImage: quay.io/{package}/operator:v{version}
    createdAt: '2024-05-01T12:00:00Z'
    repository: https://github.com/example/{package}
    support: Example
    olm.skipRange: '<{version}'
  labels:
    operatorframework.io/arch.amd64: supported
spec:
  displayName: {package} Operator
  description: |
{}
  version: {version}
{replaces}  maturity: stable
  minKubeVersion: 1.21.0
  keywords: [widgets, storage, database, {package}]
  maintainers:
  - {{name: Example maintainers, email: maintainers@example.com}}
  provider: {{name: Example, url: https://example.com}}
  links:
  - {{name: Documentation, url: https://example.com/{package}/docs}}
  - {{name: Source, url: https://github.com/example/{package}}}
  icon:
  - {{base64data: iVBORw0KGgo=, mediatype: image/png}}
  installModes:
  - {{type: OwnNamespace, supported: true}}
  - {{type: SingleNamespace, supported: true}}
  - {{type: MultiNamespace, supported: false}}
  - {{type: AllNamespaces, supported: true}}
  customresourcedefinitions:
    owned:
{owned}  install:
    strategy: deployment
    spec:
      deployments:
      - name: {package}-operator
        spec:
          template:
            spec:
              containers:
              - {{name: manager, image: 'quay.io/{package}/operator:v{version}'}}
              - {{name: proxy, image: 'gcr.io/kubebuilder/kube-rbac-proxy:v0.13.1'}}
  relatedImages:
  - {{name: widget, image: 'quay.io/{package}/widget:v{version}'}}
  - {{name: agent, image: 'quay.io/{package}/agent:v{version}'}}
",
        description
            .lines()
            .map(|l| format!("    {l}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    Manifest::new(
        format!("{name}.clusterserviceversion.yaml"),
        serde_yaml_ng::from_str(&text).expect("the generated CSV parses"),
    )
}

/// The request the catalog stage builds for `package` at `version`.
fn request(package: &str, version: &str, replaces: Option<&str>, seed: usize) -> AddBundle {
    let m = csv(package, version, replaces);
    let image = format!("quay.io/{package}/bundle@sha256:{}", digest(seed));
    let src = BundleSource {
        package,
        image: &image,
        csv: &m,
        objects: &[],
        dependencies: &[],
        properties: &[],
        style: ObjectStyle::CsvMetadata,
    };
    AddBundle::from_source(&src, &["stable".into()]).expect("a request")
}

/// The catalog stage's operation: the entry built from the CSV, the package's part read, the
/// bundle added, validated, and what changed written.
fn stage(root: &Path, package: &str, version: &str, seed: usize) -> usize {
    let req = request(package, version, None, seed);
    let mut loaded = disk::read_package(root, package).expect("reads");
    let mut catalog = std::mem::take(&mut loaded.catalog);
    fbc::add(&mut catalog, &req).expect("adds");
    let errors = fbc::validate(&catalog)
        .iter()
        .filter(|f| f.level == olm_release_olm::Level::Error)
        .count();
    assert_eq!(errors, 0);
    let changes = rewrite::plan(root, &loaded, &catalog).expect("plans");
    disk::apply(root, &changes).expect("writes");
    changes.len()
}

/// The catalog stage as it was before it read only the package's part, for comparison: the
/// whole catalog read in full, validated, rendered in one layout and compared with the disk.
fn stage_whole(root: &Path, package: &str, version: &str, seed: usize) -> usize {
    let req = request(package, version, None, seed);
    let loaded = disk::read(root).expect("reads");
    let mut catalog = loaded.catalog.clone();
    fbc::add(&mut catalog, &req).expect("adds");
    black_box(fbc::validate(&catalog));
    let rendered = fbc::write::render(&catalog).expect("renders");
    let changes = disk::plan(root, &loaded.files, &rendered).expect("plans");
    disk::apply(root, &changes).expect("writes");
    changes.len()
}

/// The process's peak resident memory so far (`VmHWM`), in MiB.
fn max_rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map(|kb| kb / 1024.0)
        .unwrap_or(f64::NAN)
}

/// How many bundles package `i` has: between 1 and 60, 20 on average, like OperatorHub's mix
/// of one-release packages and long histories.
fn bundles_of(i: usize, packages: usize, total: usize) -> usize {
    let base = 1 + (i * 7919 + 13) % 39;
    let scaled = base * total / (20 * packages);
    scaled.max(1)
}

fn package_name(i: usize) -> String {
    format!("op-{i:03}")
}

/// Writes package `i` with `n` bundles under `root`; returns its file's size.
fn write_package(root: &Path, i: usize, n: usize) -> u64 {
    let name = package_name(i);
    let mut catalog = fbc::Catalog::default();
    for v in 0..n {
        let version = format!("1.{v}.0");
        let mut req = request(&name, &version, None, i * 1000 + v);
        if v + 3 >= n {
            req.channels.push("fast".into());
        }
        fbc::add(&mut catalog, &req).expect("generates");
    }
    let files = fbc::write::render(&catalog).expect("renders");
    let mut size = 0;
    for (rel, text) in files {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &text).unwrap();
        size += text.len() as u64;
    }
    size
}

fn main() {
    let env = |k: &str, d: usize| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let (packages, total) = (
        env("BENCH_HUB_PACKAGES", 400),
        env("BENCH_HUB_BUNDLES", 8000),
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let hub = dir.path().join("hub");
    let started = Instant::now();
    let mut counts: Vec<usize> = (0..packages)
        .map(|i| bundles_of(i, packages, total))
        .collect();
    let sum: usize = counts.iter().sum();
    let last = counts.len() - 1;
    counts[last] = (counts[last] + total).saturating_sub(sum).max(1);
    let mut bytes = 0;
    for (i, &n) in counts.iter().enumerate() {
        bytes += write_package(&hub, i, n);
    }
    // The package the release goes to: one with a typical history (20 bundles or the nearest).
    let (p, &n) = counts
        .iter()
        .enumerate()
        .min_by_key(|(_, n)| n.abs_diff(20))
        .unwrap();
    let name = package_name(p);
    let own = std::fs::read(hub.join(&name).join("catalog.yaml")).unwrap();
    println!(
        "OperatorHub-shaped catalog: {packages} packages, {} bundles, {:.1} MB of YAML, generated in {:.1} s; the release goes to {name} ({n} bundles, {:.0} KB)",
        counts.iter().sum::<usize>(),
        bytes as f64 / 1e6,
        started.elapsed().as_secs_f64(),
        own.len() as f64 / 1024.0
    );

    // The same package alone in a catalog, and an empty catalog.
    let alone = dir.path().join("alone");
    std::fs::create_dir_all(alone.join(&name)).unwrap();
    std::fs::write(alone.join(&name).join("catalog.yaml"), &own).unwrap();
    let empty = dir.path().join("empty");
    let next = format!("1.{n}.0");
    let restore = |root: &Path| {
        std::fs::write(root.join(&name).join("catalog.yaml"), &own).unwrap();
    };
    let clear = |root: &Path| {
        let _ = std::fs::remove_dir_all(root.join("newop"));
    };

    let empty_t = time(
        "first release of a package, empty catalog",
        || clear(&empty),
        || stage(&empty, "newop", "1.0.0", 1),
    );
    let hub_new = time(
        "first release of a package, OperatorHub-sized catalog",
        || clear(&hub),
        || stage(&hub, "newop", "1.0.0", 1),
    );
    let alone_t = time(
        &format!("next release of {name}, the package alone"),
        || restore(&alone),
        || stage(&alone, &name, &next, 2),
    );
    let hub_next = time(
        &format!("next release of {name}, OperatorHub-sized catalog"),
        || restore(&hub),
        || stage(&hub, &name, &next, 2),
    );
    clear(&hub);
    restore(&hub);
    let mem_new = peak_mib(|| stage(&hub, "newop", "1.0.0", 1));
    restore(&hub);
    let mem_next = peak_mib(|| stage(&hub, &name, &next, 2));
    restore(&hub);
    clear(&hub);
    let whole = Instant::now();
    let mem_whole = peak_mib(|| {
        let loaded = disk::read_summary(&hub).expect("reads");
        fbc::validate(&loaded.catalog).len()
    });
    let whole = whole.elapsed();
    let rss = max_rss_mib();
    restore(&hub);
    let before = Instant::now();
    let mem_before = peak_mib(|| stage_whole(&hub, &name, &next, 2));
    let before = before.elapsed();
    restore(&hub);

    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
    println!();
    println!(
        "first release, OperatorHub / empty catalog:        {:.2}x (target <= 1.2x); peak heap {mem_new:.1} MiB (target <= 64 MiB)",
        ratio(hub_new, empty_t)
    );
    println!(
        "next release, OperatorHub / the package alone:     {:.2}x (target <= 1.2x); peak heap {mem_next:.1} MiB (target <= 64 MiB)",
        ratio(hub_next, alone_t)
    );
    println!(
        "next release, OperatorHub / empty catalog:         {:.2}x (reading the package's own {n} bundles is the difference)",
        ratio(hub_next, empty_t)
    );
    println!(
        "verify/graph's whole read (summarised) + validate: {:.0} ms, peak heap {mem_whole:.1} MiB for {:.1} MB of YAML",
        whole.as_secs_f64() * 1e3,
        bytes as f64 / 1e6
    );
    println!(
        "before (the whole catalog read in full and rendered): {:.0} ms ({:.0}x), peak heap {mem_before:.0} MiB",
        before.as_secs_f64() * 1e3,
        ratio(before, hub_next)
    );
    println!(
        "peak resident memory of this process before that: {rss:.1} MiB (generation included)"
    );
}
