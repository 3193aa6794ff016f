//! Micro-benchmarks of the hot paths of `publish` and fetch-previous, with the
//! standard harness and `std::time::Instant` (no criterion, to keep the build lean):
//! YAML parse and serialise of one CSV, reading a 100-CSV bundle folder, flattening it,
//! tar + gzip + sha256 of it, unpacking it, and validating it (in memory and as the verify stage
//! does, from the tarball).
//!
//!     cargo bench --bench hot_paths                        # the 100-CSV bench bundle
//!     BENCH_BUNDLE=_out/bench/bundles/500 cargo bench --bench hot_paths
//!
//! The bundle is `_out/bench/bundles/100` (made by `scripts/bench.sh`, KubeVirt-shaped) when
//! present, else a synthetic 100-CSV chain built here.

mod support;

use std::path::PathBuf;
use std::time::Duration;

use olm_release_olm::archive::{self, Layout};
use olm_release_olm::validate::{self, Options, Profile};
use olm_release_olm::{Bundle, Channel, Manifest, PackageManifest};
use serde_yaml_ng::Value;

const RUNS: support::Runs = support::Runs {
    runs: 5,
    for_at_least: Duration::from_secs(1),
    at_most: 1000,
    width: 44,
};

/// Times `f` with this benchmark's repetitions ([`support::time`]).
fn time<T>(name: &str, f: impl FnMut() -> T) -> Duration {
    support::time(name, RUNS, || {}, f)
}

/// A CSV shaped like KubeVirt's: a base64 icon, an install strategy with rules and a
/// deployment, descriptors and a long description.
fn synthetic_csv(i: usize, replaces: Option<&str>) -> Value {
    let rules: String = (0..60)
        .map(|r| format!("      - apiGroups: [g{r}.example.com]\n        resources: [things{r}, others{r}]\n        verbs: [get, list, watch, create, update, patch, delete]\n"))
        .collect();
    let icon = "iVBORw0KGgoAAAANSUhEUgAA".repeat(680);
    let text = format!(
        "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: op.0.{i}.0\n  namespace: placeholder\n  annotations:\n    alm-examples: '[{{\"kind\":\"KubeVirt\"}}]'\nspec:\n  displayName: Op\n  description: |\n{desc}  version: 0.{i}.0\n{replaces}  maturity: alpha\n  icon:\n  - base64data: {icon}\n    mediatype: image/png\n  installModes:\n  - {{type: OwnNamespace, supported: true}}\n  - {{type: AllNamespaces, supported: true}}\n  install:\n    strategy: deployment\n    spec:\n      clusterPermissions:\n      - serviceAccountName: op\n        rules:\n{rules}      deployments:\n      - name: op\n        spec:\n          replicas: 1\n          selector: {{matchLabels: {{app: op}}}}\n          template:\n            metadata: {{labels: {{app: op}}}}\n            spec:\n              containers:\n              - name: op\n                image: example/op:v0.{i}.0\n  customresourcedefinitions:\n    owned:\n    - {{name: things.example.com, version: v1, kind: Thing, displayName: Thing, description: A thing}}\n",
        desc = "    Some words about the operator, long enough to matter.\n".repeat(40),
        replaces = replaces
            .map(|r| format!("  replaces: {r}\n"))
            .unwrap_or_default(),
    );
    serde_yaml_ng::from_str(&text).expect("synthetic CSV parses")
}

fn synthetic_bundle(n: usize) -> Bundle {
    let mut csvs = Vec::new();
    for i in 1..=n {
        let prev = (i > 1).then(|| format!("op.0.{}.0", i - 1));
        let doc = synthetic_csv(i, prev.as_deref());
        csvs.push(Manifest::new(
            format!("op.0.{i}.0.clusterserviceversion.yaml"),
            doc,
        ));
    }
    let crd: Value = serde_yaml_ng::from_str(
        "apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nmetadata: {name: things.example.com}\nspec: {group: example.com, version: v1, names: {kind: Thing, plural: things}, scope: Namespaced}\n",
    )
    .expect("CRD parses");
    Bundle {
        package: PackageManifest {
            package_name: "op".into(),
            channels: vec![Channel {
                name: "alpha".into(),
                current_csv: format!("op.0.{n}.0"),
            }],
            default_channel: None,
        },
        csvs,
        crds: vec![Manifest::new("things.example.com.v1.crd.yaml", crd)],
    }
}

fn main() {
    let dir = std::env::var("BENCH_BUNDLE")
        .map(PathBuf::from)
        .unwrap_or_else(|_| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("_out/bench/bundles/100")
        });
    let (bundle, source) = if dir.is_dir() {
        let b = archive::read_path(&dir, &Default::default()).expect("bench bundle reads");
        (b, dir.display().to_string())
    } else {
        (synthetic_bundle(100), "synthetic 100-CSV chain".to_string())
    };
    let csv_text = serde_yaml_ng::to_string(&bundle.csvs[0].doc).expect("CSV serialises");
    println!(
        "bundle: {source}: {} CSVs; one CSV is {} bytes of YAML",
        bundle.csvs.len(),
        csv_text.len()
    );

    time("yaml: parse one CSV", || {
        serde_yaml_ng::from_str::<Value>(&csv_text).unwrap()
    });
    time("yaml: serialise one CSV", || {
        serde_yaml_ng::to_string(&bundle.csvs[0].doc).unwrap()
    });
    if dir.is_dir() {
        time("read the bundle folder (read_path)", || {
            archive::read_path(&dir, &Default::default()).unwrap()
        });
    }
    let files = archive::bundle_files(&bundle, Layout::Flat).unwrap();
    println!("flattened bundle.yaml: {} bytes", files[0].1.len());
    time("flatten (bundle_files, flat)", || {
        archive::bundle_files(&bundle, Layout::Flat).unwrap()
    });
    let packed = archive::pack(&files, 0).unwrap();
    println!(
        "tar {} bytes, .tar.gz {} bytes",
        packed.tar_size,
        packed.gz.len()
    );
    time("tar + gzip + sha256 (pack)", || {
        archive::pack(&files, 0).unwrap()
    });
    time("gunzip + untar + sha256 (unpack)", || {
        archive::unpack(&packed.gz, Default::default()).unwrap()
    });
    let csv_list = {
        let top =
            archive::parse_flattened_top("bundle.yaml", std::str::from_utf8(&files[0].1).unwrap())
                .unwrap();
        top["data"]["clusterServiceVersions"]
            .as_str()
            .unwrap()
            .to_string()
    };
    time("scan the CSV list for the parse budget", || {
        archive::scan::measure(&csv_list)
    });
    time("read the flattened bundle.yaml", || {
        archive::read_flattened("bundle.yaml", &files[0].1, &Default::default()).unwrap()
    });
    time("validate 100-CSV bundle (in memory)", || {
        validate::validate(&bundle, Profile::default())
    });
    time("verify stage: verify_tarball", || {
        validate::verify_tarball("b.tar.gz", &packed.gz, &Options::default())
    });
}
