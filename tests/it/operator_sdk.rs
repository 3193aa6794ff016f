//! "Releasing an operator-sdk style package" (docs/src/guide/operator-sdk.md): `fixtures/widget-operator`, a package
//! tree kept as operator-sdk users kept theirs (the package file at the top, one folder per
//! version with a complete CSV, its CRD, a ClusterRole and a ConfigMap; channels `stable` and
//! `fast`), released version by version with `pipelines/widget.yaml`: against the real appr
//! server, checked by the real operator-courier, and the channel decisions against `dir:`.

use std::path::Path;

use crate::appr::unique;
use crate::support::{Work, assert_code, copy_dir, peer, root, stderr, stdout};

const VERSIONS: [&str; 3] = ["0.1.0", "0.2.0", "0.3.0"];

/// A work folder with the widget fixture and the pipelines.
pub(crate) fn work() -> Work {
    let w = Work::sample();
    copy_dir(
        &root().join("fixtures/widget-operator"),
        &w.path().join("fixtures/widget-operator"),
    );
    w
}

fn release(w: &Work, pipeline: &str, version: &str, env: &[(&str, &str)]) -> String {
    let var = format!("VERSION={version}");
    let o = w.run(&["run", pipeline, "--var", &var], env);
    assert_code(&o, 0);
    stderr(&o)
}

fn graph(w: &Work, args: &[&str]) -> String {
    let mut all = vec!["graph"];
    all.extend_from_slice(args);
    let o = w.run(&all, &[]);
    assert_code(&o, 0);
    stdout(&o)
}

/// The pipeline with other channels (`channels: [stable, fast]` replaced).
fn with_channels(w: &Work, name: &str, channels: &str) -> String {
    let text = std::fs::read_to_string(w.path().join("pipelines/widget.yaml")).unwrap();
    let from = "channels: [stable, fast]";
    assert!(text.contains(from), "pipelines/widget.yaml changed shape");
    let file = format!("pipelines/{name}.yaml");
    std::fs::write(w.path().join(&file), text.replace(from, channels)).unwrap();
    file
}

#[test]
fn the_widget_history_released_version_by_version_against_appr_has_the_trees_graph() {
    let Some(url) = peer("APPR_URL") else { return };
    let w = work();
    let ns = unique("widget");
    let env = [
        ("REGISTRY_URL", url.as_str()),
        ("REGISTRY_NAMESPACE", ns.as_str()),
    ];
    for v in VERSIONS {
        let log = release(&w, "pipelines/widget.yaml", v, &env);
        // The ClusterRole and ConfigMap are accepted, and the log says where they went.
        assert!(
            log.contains("ClusterRole widget-viewer") && log.contains("ConfigMap widget-config"),
            "{log}"
        );
    }
    let tree = graph(&w, &["fixtures/widget-operator"]);
    let served = graph(
        &w,
        &[
            "--registry",
            &url,
            "--namespace",
            &ns,
            "--package",
            "widget-operator",
        ],
    );
    assert_eq!(served, tree);
    assert!(tree.contains("channel fast"), "{tree}");
    // The CSV's own createdAt survives (no SOURCE_DATE_EPOCH, no git checkout).
    let csv = std::fs::read_to_string(
        w.path()
            .join("_out/widget-release/bundle/widget-operator.v0.3.0.clusterserviceversion.yaml"),
    )
    .unwrap();
    assert!(csv.contains("createdAt: '2021-01-11T09:00:00Z'"), "{csv}");
    // Idempotent: the same version again publishes nothing new.
    let again = release(&w, "pipelines/widget.yaml", "0.3.0", &env);
    assert!(again.contains("already the head"), "{again}");
}

#[test]
fn operator_courier_accepts_the_widget_tree_and_the_released_bundle() {
    let w = work();
    let tree = root().join("fixtures/widget-operator");
    let Some((code, _)) = crate::verify::courier_verify(&tree, false) else {
        return;
    };
    assert_eq!(code, 0, "courier refused {}", tree.display());
    for v in VERSIONS {
        release(&w, "pipelines/widget.yaml", v, &[]);
    }
    let bundle = w.path().join("_out/widget-release/bundle");
    let (code, _) = crate::verify::courier_verify(&bundle, false).unwrap();
    assert_eq!(code, 0, "courier refused {}", bundle.display());
}

