//! The false alarms and misses the upstream suites exposed, one test each, on the upstream test
//! inputs (through `support::shared()`) where they hold a case and on the corpus otherwise: what
//! olm-release used to reject and the upstream tools accept now passes (at most with a
//! warning), and what operator-framework/api checks and olm-release missed is now reported.

use std::path::{Path, PathBuf};

use olm_release_olm::Level;
use olm_release_olm::validate::{Profile, Report};

use super::{corpus_dir, ours, show};
use crate::support;

fn suites() -> Option<PathBuf> {
    support::shared().map(|s| s.join("peer-suites"))
}

fn courier_input(s: &Path, p: &str) -> PathBuf {
    s.join("courier/tests/test_files").join(p)
}

/// No error of any of `rules`; each listed warning present.
#[track_caller]
fn no_errors_of(r: &Report, rules: &[&str]) {
    let bad: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.level == Level::Error && rules.contains(&f.rule.as_str()))
        .collect();
    assert!(bad.is_empty(), "{}:\n{}", r.source, show(r));
}

#[track_caller]
fn has(r: &Report, rule: &str, level: Level) {
    assert!(
        r.findings
            .iter()
            .any(|f| f.rule == rule && f.level == level),
        "no {level:?} {rule} in {}:\n{}",
        r.source,
        show(r)
    );
}

#[test]
fn manifests_are_found_by_kind_never_by_file_name() {
    let Some(s) = suites() else { return };
    // csv.yaml, crd.yml, packages.yaml; a package.yaml beside version folders.
    let flat = ours(
        &courier_input(&s, "bundles/api/valid_flat_bundle"),
        Profile::Appregistry2019,
        false,
    );
    assert!(flat.is_valid(), "{}", show(&flat));
    let tree = s.join("api/pkg/validation/testdata/valid_package");
    let r = ours(&tree, Profile::Modern, false);
    no_errors_of(&r, &["package", "bundle-csv", "file-layout", "file-stray"]);
    // A CSV named like etcdoperator.v0.9.0.yaml, packages.yaml: the corpus.
    let any = ours(
        &corpus_dir().join("valid/csv-any-file-name"),
        Profile::Appregistry2019,
        false,
    );
    assert!(any.is_valid(), "{}", show(&any));
}

#[test]
fn appregistry_2019_enforces_what_courier_and_the_registry_enforced_no_more() {
    let Some(s) = suites() else { return };
    // spec.versions instead of spec.version, an owned version that is any served version.
    let r = ours(
        &courier_input(&s, "bundles/verification/crdversions.valid.bundle.yaml"),
        Profile::Appregistry2019,
        false,
    );
    assert!(r.is_valid(), "{}", show(&r));
    // alm-examples only has to be JSON there; the kind check is operator-framework/api's.
    let kinds = corpus_dir().join("broken/example-kind-not-owned");
    assert!(ours(&kinds, Profile::Appregistry2019, false).is_valid());
    has(
        &ours(&kinds, Profile::Modern, false),
        "alm-examples-kind",
        Level::Error,
    );
    // What only a 2019 cluster's CSV schema imposed is a warning, said to be olm-release's.
    for case in ["verb-bind", "owned-crd-no-description", "maturity-unknown"] {
        let r = ours(
            &corpus_dir().join("broken").join(case),
            Profile::Appregistry2019,
            false,
        );
        assert!(r.is_valid(), "{case}:\n{}", show(&r));
        let w = r
            .findings
            .iter()
            .find(|f| f.level == Level::Warning && f.mirrors == "olm-release");
        assert!(w.is_some(), "{case}:\n{}", show(&r));
    }
}

#[test]
fn owned_crds_are_matched_by_group_version_and_kind() {
    let Some(s) = suites() else { return };
    // Two CRDs, one with several versions; the CSV owns by group/version/kind.
    let dir = s.join("api/pkg/validation/internal/testdata/valid_bundle_2");
    let tmp = tempfile::tempdir().unwrap();
    support::copy_dir(&dir, tmp.path());
    std::fs::write(
        tmp.path().join("test.package.yaml"),
        "packageName: test-operator\nchannels:\n- name: stable\n  currentCSV: test-operator.v0.0.1\n",
    )
    .unwrap();
    let r = ours(tmp.path(), Profile::Modern, false);
    no_errors_of(
        &r,
        &[
            "crd-owned",
            "crd-unowned",
            "crd-duplicate",
            "crd-owned-drift",
        ],
    );
}

#[test]
fn a_package_tree_is_checked_folder_by_folder() {
    let Some(s) = suites() else { return };
    // 0.6's CSV owns only the cluster CRD its folder carries; 0.6.1 is on no channel.
    let r = ours(
        &courier_input(&s, "bundles/api/etcd_valid_nested_bundle"),
        Profile::Appregistry2019,
        false,
    );
    assert!(r.is_valid(), "{}", show(&r));
    has(&r, "graph-stranded", Level::Warning);
    let random = ours(
        &courier_input(
            &s,
            "bundles/api/etcd_valid_nested_bundle_with_random_folder",
        ),
        Profile::Appregistry2019,
        false,
    );
    assert!(random.is_valid(), "{}", show(&random));
}

#[test]
fn v1_crds_are_not_asked_for_spec_version() {
    let Some(s) = suites() else { return };
    let dir = s.join("api/pkg/validation/internal/testdata/valid_bundle_v1");
    for profile in [Profile::Appregistry2019, Profile::Modern] {
        let r = ours(&dir, profile, false);
        assert!(
            !r.findings
                .iter()
                .any(|f| f.field.contains("spec.version") && f.file.contains("memcacheds")),
            "{}",
            show(&r)
        );
        no_errors_of(&r, &["crd-fields", "crd-versions", "crd-owned"]);
    }
}

