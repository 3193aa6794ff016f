//! operator-sdk's own goldens as the oracle of [`olm_release_init::generate_bundle`]: each case
//! of `internal/generate/clusterserviceversion/clusterserviceversion_test.go` (a CSV base of
//! `internal/generate/testdata/clusterserviceversions/bases/` with the manifests of
//! `internal/generate/testdata/go/static/`, operator `memcached-operator`, version 0.0.1) is read
//! with `git show` from a snapshot of operator-framework/operator-sdk (`OPERATOR_SDK_SOURCE`, a
//! git directory; by default the mirror this project's machines keep) and generated here; the
//! CSV must equal the expected one under `…/clusterserviceversions/output/` as data. And the
//! project operator-sdk scaffolds for its own tests (`testdata/go/v4/memcached-operator`, with
//! the `bundle/` its `make bundle` wrote committed) is built with kustomize (or `kubectl
//! kustomize`; skipped without either) and generated here: the same files, each equal as data
//! but for what a release sets (name, version, the operator's image) and [`PROJECT_KNOWN`].
//!
//! What "as data" leaves out, and why: `createdAt` (operator-sdk writes the time of the run,
//! which its own test replaces; a release adds it only when asked), and empty values
//! (`strategy: {}`, `resources: {}`, `admissionReviewVersions: null`), which Go writes for
//! zero-valued structs and which mean the same as absent ones. One difference is deliberate and
//! listed in [`KNOWN`]: operator-sdk decodes every object into Go types, which drops fields
//! Kubernetes does not define (the golden Deployment's misspelt `allowPrivateEscalation`);
//! `init` keeps objects as the project wrote them, so the API server warns about the field as
//! it would for the project's own `kubectl apply`.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_yaml_ng::Value;

const DEFAULT_SOURCE: &str = "/work/.mirror/operator-framework+operator-sdk/repo";
const TESTDATA: &str = "internal/generate/testdata";

/// Differences expected, by golden and path, with why (see the module's documentation).
const KNOWN: &[(&str, &str)] = &[(
    "clusterserviceversions/output/memcached-operator-multiVersion.yaml",
    ".spec.install.spec.deployments[0].spec.template.spec.containers[1].securityContext: only in ours",
)];

/// (base, manifests, expected) of each case of clusterserviceversion_test.go.
const CASES: &[(&str, &str, &str)] = &[
    (
        "clusterserviceversions/bases/memcached-operator.clusterserviceversion.yaml",
        "go/static/basic.operator.yaml",
        "clusterserviceversions/output/memcached-operator.clusterserviceversion.yaml",
    ),
    (
        "clusterserviceversions/bases/with-ui-metadata.clusterserviceversion.yaml",
        "go/static/basic.operator.yaml",
        "clusterserviceversions/output/with-ui-metadata.clusterserviceversion.yaml",
    ),
    (
        "clusterserviceversions/bases/memcached-operator-multiVersion.yaml",
        "go/static/basic.multiversion.operator.yaml",
        "clusterserviceversions/output/memcached-operator-multiVersion.yaml",
    ),
];

fn source() -> Result<PathBuf, String> {
    if std::env::var("CI").as_deref() == Ok("true") {
        return Err("CI=true: CI machines keep no snapshot of operator-framework/operator-sdk; the fixtures test covers the generation there".into());
    }
    let path = PathBuf::from(
        std::env::var("OPERATOR_SDK_SOURCE").unwrap_or_else(|_| DEFAULT_SOURCE.into()),
    );
    if !path.exists() {
        return Err(format!(
            "no snapshot of operator-framework/operator-sdk at {} (set OPERATOR_SDK_SOURCE to its git directory)",
            path.display()
        ));
    }
    Ok(path)
}

