//! One verify on the objects a bundle carries beside its CSV and CRDs
//! (RBAC, ConfigMaps, PriorityClasses, PodDisruptionBudgets, …): a pipeline's verify stage,
//! `verify DIR` and `publish DIR` give the validator the same unit — the CSV, its CRDs, the
//! package file and the objects — under the same profile, so each of operator-framework/api's
//! object checks reports the same finding (rule, file, object, field, message) all three ways,
//! and stops (or lets through) all three alike.
//!
//! The bundle folder is `fixtures/widget-operator/0.1.0` made flat (its package file beside
//! the CSV), plus the objects of each case; the pipeline renders that folder as it is
//! (`render.bundle: .`).

use std::path::Path;

use crate::operator_sdk::{flat_widget, work};
use crate::support::{Work, list_files, stderr, stdout};

/// The bundle folder every path reads.
const FOLDER: &str = "flat";

/// The work folder: the widget fixture, and `flat/` holding its 0.1.0 CSV, CRD and package file
/// plus `objects` (file name, YAML); `pipelines/flat.yaml` releases that folder with the
/// `verify:` section given.
fn bundle_with(objects: &[(&str, &str)], verify: &str) -> Work {
    let w = work();
    let flat = flat_widget(&w, FOLDER);
    for (file, yaml) in objects {
        std::fs::write(flat.join(file), yaml).unwrap();
    }
    let pipeline = format!(
        "name: flat-release\n\
         package: widget-operator\n\
         channels: [stable, fast]\n\
         default_channel: stable\n\
         version: 0.1.0\n\
         render:\n  templates: {FOLDER}\n  bundle: .\n  csv:\n    name: widget-operator.v{{version}}\n\
         registry:\n  url: dir:_out/registry\n  namespace: example\n\
         verify:\n{verify}\n\
         stages: [render, fetch-previous, package, verify, push]\n"
    );
    std::fs::write(w.path().join("pipelines/flat.yaml"), pipeline).unwrap();
    w
}

/// The `level[rule] file: …` finding lines of an output, sorted.
fn findings(text: &str) -> Vec<String> {
    let mut out: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("warning[") || l.starts_with("error["))
        .map(str::to_string)
        .collect();
    out.sort();
    out
}

/// What one path ended with: its exit code and its findings.
#[derive(Debug, PartialEq)]
struct Outcome {
    code: Option<i32>,
    findings: Vec<String>,
}

/// The three paths on the bundle folder: the pipeline's run (verify stage), `verify DIR` and
/// `publish DIR --dry-run`, the last two with `flags` (the profile the pipeline's `verify:`
/// section names). Asserts they ended alike and returns their findings.
fn three_ways(w: &Work, flags: &[&str]) -> Vec<String> {
    three_ways_with(w, flags, &[])
}

/// `publish` of the bundle folder as release 0.1.0 into a `dir:` registry of the work folder.
fn publish_args() -> Vec<&'static str> {
    vec![
        "publish",
        FOLDER,
        "--registry",
        "dir:_out/published",
        "--namespace",
        "example",
        "--package",
        "widget-operator",
        "--release",
        "0.1.0",
    ]
}

/// [`three_ways`] with the variables `env` set for all three.
fn three_ways_with(w: &Work, flags: &[&str], env: &[(&str, &str)]) -> Vec<String> {
    let run = w.run(&["run", "pipelines/flat.yaml"], env);
    let mut args = vec!["verify", FOLDER];
    args.extend(flags);
    let verify = w.run(&args, env);
    let mut args = publish_args();
    args.push("--dry-run");
    args.extend(flags);
    let publish = w.run(&args, env);
    let outcome = |o: &std::process::Output, text: String| Outcome {
        code: o.status.code(),
        findings: findings(&text),
    };
    let verify_dir = outcome(&verify, stdout(&verify));
    let stage = outcome(&run, stderr(&run));
    let published = outcome(&publish, stderr(&publish));
    assert_eq!(
        stage,
        verify_dir,
        "the verify stage and verify DIR differ; run's log:\n{}",
        stderr(&run)
    );
    assert_eq!(
        published,
        verify_dir,
        "publish DIR and verify DIR differ; publish's log:\n{}",
        stderr(&publish)
    );
    if verify_dir.code != Some(0) {
        assert!(
            stderr(&run).contains("stage verify") && !stderr(&run).contains("==> push"),
            "{}",
            stderr(&run)
        );
        assert!(list_files(&w.path().join("_out/registry")).is_empty());
    }
    verify_dir.findings
}

const MODERN: &str = "  profile: modern";

fn assert_has(findings: &[String], prefix: &str, file: &str, text: &str) {
    assert!(
        findings
            .iter()
            .any(|f| f.starts_with(prefix) && f.contains(file) && f.contains(text)),
        "no {prefix} {file} … {text} in {findings:#?}"
    );
}

