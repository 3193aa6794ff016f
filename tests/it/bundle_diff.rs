//! `olm-release diff A B`: two bundle folders compared as data, objects matched by kind and
//! name whatever their files are called; `--ignore-release-fields` leaves out what every
//! release changes. Exit 0 equal, 1 different, 2 unreadable. The bundles are
//! `fixtures/memcached-operator/bundle` and edited copies of it.

use std::path::Path;

use crate::support::{Work, assert_code, copy_dir, root, stdout};

/// A work folder with the fixture's bundle as `a/` and a copy as `b/`.
fn two() -> Work {
    let w = Work::sample();
    let bundle = root().join("fixtures/memcached-operator/bundle");
    copy_dir(&bundle, &w.path().join("a"));
    copy_dir(&bundle, &w.path().join("b"));
    w
}

fn edit(dir: &Path, file: &str, from: &str, to: &str) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{file} has no {from:?}");
    std::fs::write(path, text.replace(from, to)).unwrap();
}

const CSV: &str = "manifests/memcached-operator.clusterserviceversion.yaml";

/// The next release of the same bundle: other file names, version, createdAt, replaces and
/// images.
fn next_release(b: &Path) {
    edit(
        b,
        CSV,
        "version: 0.0.1",
        "version: 0.0.2\n  replaces: memcached-operator.v0.0.1",
    );
    edit(
        b,
        CSV,
        "name: memcached-operator.v0.0.1",
        "name: memcached-operator.v0.0.2",
    );
    edit(
        b,
        CSV,
        "    capabilities: Basic Install",
        "    capabilities: Basic Install\n    createdAt: '2026-12-06T00:00:00Z'",
    );
    edit(
        b,
        CSV,
        "memcached-operator:v0.0.1",
        "memcached-operator:v0.0.2",
    );
    let m = b.join("manifests");
    std::fs::rename(
        m.join("memcached-operator.clusterserviceversion.yaml"),
        m.join("memcached-operator.v0.0.2.clusterserviceversion.yaml"),
    )
    .unwrap();
    std::fs::rename(
        m.join("cache.example.com_memcacheds.yaml"),
        m.join("memcacheds.crd.yaml"),
    )
    .unwrap();
}

#[test]
fn a_bundle_equals_itself_and_its_next_release_but_for_the_release_fields() {
    let w = two();
    let o = w.run(&["diff", "a", "b"], &[]);
    assert_code(&o, 0);
    assert!(stdout(&o).starts_with("equal"), "{}", stdout(&o));

    next_release(&w.path().join("b"));
    let o = w.run(&["diff", "a", "b"], &[]);
    assert_code(&o, 1);
    let out = stdout(&o);
    for line in [
        "ClusterServiceVersion memcached-operator.v0.0.2 (A: memcached-operator.v0.0.1): 6 fields",
        "  ~ spec.version: \"0.0.1\" → \"0.0.2\"",
        "  + spec.replaces: \"memcached-operator.v0.0.1\"",
        "  + metadata.annotations.createdAt: \"2026-12-06T00:00:00Z\"",
    ] {
        assert!(out.contains(line), "no {line:?} in\n{out}");
    }
    assert!(
        !out.contains("CustomResourceDefinition"),
        "renamed file, same CRD:\n{out}"
    );

    let o = w.run(&["diff", "--ignore-release-fields", "a", "b"], &[]);
    assert_code(&o, 0);
}

#[test]
fn a_real_difference_is_named_by_object_and_path_whatever_is_ignored() {
    let w = two();
    next_release(&w.path().join("b"));
    edit(
        &w.path().join("b"),
        "manifests/memcached-operator-metrics-reader_rbac.authorization.k8s.io_v1beta1_clusterrole.yaml",
        "  - get",
        "  - get\n  - list",
    );
    edit(
        &w.path().join("b"),
        "metadata/annotations.yaml",
        "v4.12-v4.16",
        "v4.14-v4.16",
    );
    std::fs::remove_dir_all(w.path().join("b/tests")).unwrap();
    let o = w.run(
        &[
            "--format",
            "json",
            "diff",
            "--ignore-release-fields",
            "a",
            "b",
        ],
        &[],
    );
    assert_code(&o, 1);
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(json["equal"], false);
    let o = w.run(&["diff", "--ignore-release-fields", "a", "b"], &[]);
    assert_code(&o, 1);
    let out = stdout(&o);
    assert_eq!(
        out,
        "ClusterRole memcached-operator-metrics-reader (rbac.authorization.k8s.io/v1beta1): 2 fields\n  \
         + rules[+]: {\"nonResourceURLs\":[\"/metrics\"],\"verbs\":[\"get\",\"list\"]}\n  \
         - rules[-]: {\"nonResourceURLs\":[\"/metrics\"],\"verbs\":[\"get\"]}\n\
         file metadata/annotations.yaml: 1 field\n  \
         ~ annotations[\"com.redhat.openshift.versions\"]: \"v4.12-v4.16\" → \"v4.14-v4.16\"\n\
         file tests/scorecard/config.yaml: only in A\n",
        "{out}"
    );
}

#[test]
fn an_annotation_written_unquoted_equals_its_string() {
    // operator-registry reads metadata/annotations.yaml as a string map: Red Hat's bundles
    // write `com.redhat.delivery.operator.bundle: true` unquoted, a release writes 'true'.
    let w = two();
    let file = "metadata/annotations.yaml";
    edit(
        &w.path().join("a"),
        file,
        "annotations:\n",
        "annotations:\n  com.redhat.delivery.operator.bundle: true\n  com.example.level: 3\n",
    );
    edit(
        &w.path().join("b"),
        file,
        "annotations:\n",
        "annotations:\n  com.redhat.delivery.operator.bundle: 'true'\n  com.example.level: \"3\"\n",
    );
    let o = w.run(&["diff", "a", "b"], &[]);
    assert_code(&o, 0);
    // A different value is still a difference.
    edit(&w.path().join("b"), file, "'true'", "'false'");
    let o = w.run(&["diff", "a", "b"], &[]);
    assert_code(&o, 1);
    assert!(
        stdout(&o).contains(
            "~ annotations[\"com.redhat.delivery.operator.bundle\"]: \"true\" → \"false\""
        ),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_folder_that_is_no_bundle_is_an_input_error() {
    let w = two();
    std::fs::remove_file(w.path().join("b/metadata/annotations.yaml")).unwrap();
    let o = w.run(&["diff", "a", "b"], &[]);
    assert_code(&o, 2);
}
