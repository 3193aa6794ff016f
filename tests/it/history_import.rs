//! `publish --history TREE` imports a package-manifest tree without false alarms: each release
//! is checked as `verify TREE` checks its version folder (the cumulative release is not checked
//! again against the newer CRDs), warns where `verify` warns (a repeated YAML key), leaves out
//! a version folder no channel reaches with a note, warns about a channel whose head is in no
//! version folder (hive-operator's package file), and its summary names the channel and head
//! of the last release (etcd's first release is on another channel than its last).

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support::{assert_code, copy_dir, olm_release, root, stderr, stdout};

/// The widget-operator tree, copied into `dir/tree` for a test to change.
fn widget_tree(dir: &Path) -> PathBuf {
    let tree = dir.join("tree");
    copy_dir(&root().join("fixtures/widget-operator"), &tree);
    tree
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} has no {from:?}", path.display());
    std::fs::write(path, text.replace(from, to)).unwrap();
}

fn csv(tree: &Path, version: &str) -> PathBuf {
    tree.join(version).join(format!(
        "widget-operator.v{version}.clusterserviceversion.yaml"
    ))
}

/// `publish --history` into a fresh `dir:` registry, with the JSON summary.
fn import(dir: &Path, tree: &Path) -> (Output, serde_json::Value) {
    let _ = std::fs::remove_dir_all(dir.join("registry"));
    publish_history(dir, tree)
}

/// `publish --history` into the `dir:` registry `dir/registry` as it is, with the JSON summary.
fn publish_history(dir: &Path, tree: &Path) -> (Output, serde_json::Value) {
    let registry = dir.join("registry");
    let o = olm_release(
        dir,
        &[
            "--format",
            "json",
            "publish",
            "--history",
            &tree.display().to_string(),
            "--registry",
            &format!("dir:{}", registry.display()),
            "--namespace",
            "community",
            "--package",
            "widget-operator",
        ],
        &[],
    );
    let summary = serde_json::from_str(&stdout(&o)).unwrap_or(serde_json::Value::Null);
    (o, summary)
}

fn verify_tree(dir: &Path, tree: &Path) -> Output {
    olm_release(dir, &["verify", &tree.display().to_string()], &[])
}

/// The releases published, by name.
fn releases(summary: &serde_json::Value) -> Vec<String> {
    summary["published"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            let what = w["what"].as_str().unwrap();
            what.split_whitespace().nth(2).unwrap().to_string()
        })
        .collect()
}