const PRIORITY_CLASS: &str = "apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: widget-critical
value: 1000000
globalDefault: true
";

#[test]
fn a_global_default_priority_class_stops_the_stage_verify_dir_and_publish_with_one_finding() {
    let w = bundle_with(
        &[("widget-critical.priorityclass.yaml", PRIORITY_CLASS)],
        MODERN,
    );
    let seen = three_ways(&w, &["--profile", "modern"]);
    assert_has(
        &seen,
        "error[object-priority-class]",
        "widget-critical.priorityclass.yaml",
        "globalDefault field cannot be set to true",
    );
}

#[test]
fn a_role_that_may_modify_the_privileged_scc_stops_all_three_paths_alike() {
    let role = "apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: widget-scc
rules:
  - apiGroups: [security.openshift.io]
    resources: [securitycontextconstraints]
    resourceNames: [privileged]
    verbs: [use, update]
";
    let w = bundle_with(&[("widget-scc.role.yaml", role)], MODERN);
    let seen = three_ways(&w, &["--profile", "modern"]);
    assert_has(
        &seen,
        "error[object-rbac]",
        "widget-scc.role.yaml",
        "RBAC includes permission to modify default securitycontextconstraints",
    );
}

/// `publish DIR` reads a flat folder one CSV at a time, keeping only each CSV's skeleton: the
/// skeleton keeps the service accounts, so the ServiceAccount check still sees the CSV's.
#[test]
fn a_service_account_the_csv_already_gets_stops_all_three_paths_alike() {
    let account = "apiVersion: v1
kind: ServiceAccount
metadata:
  name: widget-operator
";
    let w = bundle_with(&[("widget-operator.serviceaccount.yaml", account)], MODERN);
    let seen = three_ways(&w, &["--profile", "modern"]);
    assert_has(
        &seen,
        "error[service-account]",
        "widget-operator.serviceaccount.yaml",
        "widget-operator is also the CSV's service account",
    );
}

#[test]
fn a_policy_v1beta1_pod_disruption_budget_warns_on_all_three_paths_alike() {
    let pdb = "apiVersion: policy/v1beta1
kind: PodDisruptionBudget
metadata:
  name: widget
spec:
  maxUnavailable: 1
  selector:
    matchLabels:
      name: widget-operator
";
    let w = bundle_with(&[("widget.pdb.yaml", pdb)], MODERN);
    let seen = three_ways(&w, &["--profile", "modern"]);
    assert_has(
        &seen,
        "warning[deprecated-api]",
        "widget.pdb.yaml",
        "PodDisruptionBudget policy/v1beta1 is deprecated and removed in Kubernetes v1.25",
    );
    assert!(seen.iter().all(|f| f.starts_with("warning[")), "{seen:#?}");
}

/// Allowed objects without a defect pass every way, with no finding about them. A Role that may
/// only `use` the privileged SCC is allowed: operator-framework/api refuses only `*`, `update`,
/// `patch` and `delete` on a default SCC (operators that run privileged pods need `use`).
#[test]
fn clean_allowed_objects_pass_the_stage_verify_dir_and_publish() {
    let fixture = crate::support::root().join("fixtures/widget-operator/0.1.0");
    let read = |f: &str| std::fs::read_to_string(fixture.join(f)).unwrap();
    let (role, config) = (
        read("widget-operator.clusterrole.yaml"),
        read("widget-config.configmap.yaml"),
    );
    let objects = [
        ("widget-operator.clusterrole.yaml", role.as_str()),
        ("widget-config.configmap.yaml", config.as_str()),
        (
            "widget-privileged.role.yaml",
            "apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: widget-privileged
rules:
  - apiGroups: [security.openshift.io]
    resources: [securitycontextconstraints]
    resourceNames: [privileged]
    verbs: [use]
",
        ),
        (
            "widget.pdb.yaml",
            "apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: widget
spec:
  maxUnavailable: 1
  selector:
    matchLabels:
      name: widget-operator
",
        ),
        (
            "widget-high.priorityclass.yaml",
            "apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: widget-high
value: 1000
globalDefault: false
",
        ),
    ];
    let w = bundle_with(&objects, MODERN);
    let seen = three_ways(&w, &["--profile", "modern"]);
    for (file, _) in objects {
        assert!(seen.iter().all(|f| !f.contains(file)), "{file}: {seen:#?}");
    }
    let run = w.run(&["run", "pipelines/flat.yaml"], &[]);
    assert!(
        stderr(&run).contains("bundle valid under profile modern"),
        "{}",
        stderr(&run)
    );
}