#[test]
fn a_csv_joining_channels_with_different_heads_replaces_one_and_skips_the_other() {
    let w = work();
    let stable = with_channels(&w, "stable", "channels: [stable]");
    let fast = with_channels(&w, "fast", "channels: [fast]");
    release(&w, &stable, "0.1.0", &[]);
    release(&w, &fast, "0.2.0", &[]);
    // The CSV names its own replaces (0.2.0, fast's head): kept, and stable's head is skipped.
    let log = release(&w, "pipelines/widget.yaml", "0.3.0", &[]);
    assert!(
        log.contains("skips widget-operator.v0.1.0, head of channel stable: a CSV has one replaces (the head of fast)"),
        "{log}"
    );
    let bundle = w.path().join("_out/widget-release/bundle");
    let csv =
        std::fs::read_to_string(bundle.join("widget-operator.v0.3.0.clusterserviceversion.yaml"))
            .unwrap();
    assert!(csv.contains("replaces: widget-operator.v0.2.0"), "{csv}");
    assert!(csv.contains("skips:\n  - widget-operator.v0.1.0"), "{csv}");
    // Each channel reaches its old head from the new one; the validator agrees.
    let drawn = graph(&w, &[bundle.to_str().unwrap()]);
    assert!(drawn.contains("skips widget-operator.v0.1.0"), "{drawn}");
    let o = w.run(&["verify", bundle.to_str().unwrap()], &[]);
    assert_code(&o, 0);
}

#[test]
fn a_first_release_clears_a_replaces_that_names_nothing_published() {
    let w = work();
    let log = release(&w, "pipelines/widget.yaml", "0.2.0", &[]);
    assert!(
        log.contains("cleared spec.replaces 'widget-operator.v0.1.0'"),
        "{log}"
    );
    let csv = std::fs::read_to_string(
        w.path()
            .join("_out/widget-release/bundle/widget-operator.v0.2.0.clusterserviceversion.yaml"),
    )
    .unwrap();
    assert!(!csv.contains("replaces:"), "{csv}");
}

#[test]
fn a_kind_olm_does_not_install_from_a_bundle_is_refused_with_the_allowed_kinds() {
    let w = work();
    let dir = w.path().join("fixtures/widget-operator/0.1.0");
    std::fs::write(
        dir.join("extra.yaml"),
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\n",
    )
    .unwrap();
    let o = w.run(
        &["run", "pipelines/widget.yaml", "--var", "VERSION=0.1.0"],
        &[],
    );
    assert_code(&o, 2);
    let err = stderr(&o);
    assert!(
        err.contains("Deployment does not belong in a bundle")
            && err.contains("ConfigMap, ServiceAccount"),
        "{err}"
    );
}

#[test]
fn the_pipelines_verify_profile_reaches_the_verify_step() {
    let w = work();
    let file = w.path().join("pipelines/widget.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        text.replace(
            "profile: appregistry-2019",
            "profile: modern\n  operatorhub: true",
        ),
    )
    .unwrap();
    let o = w.run(
        &[
            "plan",
            "pipelines/widget.yaml",
            "--var",
            "VERSION=0.1.0",
            "--format",
            "json",
        ],
        &[],
    );
    assert_code(&o, 0);
    let plan: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let verify = plan["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["step"] == "verify")
        .unwrap();
    assert_eq!(verify["profile"], "modern");
    assert_eq!(verify["operatorhub"], true);
}

#[test]
fn out_defaults_to_the_current_folder_never_inside_source() {
    let w = work();
    let cwd = tempfile::tempdir().unwrap();
    let src = w.path().to_str().unwrap();
    let pipeline = w.path().join("pipelines/widget.yaml");
    let o = crate::support::olm_release(
        cwd.path(),
        &[
            "render",
            pipeline.to_str().unwrap(),
            "--source",
            src,
            "--var",
            "VERSION=0.1.0",
        ],
        &[],
    );
    assert_code(&o, 0);
    assert!(cwd.path().join("_out/widget-release").is_dir());
    assert!(!Path::new(src).join("_out").exists());
}

/// Release → digest of the widget package, as the server reports it.
fn published(url: &str, ns: &str) -> Vec<(String, String)> {
    let client = olm_release_appregistry::appr::ApprClient::new(url, None).unwrap();
    crate::appr::rt()
        .block_on(client.releases(ns, "widget-operator"))
        .unwrap()
        .into_iter()
        .map(|r| (r.release, r.digest))
        .collect()
}