#[test]
fn skip_ranges_and_skips_are_read_as_olm_reads_them() {
    for case in [
        "skip-range-spaced",
        "skip-range-own-version",
        "replaced-and-skipped",
        "skips",
    ] {
        let dir = corpus_dir().join("valid").join(case);
        for profile in [Profile::Appregistry2019, Profile::Modern] {
            let r = ours(&dir, profile, false);
            assert!(r.is_valid(), "{case} {profile:?}:\n{}", show(&r));
            assert!(
                !r.findings
                    .iter()
                    .any(|f| f.rule.starts_with("skip") || f.rule.starts_with("graph")),
                "{case}:\n{}",
                show(&r)
            );
        }
    }
}

#[test]
fn a_repeated_yaml_key_is_a_warning_not_a_lost_manifest() {
    let r = ours(
        &corpus_dir().join("valid/duplicate-key"),
        Profile::Appregistry2019,
        false,
    );
    assert!(r.is_valid(), "{}", show(&r));
    let w = r
        .findings
        .iter()
        .find(|f| f.rule == "yaml-duplicate-key")
        .unwrap_or_else(|| panic!("{}", show(&r)));
    assert_eq!(w.level, Level::Warning);
    assert_eq!(w.field, "metadata.annotations.description");
}

#[test]
fn operator_framework_api_checks_are_reported_under_modern() {
    let Some(s) = suites() else { return };
    let t = s.join("api/pkg/validation/internal/testdata");
    // Each shared input with the rule olm-release reports it under (composed into a bundle by
    // the parity test; here the CSV alone, which the rule needs no more than).
    let cases: &[(&str, &str, Level)] = &[
        (
            "invalid_min_kube_version.csv.yaml",
            "min-kube-version",
            Level::Error,
        ),
        (
            "invalid_min_kube_version.csv.yaml",
            "field-type",
            Level::Error,
        ),
        ("dataTypeMismatch.csv.yaml", "field-type", Level::Error),
        (
            "badAnnotationNames.csv.yaml",
            "annotation-case",
            Level::Error,
        ),
        (
            "incorrect.csv.with.conversion.webhook.yaml",
            "webhook-install-modes",
            Level::Error,
        ),
        (
            "correct.csv.olm.properties.annotation.yaml",
            "olm-properties",
            Level::Warning,
        ),
        (
            "correct.csv.empty.example.yaml",
            "alm-examples-empty",
            Level::Warning,
        ),
    ];
    for (file, rule, level) in cases {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::copy(t.join(file), tmp.path().join(file)).unwrap();
        let r = ours(tmp.path(), Profile::Modern, false);
        has(&r, rule, *level);
    }
    // The empty example is courier's error under 2019: courier parses it as JSON.
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(
        t.join("correct.csv.empty.example.yaml"),
        tmp.path().join("csv.yaml"),
    )
    .unwrap();
    has(
        &ours(tmp.path(), Profile::Appregistry2019, false),
        "alm-examples-empty",
        Level::Error,
    );
}

#[test]
fn a_package_name_quay_refuses_is_an_error_before_push() {
    let tmp = tempfile::tempdir().unwrap();
    support::copy_dir(&corpus_dir().join("valid/single"), tmp.path());
    let pkg = tmp.path().join("widget-operator.package.yaml");
    let text = std::fs::read_to_string(&pkg).unwrap();
    std::fs::write(
        &pkg,
        text.replace(
            "packageName: widget-operator",
            "packageName: Widget-Operator",
        ),
    )
    .unwrap();
    let r = ours(tmp.path(), Profile::Appregistry2019, false);
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == "package-name")
        .unwrap_or_else(|| panic!("{}", show(&r)));
    assert_eq!(f.level, Level::Error);
    assert_eq!(f.mirrors, "olm-release");
    assert!(f.message.contains("Widget-Operator"), "{f}");
}

#[test]
fn a_field_of_the_wrong_type_is_an_error_where_a_loader_decodes_it() {
    let unquoted = |dir: &Path, csv: &str| {
        let p = dir.join(csv);
        let text = std::fs::read_to_string(&p).unwrap();
        let text = text.replacen(
            "  maturity: alpha\n",
            "  maturity: alpha\n  minKubeVersion: 1.21\n",
            1,
        );
        std::fs::write(&p, text).unwrap();
    };
    // A flat bundle: the registry's ConfigMap loader decodes every CSV into the typed API.
    let flat = tempfile::tempdir().unwrap();
    support::copy_dir(&corpus_dir().join("valid/single"), flat.path());
    unquoted(
        flat.path(),
        "widget-operator.v1.0.0.clusterserviceversion.yaml",
    );
    let r = ours(flat.path(), Profile::Appregistry2019, false);
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == "field-type")
        .unwrap_or_else(|| panic!("{}", show(&r)));
    assert_eq!((f.level, f.mirrors.as_str()), (Level::Error, "registry"));
    assert_eq!(f.field, "spec.minKubeVersion");
    assert!(f.message.contains("a number (1.21)"), "{f}");
    // A package tree: the directory loader keeps the spec undecoded; the cluster refuses it.
    let tree = tempfile::tempdir().unwrap();
    support::copy_dir(&corpus_dir().join("trees/widget-tree"), tree.path());
    unquoted(tree.path(), "1.1.0/csv.yaml");
    let r = ours(tree.path(), Profile::Appregistry2019, false);
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == "field-type")
        .unwrap_or_else(|| panic!("{}", show(&r)));
    assert_eq!(
        (f.level, f.mirrors.as_str()),
        (Level::Warning, "olm-release")
    );
    // operator-framework/api refuses it either way.
    has(
        &ours(tree.path(), Profile::Modern, false),
        "field-type",
        Level::Error,
    );
}