#[test]
fn a_release_is_checked_as_verify_tree_checks_its_folder_not_against_newer_crds() {
    let tmp = tempfile::tempdir().unwrap();
    let tree = widget_tree(tmp.path());
    // 0.3.0 moves the CRD to v1 only: the older CSVs own v1alpha1, which the newest CRD (the
    // one the cumulative release carries) no longer has. Each folder is consistent alone.
    let crd = tree.join("0.3.0/widgets.example.com.crd.yaml");
    edit(&crd, "  version: v1alpha1\n", "  version: v1\n");
    edit(&crd, "    - name: v1alpha1\n", "    - name: v1\n");
    edit(
        &csv(&tree, "0.3.0"),
        "        version: v1alpha1\n",
        "        version: v1\n",
    );
    assert_code(&verify_tree(tmp.path(), &tree), 0);
    let (o, summary) = import(tmp.path(), &tree);
    assert_code(&o, 0);
    assert_eq!(
        releases(&summary),
        ["0.1.0", "0.2.0", "0.3.0"],
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_repeated_yaml_key_is_a_warning_as_in_verify() {
    let tmp = tempfile::tempdir().unwrap();
    let tree = widget_tree(tmp.path());
    edit(
        &csv(&tree, "0.2.0"),
        "  replaces: widget-operator.v0.1.0\n",
        "  replaces: widget-operator.v0.1.0\n  replaces: widget-operator.v0.1.0\n",
    );
    let v = verify_tree(tmp.path(), &tree);
    assert_code(&v, 0);
    assert!(
        stdout(&v).contains("warning[yaml-duplicate-key] 0.2.0/"),
        "{}",
        stdout(&v)
    );
    let (o, summary) = import(tmp.path(), &tree);
    assert_code(&o, 0);
    assert_eq!(releases(&summary), ["0.1.0", "0.2.0", "0.3.0"]);
    let warned: Vec<&str> = summary["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["level"] == "warning")
        .filter_map(|f| f["rule"].as_str())
        .collect();
    assert!(warned.contains(&"yaml-duplicate-key"), "{summary}");
}

#[test]
fn a_version_on_no_channel_is_left_out_and_a_headless_channel_warned_about() {
    let tmp = tempfile::tempdir().unwrap();
    let tree = widget_tree(tmp.path());
    // 0.2.5 replaces 0.2.0, but 0.3.0 replaces 0.2.0 too: no channel reaches 0.2.5.
    copy_dir(&tree.join("0.2.0"), &tree.join("0.2.5"));
    std::fs::rename(
        tree.join("0.2.5/widget-operator.v0.2.0.clusterserviceversion.yaml"),
        csv(&tree, "0.2.5"),
    )
    .unwrap();
    edit(
        &csv(&tree, "0.2.5"),
        "name: widget-operator.v0.2.0",
        "name: widget-operator.v0.2.5",
    );
    edit(&csv(&tree, "0.2.5"), "version: 0.2.0", "version: 0.2.5");
    edit(
        &csv(&tree, "0.2.5"),
        "replaces: widget-operator.v0.1.0",
        "replaces: widget-operator.v0.2.0",
    );
    // A channel whose head no version folder holds (hive-operator's ocm-1.0).
    edit(
        &tree.join("widget-operator.package.yaml"),
        "defaultChannel: stable",
        "  - name: ocm-1.0\n    currentCSV: widget-operator.v0.0.3-7-gba4793f\ndefaultChannel: stable",
    );
    let (o, summary) = import(tmp.path(), &tree);
    assert_code(&o, 0);
    assert_eq!(
        releases(&summary),
        ["0.1.0", "0.2.0", "0.3.0"],
        "{}",
        stderr(&o)
    );
    let err = stderr(&o);
    assert!(
        err.contains("0.2.5 is left out: no channel of the package file reaches its CSV widget-operator.v0.2.5"),
        "{err}"
    );
    // The note is kept in the JSON summary too, for the job that imported the history.
    assert!(
        summary["notes"].as_array().is_some_and(|notes| notes.iter().any(|n| n
            .as_str()
            .is_some_and(|n| n.ends_with(
                "0.2.5 is left out: no channel of the package file reaches its CSV widget-operator.v0.2.5"
            )))),
        "{summary}"
    );
    assert!(
        err.contains("warning: channel ocm-1.0: its head (currentCSV) widget-operator.v0.0.3-7-gba4793f is in no version folder; the channel is left out of every release"),
        "{err}"
    );
    // The published package file has no such channel.
    let pulled = tmp.path().join("pulled");
    let o = olm_release(
        tmp.path(),
        &[
            "registry",
            "pull",
            "--registry",
            &format!("dir:{}", tmp.path().join("registry").display()),
            "community/widget-operator",
            "--out",
            &pulled.display().to_string(),
        ],
        &[],
    );
    assert_code(&o, 0);
    let package = crate::support::list_files(&pulled)
        .into_iter()
        .map(|f| std::fs::read_to_string(pulled.join(f)).unwrap_or_default())
        .find(|text| text.contains("packageName"))
        .expect("the pulled release has a package file");
    assert!(package.contains("name: stable"), "{package}");
    assert!(!package.contains("ocm-1.0"), "{package}");
}

#[test]
fn the_summary_names_the_last_releases_channel_and_head() {
    let tmp = tempfile::tempdir().unwrap();
    let tree = widget_tree(tmp.path());
    // etcd's shape: the first version is alone on channel alpha; the default channel stable
    // starts at 0.2.0.
    edit(
        &csv(&tree, "0.2.0"),
        "  replaces: widget-operator.v0.1.0\n",
        "",
    );
    edit(
        &tree.join("widget-operator.package.yaml"),
        "  - name: fast\n    currentCSV: widget-operator.v0.3.0\n",
        "  - name: alpha\n    currentCSV: widget-operator.v0.1.0\n",
    );
    assert_code(&verify_tree(tmp.path(), &tree), 0);
    let (o, summary) = import(tmp.path(), &tree);
    assert_code(&o, 0);
    assert_eq!(summary["channel"], "stable", "{summary}");
    assert_eq!(
        summary["channel_head"], "widget-operator.v0.3.0",
        "{summary}"
    );
    let human = olm_release(
        tmp.path(),
        &[
            "publish",
            "--history",
            &tree.display().to_string(),
            "--registry",
            &format!("dir:{}", tmp.path().join("registry").display()),
            "--namespace",
            "community",
            "--package",
            "widget-operator",
        ],
        &[],
    );
    assert_code(&human, 0);
    assert!(
        stderr(&human).contains("  channel    stable → widget-operator.v0.3.0"),
        "{}",
        stderr(&human)
    );
}

#[test]
fn versions_only_skipped_by_the_channel_head_are_its_head_until_the_chain_is_published() {
    let tmp = tempfile::tempdir().unwrap();
    let tree = widget_tree(tmp.path());
    // assisted-service-operator's shape: 0.2.0 replaces nothing and skips 0.1.0, so 0.1.0 is on
    // the channels only through the skip.
    edit(
        &csv(&tree, "0.2.0"),
        "  replaces: widget-operator.v0.1.0\n",
        "  skips: [widget-operator.v0.1.0]\n",
    );
    let (o, summary) = import(tmp.path(), &tree);
    assert_code(&o, 0);
    assert_eq!(releases(&summary), ["0.1.0", "0.2.0", "0.3.0"]);
    let err = stderr(&o);
    assert!(
        err.contains("release 0.1.0, channel stable head widget-operator.v0.1.0,"),
        "{err}"
    );
    assert!(
        err.contains("release 0.2.0, channel stable head widget-operator.v0.2.0,"),
        "{err}"
    );
}

/// The community layout (fixtures/community/widget-operator: ci.yaml, one registry+v1 bundle
/// folder per version, channels in the annotations, no package file) is a history too: every
/// version published, the CSV that names no `replaces` chained to the previous version of its
/// channel, and a rerun publishes nothing.
#[test]
fn the_community_layout_is_a_history_without_a_package_file() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("widget-operator");
    copy_dir(&root().join("fixtures/community/widget-operator"), &tree);
    let (o, summary) = import(dir.path(), &tree);
    assert_code(&o, 0);
    let published = summary["published"].as_array().unwrap();
    assert_eq!(published.len(), 4, "{}", stderr(&o));
    assert_eq!(
        summary["channel_head"], "widget-operator.v0.10.0",
        "{summary}"
    );
    let (o, again) = publish_history(dir.path(), &tree);
    assert_code(&o, 0);
    assert_eq!(again["published"].as_array().map_or(0, Vec::len), 0);
}
