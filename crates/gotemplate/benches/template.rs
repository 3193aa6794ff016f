//! Micro-benchmark of the template engine, with the standard harness and
//! `std::time::Instant` like `hot_paths`:
//!
//! - every case of the differential corpus (`tests/corpus`), parsed and executed;
//! - KubeVirt v0.22.0's OLM templates (github.com/kubevirt/kubevirt at tag v0.22.0:
//!   `manifests/release/olm`, with `manifests/generated` as the include folder and the
//!   variables the release pipeline gives), when `KUBEVIRT_SOURCE` names a checkout of that
//!   tag. Target: under 10 ms.
//!
//!     KUBEVIRT_SOURCE=path/to/kubevirt cargo bench -p olm-release-gotemplate --bench template

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use olm_release_gotemplate::{self as template, Data, Functions, Value};

/// Runs `f` at least 5 times and for at least ~1 s; prints and returns the median.
fn time<T>(name: &str, mut f: impl FnMut() -> T) -> Duration {
    let mut runs = Vec::new();
    let start = Instant::now();
    while runs.len() < 5 || (start.elapsed() < Duration::from_secs(1) && runs.len() < 2000) {
        let t = Instant::now();
        black_box(f());
        runs.push(t.elapsed());
    }
    runs.sort();
    let median = runs[runs.len() / 2];
    println!(
        "{name:<52} {:>9.3} ms  (median of {}, min {:.3} ms)",
        median.as_secs_f64() * 1e3,
        runs.len(),
        runs[0].as_secs_f64() * 1e3
    );
    median
}

/// The corpus cases as (template, sprig?) pairs, read the way the oracle test reads them
/// (data overrides are ignored here: every case runs on the shared data).
fn corpus(root: &Path) -> (Vec<(String, bool)>, Data) {
    let dir = root.join("tests/corpus");
    let base: serde_yaml_ng::Value =
        serde_yaml_ng::from_str(&std::fs::read_to_string(dir.join("data.yaml")).unwrap()).unwrap();
    let mut data = Data::default();
    if let Value::Map(m) = Value::from_yaml(&base) {
        data.vars = m;
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for f in files {
        let sprig = f
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("sprig");
        let text = std::fs::read_to_string(&f).unwrap();
        for chunk in text.split("\n=== ").skip(1) {
            let body: Vec<&str> = chunk
                .lines()
                .skip(1)
                .skip_while(|l| l.starts_with("--- "))
                .collect();
            cases.push((body.join("\n"), sprig));
        }
    }
    (cases, data)
}

fn kubevirt() -> Option<(Vec<(String, String)>, Data)> {
    let src = PathBuf::from(std::env::var_os("KUBEVIRT_SOURCE")?);
    if !src.is_dir() {
        return None;
    }
    let mut data = Data::default();
    let vars: BTreeMap<&str, &str> = [
        ("Namespace", "kubevirt"),
        ("CSVNamespace", "placeholder"),
        ("DockerPrefix", "index.docker.io/kubevirt"),
        ("DockerTag", "v0.22.0"),
        ("ImagePullPolicy", "IfNotPresent"),
        ("Verbosity", "\"2\""),
        ("QuayRepository", "kubevirt"),
        ("CsvVersion", "0.22.0"),
        ("PackageName", "kubevirt"),
        ("Channel", "alpha"),
        ("ReplacesCsvVersion", ""),
        ("CreatedAt", "2019-10-07T12:00:00Z"),
        ("KubeVirtLogo", "eA=="),
        ("VirtOperatorSha", ""),
        ("VirtApiSha", ""),
        ("VirtControllerSha", ""),
        ("VirtHandlerSha", ""),
        ("VirtLauncherSha", ""),
    ]
    .into_iter()
    .collect();
    for (k, v) in vars {
        data.set_str(k, v);
    }
    data.vars.insert(
        "GeneratedManifests".into(),
        Value::Files(src.join("manifests/generated")),
    );
    let mut files = Vec::new();
    let mut stack = vec![src.join("manifests/release/olm")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "in") {
                files.push((
                    p.display().to_string(),
                    std::fs::read_to_string(&p).unwrap(),
                ));
            }
        }
    }
    files.sort();
    Some((files, data))
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let (cases, go) = corpus(&root);
    let sprig = Data {
        functions: Functions::Sprig,
        ..go.clone()
    };
    let rendered = cases
        .iter()
        .filter(|(t, s)| template::render("c", t, if *s { &sprig } else { &go }).is_ok())
        .count();
    let per_pass = time(
        &format!("corpus: {} cases ({rendered} render)", cases.len()),
        || {
            for (t, s) in &cases {
                let _ = black_box(template::render("c", t, if *s { &sprig } else { &go }));
            }
        },
    );
    println!(
        "{:<52} {:>9.3} µs",
        "corpus: per case",
        per_pass.as_secs_f64() * 1e6 / cases.len() as f64
    );
    match kubevirt() {
        Some((files, data)) => {
            let bytes: usize = files
                .iter()
                .map(|(name, text)| template::render(name, text, &data).unwrap().len())
                .sum();
            let t = time(
                &format!(
                    "KubeVirt v0.22.0: {} templates, {} KB out",
                    files.len(),
                    bytes / 1024
                ),
                || {
                    for (name, text) in &files {
                        black_box(template::render(name, text, &data).unwrap());
                    }
                },
            );
            println!(
                "KubeVirt v0.22.0 render: {:.3} ms (target < 10 ms): {}",
                t.as_secs_f64() * 1e3,
                if t < Duration::from_millis(10) {
                    "met"
                } else {
                    "NOT met"
                }
            );
        }
        None => println!(
            "KubeVirt v0.22.0: skipped (set KUBEVIRT_SOURCE to a checkout of kubevirt/kubevirt at v0.22.0)"
        ),
    }
}