/// `verify.profile` in the pipeline is `--profile` of `verify` and `publish`: the same folder
/// passes under `appregistry-2019` (operator-framework/api's object checks are not among its
/// tools) and fails under `modern`, every way.
#[test]
fn the_pipelines_verify_profile_is_the_flags_profile_on_every_path() {
    let object = [("widget-critical.priorityclass.yaml", PRIORITY_CLASS)];
    let w = bundle_with(&object, "  profile: appregistry-2019");
    let seen = three_ways(&w, &["--profile", "appregistry-2019"]);
    assert!(seen.iter().all(|f| f.starts_with("warning[")), "{seen:#?}");
    let w = bundle_with(&object, MODERN);
    let seen = three_ways(&w, &["--profile", "modern"]);
    assert_has(
        &seen,
        "error[object-priority-class]",
        "widget-critical.priorityclass.yaml",
        "globalDefault",
    );
}

/// `verify.operatorhub: true` in the pipeline is `--operatorhub`: a category outside
/// OperatorHub's list stops all three paths under either profile, and passes all three without.
#[test]
fn the_pipelines_operatorhub_is_the_operatorhub_flag_on_every_path() {
    for profile in ["appregistry-2019", "modern"] {
        for hub in [false, true] {
            let verify = format!("  profile: {profile}\n  operatorhub: {hub}");
            let w = bundle_with(&[], &verify);
            set_category(&w.path().join(FOLDER), "Widget Tools");
            let mut flags = vec!["--profile", profile];
            if hub {
                flags.push("--operatorhub");
            }
            let seen = three_ways(&w, &flags);
            let category = seen
                .iter()
                .any(|f| f.starts_with("error[") && f.contains("Widget Tools"));
            assert_eq!(category, hub, "{profile}, operatorhub {hub}: {seen:#?}");
        }
    }
}

/// A categories file is one list on every path: `verify.categories` in the pipeline is
/// `--categories` of `verify` and `publish`, and `$OPERATOR_BUNDLE_CATEGORIES` sets it for all
/// three; a category the file lists passes OperatorHub's rules everywhere, one it does not
/// list stops all three, and without a file the standard list applies.
#[test]
fn a_categories_file_is_one_list_for_the_stage_verify_dir_and_publish() {
    const HUB: &str = "  operatorhub: true";
    let with_file = |verify: &str| {
        let w = bundle_with(&[], verify);
        set_category(&w.path().join(FOLDER), "Widget Tools");
        std::fs::write(
            w.path().join("categories.json"),
            r#"{"categories": ["Widget Tools", "Storage"]}"#,
        )
        .unwrap();
        w
    };
    let refused = |seen: &[String]| {
        seen.iter()
            .any(|f| f.starts_with("error[") && f.contains("Widget Tools"))
    };
    // No file: the standard list, which lacks the category.
    let w = with_file(HUB);
    let seen = three_ways(&w, &["--operatorhub"]);
    assert!(refused(&seen), "{seen:#?}");
    // The pipeline's key and the flag.
    let w = with_file(&format!("{HUB}\n  categories: categories.json"));
    let seen = three_ways(&w, &["--operatorhub", "--categories", "categories.json"]);
    assert!(!refused(&seen), "{seen:#?}");
    // The variable, for all three.
    let w = with_file(HUB);
    let env = [("OPERATOR_BUNDLE_CATEGORIES", "categories.json")];
    let seen = three_ways_with(&w, &["--operatorhub"], &env);
    assert!(!refused(&seen), "{seen:#?}");
    // A file that lists other names refuses the category on every path.
    let w = with_file(HUB);
    std::fs::write(
        w.path().join("categories.json"),
        r#"{"categories": ["Storage"]}"#,
    )
    .unwrap();
    let seen = three_ways_with(&w, &["--operatorhub"], &env);
    assert!(refused(&seen), "{seen:#?}");
    assert!(
        seen.iter()
            .any(|f| f.contains("the --categories file's list")),
        "{seen:#?}"
    );
}

/// An unreadable categories file stops the pipeline before anything runs, naming the key.
#[test]
fn an_unreadable_categories_file_is_a_problem_naming_the_key() {
    let w = bundle_with(&[], "  categories: missing.json");
    let run = w.run(&["run", "pipelines/flat.yaml"], &[]);
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    let err = stderr(&run);
    assert!(
        err.contains("pipelines/flat.yaml:")
            && err.contains("categories")
            && err.contains("missing.json"),
        "{err}"
    );
    assert!(list_files(&w.path().join("_out/registry")).is_empty());
}