/// `publish --history TREE` with `--registry URL`, namespace `ns`, and `more` arguments.
fn publish_history(w: &Work, url: &str, ns: &str, more: &[&str]) -> std::process::Output {
    let mut args = vec![
        "publish",
        "--history",
        "fixtures/widget-operator",
        "--registry",
        url,
        "--namespace",
        ns,
        "--package",
        "widget-operator",
    ];
    args.extend_from_slice(more);
    w.run(&args, &[])
}

#[test]
fn publish_history_against_appr_serves_the_trees_graph_and_a_second_run_changes_nothing() {
    let Some(url) = peer("APPR_URL") else { return };
    let w = work();
    let ns = unique("widget-history");
    let o = publish_history(&w, &url, &ns, &[]);
    assert_code(&o, 0);
    let first = published(&url, &ns);
    let mut releases: Vec<&str> = first.iter().map(|(r, _)| r.as_str()).collect();
    releases.sort();
    assert_eq!(releases, VERSIONS);
    let tree = graph(&w, &["fixtures/widget-operator"]);
    let served = graph(
        &w,
        &[
            "--registry",
            &url,
            "--namespace",
            &ns,
            "--package",
            "widget-operator",
        ],
    );
    assert_eq!(served, tree);
    let again = publish_history(&w, &url, &ns, &[]);
    assert_code(&again, 0);
    let log = stderr(&again);
    assert_eq!(log.matches("unchanged  bundle release").count(), 3, "{log}");
    assert_eq!(published(&url, &ns), first);
}

#[test]
fn publish_history_dry_run_packs_and_verifies_every_version_and_writes_nothing() {
    let w = work();
    let o = publish_history(&w, "dir:_out/history", "example", &["--dry-run"]);
    assert_code(&o, 0);
    let log = stderr(&o);
    for v in VERSIONS {
        assert!(
            log.contains(&format!("fixtures/widget-operator at {v}")),
            "{log}"
        );
    }
    assert_eq!(
        log.matches("bundle valid under profile").count(),
        3,
        "{log}"
    );
    let registry = w.path().join("_out/history");
    let written = std::fs::read_dir(&registry).map_or(0, |d| d.count());
    assert_eq!(written, 0, "the dry-run wrote into {}", registry.display());
}

/// The `level[rule] file: …` findings of a command's output, sorted.
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

/// `folder` in the work folder: the widget's 0.1.0 CSV and CRD with a package file whose head
/// is 0.1.0, flat (a bundle folder as `publish DIR` and `verify DIR` take it); its path.
pub fn flat_widget(w: &Work, folder: &str) -> std::path::PathBuf {
    let tree = w.path().join("fixtures/widget-operator");
    let flat = w.path().join(folder);
    std::fs::create_dir(&flat).unwrap();
    for f in [
        "widget-operator.v0.1.0.clusterserviceversion.yaml",
        "widgets.example.com.crd.yaml",
    ] {
        std::fs::copy(tree.join("0.1.0").join(f), flat.join(f)).unwrap();
    }
    let package = std::fs::read_to_string(tree.join("widget-operator.package.yaml")).unwrap();
    std::fs::write(
        flat.join("widget-operator.package.yaml"),
        package.replace("v0.3.0", "v0.1.0"),
    )
    .unwrap();
    flat
}

#[test]
fn verify_dir_and_publish_dir_report_the_same_findings_under_the_same_profile() {
    let w = work();
    flat_widget(&w, "flat");
    let profile = ["--profile", "modern", "--operatorhub"];
    let mut args = vec!["verify", "flat"];
    args.extend(profile);
    let verify = w.run(&args, &[]);
    assert_code(&verify, 0);
    let mut args = vec![
        "publish",
        "flat",
        "--registry",
        "dir:_out/same",
        "--namespace",
        "e",
        "--package",
        "widget-operator",
        "--release",
        "0.1.0",
        "--dry-run",
    ];
    args.extend(profile);
    let publish = w.run(&args, &[]);
    assert_code(&publish, 0);
    let seen = findings(&stdout(&verify));
    // The v1beta1 CRD is a deprecated API under the modern profile: both must say so.
    assert!(
        seen.iter()
            .any(|f| f.starts_with("warning[deprecated-api]")),
        "{seen:?}"
    );
    assert_eq!(findings(&stderr(&publish)), seen);
}