fn show(source: &Path, rel: &str) -> String {
    let out = Command::new("git")
        .arg("--git-dir")
        .arg(source)
        .args(["show", &format!("HEAD:{TESTDATA}/{rel}")])
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git show {rel}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `v` with what "as data" leaves out removed: `createdAt`, nulls, empty maps and lists;
/// `alm-examples` parsed.
pub fn normalise(v: &Value) -> Value {
    match v {
        Value::Mapping(m) => {
            let mut out = serde_yaml_ng::Mapping::new();
            for (k, x) in m {
                if k.as_str() == Some("createdAt") {
                    continue;
                }
                let x = match (k.as_str(), x.as_str()) {
                    (Some("alm-examples"), Some(json)) => serde_yaml_ng::to_value(
                        serde_json::from_str::<serde_json::Value>(json).unwrap(),
                    )
                    .unwrap(),
                    _ => normalise(x),
                };
                if !is_empty(&x) {
                    out.insert(k.clone(), x);
                }
            }
            Value::Mapping(out)
        }
        Value::Sequence(s) => Value::Sequence(s.iter().map(normalise).collect()),
        other => other.clone(),
    }
}

fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Mapping(m) => m.is_empty(),
        Value::Sequence(s) => s.is_empty(),
        _ => false,
    }
}

/// The paths where `a` and `b` differ.
pub fn differences(a: &Value, b: &Value, path: &str, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Mapping(x), Value::Mapping(y)) => {
            for (k, va) in x {
                let key = format!("{path}.{}", k.as_str().unwrap_or("?"));
                match y.get(k) {
                    Some(vb) => differences(va, vb, &key, out),
                    None => out.push(format!("{key}: only in ours")),
                }
            }
            for k in y.keys().filter(|k| !x.contains_key(*k)) {
                out.push(format!(
                    "{path}.{}: only in operator-sdk's",
                    k.as_str().unwrap_or("?")
                ));
            }
        }
        (Value::Sequence(x), Value::Sequence(y)) if x.len() == y.len() => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                differences(va, vb, &format!("{path}[{i}]"), out);
            }
        }
        _ if a == b => {}
        _ => out.push(format!(
            "{path}: ours {} operator-sdk's {}",
            serde_json::to_string(a).unwrap_or_default(),
            serde_json::to_string(b).unwrap_or_default()
        )),
    }
}