/// The bundle-size rule (modern profile) finds the same on every path, `publish DIR` reading
/// the folder one CSV at a time included: a CSV padded with `kib` KiB of incompressible text
/// gives a bundle over 85 % of the 1 MiB gzipped limit (a warning) or over it (an error).
#[test]
fn the_bundle_size_rule_is_one_finding_on_every_path() {
    for (kib, level) in [
        (1500, "error[bundle-size]"),
        (1260, "warning[bundle-size-near]"),
    ] {
        let w = bundle_with(&[], MODERN);
        pad_csv(&w.path().join(FOLDER), kib * 1024);
        let seen = three_ways(&w, &["--profile", "modern"]);
        assert!(
            seen.iter()
                .any(|f| f.starts_with(level) && f.contains("bytes gzipped")),
            "{kib} KiB: {seen:#?}"
        );
    }
}

/// Adds an annotation of `bytes` pseudo-random characters (gzip cannot shrink them much) to
/// the folder's CSV.
fn pad_csv(folder: &Path, bytes: usize) {
    let csv = folder.join("widget-operator.v0.1.0.clusterserviceversion.yaml");
    let text = std::fs::read_to_string(&csv).unwrap();
    let from = "categories: Developer Tools\n";
    assert!(text.contains(from));
    const CHARS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let pad: String = (0..bytes)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            CHARS[(x % 64) as usize] as char
        })
        .collect();
    let padded = format!("{from}    example.com/padding: \"{pad}\"\n");
    std::fs::write(&csv, text.replace(from, &padded)).unwrap();
}

/// A hidden folder in a bundle folder (a `.github` with its workflow YAML) is nobody's bundle
/// content: render skips it, `publish DIR` and `verify DIR` read nothing in it, and all three
/// pass; `verify DIR` alone also warns that the folder holds a hidden entry (it checks the
/// folder's layout, which the other two do not publish).
#[test]
fn a_hidden_folder_in_the_bundle_folder_is_read_by_no_path() {
    let w = bundle_with(&[], "  profile: appregistry-2019");
    let workflows = w.path().join(FOLDER).join(".github/workflows");
    std::fs::create_dir_all(&workflows).unwrap();
    std::fs::write(
        workflows.join("ci.yaml"),
        "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps: [{run: make}]\n",
    )
    .unwrap();
    let run = w.run(&["run", "pipelines/flat.yaml"], &[]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let verify = w.run(&["verify", FOLDER], &[]);
    assert_eq!(verify.status.code(), Some(0), "{}", stdout(&verify));
    assert_eq!(
        findings(&stdout(&verify)),
        [
            "warning[file-layout] .github/: is hidden inside a bundle folder; operator-framework/api refuses hidden files there (olm-release's own check) (fix: move the file or folder out of the bundle folder)"
        ]
    );
    let publish = w.run(&publish_args(), &[]);
    assert_eq!(publish.status.code(), Some(0), "{}", stderr(&publish));
    for out in [stderr(&run), stdout(&verify), stderr(&publish)] {
        assert!(!out.contains("ci.yaml"), "{out}");
    }
}

fn set_category(folder: &Path, category: &str) {
    let csv = folder.join("widget-operator.v0.1.0.clusterserviceversion.yaml");
    let text = std::fs::read_to_string(&csv).unwrap();
    let from = "categories: Developer Tools";
    assert!(text.contains(from));
    std::fs::write(&csv, text.replace(from, &format!("categories: {category}"))).unwrap();
}

/// `publish --history` checks each version folder's objects with its release, and reports what
/// `verify TREE` reports for that folder.
#[test]
fn publish_history_checks_each_version_folders_objects_as_verify_does() {
    let w = work();
    let tree = w.path().join("fixtures/widget-operator");
    std::fs::write(
        tree.join("0.2.0/widget-critical.priorityclass.yaml"),
        PRIORITY_CLASS,
    )
    .unwrap();
    let verify = w.run(
        &["verify", "fixtures/widget-operator", "--profile", "modern"],
        &[],
    );
    let history = w.run(
        &[
            "publish",
            "--history",
            "fixtures/widget-operator",
            "--registry",
            "dir:_out/history",
            "--namespace",
            "example",
            "--package",
            "widget-operator",
            "--profile",
            "modern",
            "--dry-run",
        ],
        &[],
    );
    assert_eq!(verify.status.code(), Some(1), "{}", stdout(&verify));
    assert_eq!(history.status.code(), Some(1), "{}", stderr(&history));
    let object = |text: &str| -> Vec<String> {
        findings(text)
            .into_iter()
            .filter(|f| f.contains("priorityclass"))
            .map(|f| f.replace("0.2.0/", ""))
            .collect()
    };
    let by_verify = object(&stdout(&verify));
    assert_eq!(by_verify.len(), 1, "{by_verify:#?}");
    assert_eq!(object(&stderr(&history)), by_verify);
    // Release 0.1.0 went through; 0.2.0 stopped at its verify step.
    let log = stderr(&history);
    assert_eq!(
        log.matches("bundle valid under profile modern").count(),
        1,
        "{log}"
    );
}
