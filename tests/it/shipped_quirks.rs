//! What real projects ship that OLM's own tools read leniently, held as they read it. Two
//! files of a bundle holding one object (as OpenShift's windows-machine-config-operator commits
//! a ServiceAccount twice, once with a generator's `creationTimestamp: null`): equal copies are
//! a warning and the bundle image and `diff` see one object; copies that differ are an error,
//! since the cluster would get whichever OLM applies last. An empty `olm.skipRange` (as
//! openshift/lvm-operator's kustomize writes it) is none.

use crate::support::{Work, assert_code, copy_dir, root, stdout};

const SERVICE: &str =
    "manifests/memcached-operator-controller-manager-metrics-service_v1_service.yaml";

/// The fixture's bundle as `a/`, with a second file holding its metrics Service (the copy's
/// `targetPort` replaced by `port` when given), and the fixture as it is as `b/`.
fn with_copy(port: Option<&str>) -> Work {
    let w = Work::sample();
    let bundle = root().join("fixtures/memcached-operator/bundle");
    copy_dir(&bundle, &w.path().join("a"));
    copy_dir(&bundle, &w.path().join("b"));
    let text = std::fs::read_to_string(bundle.join(SERVICE)).unwrap();
    // Without the generator's null timestamp: still the same data.
    let mut copy = text.replace("  creationTimestamp: null\n", "");
    assert_ne!(copy, text);
    if let Some(p) = port {
        copy = copy.replace("targetPort: https", &format!("targetPort: {p}"));
    }
    std::fs::write(w.path().join("a/manifests/metrics-service.yaml"), copy).unwrap();
    w
}

#[test]
fn an_equal_copy_is_a_warning_and_one_object() {
    let w = with_copy(None);
    let out = w.run(&["verify", "a"], &[]);
    assert_code(&out, 0);
    let text = stdout(&out);
    assert!(
        text.contains("warning[object-copies] manifests/metrics-service.yaml: memcached-operator-controller-manager-metrics-service metadata.name: holds Service memcached-operator-controller-manager-metrics-service as manifests/memcached-operator-controller-manager-metrics-service_v1_service.yaml does, equal as data: the bundle image carries it once"),
        "{text}"
    );
    let diff = w.run(&["diff", "a", "b"], &[]);
    assert_code(&diff, 0);
}

#[test]
fn a_copy_with_other_data_is_an_error() {
    let w = with_copy(Some("8443"));
    let out = w.run(&["verify", "a"], &[]);
    assert_code(&out, 1);
    let text = stdout(&out);
    assert!(
        text.contains("error[object-copies-differ] manifests/metrics-service.yaml:")
            && text.contains("with other data: the cluster would get whichever OLM applies last"),
        "{text}"
    );
}

#[test]
fn an_empty_skip_range_is_none_as_operator_registry_reads_it() {
    // operator-sdk projects write `olm.skipRange: ""` from kustomize (openshift/lvm-operator);
    // operator-registry checks a skipRange only when it is not empty.
    let w = with_copy(None);
    let csv = w
        .path()
        .join("b/manifests/memcached-operator.clusterserviceversion.yaml");
    let text = std::fs::read_to_string(&csv).unwrap();
    let with = |range: &str| {
        text.replacen(
            "  annotations:\n",
            &format!("  annotations:\n    olm.skipRange: {range}\n"),
            1,
        )
    };
    std::fs::write(&csv, with("\"\"")).unwrap();
    let out = w.run(&["verify", "b"], &[]);
    assert_code(&out, 0);
    assert!(!stdout(&out).contains("skip-range"), "{}", stdout(&out));
    std::fs::write(&csv, with("not-a-range")).unwrap();
    let out = w.run(&["verify", "b"], &[]);
    assert_code(&out, 1);
    assert!(
        stdout(&out).contains("error[skip-range]"),
        "{}",
        stdout(&out)
    );
}
