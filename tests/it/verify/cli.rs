//! `olm-release verify PATH` as a user runs it: folders, flattened bundle.yaml, .tar.gz,
//! profiles, `--operatorhub`, `--format json`, exit codes.

use olm_release::olm::archive::{self, Layout};

use super::corpus_dir;
use crate::support::{assert_code, olm_release, stderr, stdout};

fn verify(args: &[&str]) -> std::process::Output {
    let mut all = vec!["verify"];
    all.extend_from_slice(args);
    olm_release(&corpus_dir(), &all, &[])
}

#[test]
fn a_valid_folder_passes_and_a_broken_one_fails_with_file_object_field_and_fix() {
    assert_code(&verify(&["valid/chain"]), 0);
    let o = verify(&["--format", "json", "broken/replaces-missing"]);
    assert_code(&o, 1);
    let report: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(report["profile"], "appregistry-2019");
    let f = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "replaces-target")
        .unwrap_or_else(|| panic!("{report:#}"));
    assert_eq!(f["level"], "error");
    assert_eq!(
        f["file"],
        "widget-operator.v1.1.0.clusterserviceversion.yaml"
    );
    assert_eq!(f["object"], "widget-operator.v1.1.0");
    assert_eq!(f["field"], "spec.replaces");
    assert_eq!(f["mirrors"], "registry");
    assert!(
        f["message"]
            .as_str()
            .unwrap()
            .contains("widget-operator.v1.0.0")
    );
    assert!(!f["fix"].as_str().unwrap().is_empty());
    // Human output names the rule on stdout and the verdict on stderr.
    let o = verify(&["broken/replaces-missing"]);
    assert_code(&o, 1);
    assert!(
        stdout(&o).contains("error[replaces-target]"),
        "{}",
        stdout(&o)
    );
    assert!(stderr(&o).contains("1 error(s)"), "{}", stderr(&o));
}

#[test]
fn profiles_and_operatorhub_change_levels() {
    assert_code(&verify(&["broken/crd-unowned"]), 0);
    assert_code(&verify(&["--profile", "modern", "broken/crd-unowned"]), 1);
    assert_code(&verify(&["broken/category-unknown"]), 0);
    assert_code(&verify(&["--operatorhub", "broken/category-unknown"]), 1);
    // Only operator-framework/api refuses an example of a kind the CSV does not own.
    assert_code(&verify(&["broken/example-kind-not-owned"]), 0);
    assert_code(
        &verify(&["--profile", "modern", "broken/example-kind-not-owned"]),
        1,
    );
    // Only the 2019 CSV schema knew the verb list: a warning, never an error.
    assert_code(&verify(&["broken/verb-bind"]), 0);
}

#[test]
fn flattened_bundle_yaml_and_tarballs_are_verified_too() {
    let tmp = tempfile::tempdir().unwrap();
    for (case, code) in [("valid/chain", 0), ("broken/replaces-cycle", 1)] {
        let bundle = archive::read_path(&corpus_dir().join(case)).unwrap();
        let flat = tmp.path().join("bundle.yaml");
        std::fs::write(&flat, archive::flatten(&bundle).unwrap()).unwrap();
        assert_code(&verify(&[flat.to_str().unwrap()]), code);
        let packed =
            archive::pack(&archive::bundle_files(&bundle, Layout::Flat).unwrap(), 0).unwrap();
        let gz = tmp.path().join("bundle.tar.gz");
        std::fs::write(&gz, &packed.gz).unwrap();
        let o = verify(&["--format", "json", gz.to_str().unwrap()]);
        assert_code(&o, code);
        let report: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(report["digest"], packed.digest.as_str());
        assert_eq!(report["gz_digest"], packed.gz_digest.as_str());
    }
}

#[test]
fn a_flattened_bundle_with_list_valued_data_is_a_finding() {
    let tmp = tempfile::tempdir().unwrap();
    let flat = tmp.path().join("bundle.yaml");
    std::fs::write(
        &flat,
        "data:\n  clusterServiceVersions: []\n  packages: []\n",
    )
    .unwrap();
    let o = verify(&[flat.to_str().unwrap()]);
    assert_code(&o, 1);
    assert!(
        stdout(&o).contains("error[bundle-format]"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn an_unreadable_path_is_an_input_error() {
    assert_code(&verify(&["no/such/bundle"]), 2);
}