#[test]
fn every_golden_csv_of_operator_sdk_is_generated_equal() {
    let source = match source() {
        Ok(s) => s,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let mut failures = Vec::new();
    for (base, manifests, expected) in CASES {
        // clusterserviceversion_test.go feeds the base to the collector beside the manifests.
        let input = format!("{}\n---\n{}", show(&source, manifests), show(&source, base));
        let generated =
            olm_release_init::generate_bundle(&input, Some("memcached-operator"), Some("0.0.1"))
                .unwrap_or_else(|| panic!("{expected}: nothing generated"));
        let want: Value = serde_yaml_ng::from_str(&show(&source, expected)).unwrap();
        let mut diff = Vec::new();
        differences(
            &normalise(&generated.csv.1),
            &normalise(&want),
            "",
            &mut diff,
        );
        let known: Vec<&str> = KNOWN
            .iter()
            .filter(|(golden, _)| golden == expected)
            .map(|(_, path)| *path)
            .collect();
        eprintln!(
            "{expected}: {} differences ({} known)",
            diff.len(),
            known.len()
        );
        if diff != known {
            failures.push(format!("{expected}:\n  {}", diff.join("\n  ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The project operator-sdk scaffolds and tests its own releases with, with the bundle its
/// `make bundle` wrote committed beside `config/`.
const PROJECT: &str = "testdata/go/v4/memcached-operator";

/// Differences expected against that committed bundle, by file and path, with why: the webhook
/// certificate volume (see the book's "Bundles from `make bundle`": OLM mounts its own, and the
/// Secret it names is cert-manager's, which the bundle does not ship).
const PROJECT_KNOWN: &[(&str, &str)] = &[
    (
        "memcached-operator.clusterserviceversion.yaml",
        ".spec.install.spec.deployments[0].spec.template.spec.containers[0].volumeMounts: only in operator-sdk's",
    ),
    (
        "memcached-operator.clusterserviceversion.yaml",
        ".spec.install.spec.deployments[0].spec.template.spec.volumes: only in operator-sdk's",
    ),
];

/// `kustomize build DIR` (or `kubectl kustomize DIR`) in `root`; `None` without either tool.
fn kustomize_build(root: &Path, dir: &str) -> Option<String> {
    for (program, args) in [
        ("kustomize", &["build"][..]),
        ("kubectl", &["kustomize"][..]),
    ] {
        let Ok(out) = Command::new(program)
            .args(args)
            .arg(dir)
            .current_dir(root)
            .output()
        else {
            continue;
        };
        assert!(
            out.status.success(),
            "{program} {dir}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        return Some(String::from_utf8(out.stdout).unwrap());
    }
    None
}

#[test]
fn operator_sdks_own_project_bundle_is_generated_equal() {
    let source = match source() {
        Ok(s) => s,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let tmp = tempfile::tempdir().unwrap();
    let archive = Command::new("git")
        .arg("--git-dir")
        .arg(&source)
        .args(["archive", "HEAD", PROJECT])
        .output()
        .expect("git runs");
    assert!(archive.status.success());
    let mut tar = Command::new("tar")
        .args(["-x", "-C"])
        .arg(tmp.path())
        .stdin(std::process::Stdio::piped())
        .spawn()
        .expect("tar runs");
    use std::io::Write;
    tar.stdin
        .take()
        .unwrap()
        .write_all(&archive.stdout)
        .unwrap();
    assert!(tar.wait().unwrap().success());
    let project = tmp.path().join(PROJECT);
    let Some(built) = kustomize_build(&project, "config/manifests") else {
        eprintln!("skipped: neither kustomize nor kubectl is installed");
        return;
    };
    let generated = olm_release_init::generate_bundle(&built, None, None).expect("a bundle");
    let committed = project.join("bundle/manifests");
    let mut ours: Vec<(String, Value)> = generated.objects.clone();
    ours.push(generated.csv.clone());
    ours.sort_by(|a, b| a.0.cmp(&b.0));
    let mut theirs: Vec<String> = std::fs::read_dir(&committed)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    theirs.sort();
    let names: Vec<&String> = ours.iter().map(|(n, _)| n).collect();
    assert_eq!(names, theirs.iter().collect::<Vec<_>>(), "the same files");
    let mut failures = Vec::new();
    for (name, value) in &ours {
        let mut want: Value =
            serde_yaml_ng::from_str(&std::fs::read_to_string(committed.join(name)).unwrap())
                .unwrap();
        // What a release sets: the CSV's name and version (`make bundle` passes VERSION), the
        // operator's image (`kustomize edit set image`), and the time of the run.
        let mut value = value.clone();
        for v in [&mut value, &mut want] {
            if let Some(m) = v.get_mut("metadata").and_then(Value::as_mapping_mut) {
                m.remove("name");
                m.remove("creationTimestamp");
            }
            if let Some(m) = v.get_mut("spec").and_then(Value::as_mapping_mut) {
                m.remove("version");
            }
            if let Some(m) = v.as_mapping_mut() {
                m.remove("status");
            }
            if let Some(c) = v
                .get_mut("spec")
                .and_then(|s| s.get_mut("install"))
                .and_then(|i| i.get_mut("spec"))
                .and_then(|s| s.get_mut("deployments"))
                .and_then(|d| d.get_mut(0))
                .and_then(|d| d.get_mut("spec"))
                .and_then(|s| s.get_mut("template"))
                .and_then(|t| t.get_mut("spec"))
                .and_then(|s| s.get_mut("containers"))
                .and_then(|c| c.get_mut(0))
                .and_then(Value::as_mapping_mut)
            {
                c.remove("image");
            }
        }
        let mut diff = Vec::new();
        differences(&normalise(&value), &normalise(&want), "", &mut diff);
        let known: Vec<&str> = PROJECT_KNOWN
            .iter()
            .filter(|(file, _)| file == name)
            .map(|(_, path)| *path)
            .collect();
        eprintln!("{name}: {} differences ({} known)", diff.len(), known.len());
        if diff != known {
            failures.push(format!("{name}:\n  {}", diff.join("\n  ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
