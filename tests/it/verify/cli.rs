//! `olm-release verify PATH` as a user runs it: folders, flattened bundle.yaml, .tar.gz,
//! profiles, `--operatorhub`, `--format json`, exit codes.

use olm_release_olm::archive::{self, Layout};

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
        "widget-operator.v1.2.0.clusterserviceversion.yaml"
    );
    assert_eq!(f["object"], "widget-operator.v1.2.0");
    assert_eq!(f["field"], "spec.replaces");
    assert_eq!(f["mirrors"], "registry");
    // The message names the missing CSV and what the gap cuts off; the fix, the likely target.
    let message = f["message"].as_str().unwrap();
    assert!(message.contains("widget-operator.v1.1.0"), "{message}");
    assert!(message.contains("(widget-operator.v1.0.0)"), "{message}");
    assert!(
        f["fix"]
            .as_str()
            .unwrap()
            .contains("widget-operator.v1.0.0"),
        "{f}"
    );
    // Human output names the rule on stdout and the verdict on stderr.
    let o = verify(&["broken/replaces-missing"]);
    assert_code(&o, 1);
    assert!(
        stdout(&o).contains("error[replaces-target]"),
        "{}",
        stdout(&o)
    );
    assert!(stderr(&o).contains("1 error, 1 warning "), "{}", stderr(&o));
}

#[test]
fn quiet_shows_errors_only() {
    // Warnings only: nothing on stdout with -q, the warnings still counted in the closing line.
    let o = verify(&["broken/crd-unowned"]);
    assert!(
        stdout(&o).contains("warning[crd-unowned]"),
        "{}",
        stdout(&o)
    );
    let o = verify(&["-q", "broken/crd-unowned"]);
    assert_code(&o, 0);
    assert_eq!(stdout(&o), "");
    assert!(stderr(&o).contains("valid, 1 warning ("), "{}", stderr(&o));
    // Errors are still shown, warnings are not.
    let o = verify(&["-q", "broken/replaces-missing"]);
    assert_code(&o, 1);
    assert!(
        stdout(&o).contains("error[replaces-target]"),
        "{}",
        stdout(&o)
    );
    assert!(!stdout(&o).contains("warning["), "{}", stdout(&o));
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
        let bundle = archive::read_path(&corpus_dir().join(case), &Default::default()).unwrap();
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

#[test]
fn list_rules_prints_the_catalogue_with_its_tools_and_levels() {
    let o = verify(&["--list-rules"]);
    assert_code(&o, 0);
    let text = stdout(&o);
    let line = text
        .lines()
        .find(|l| l.starts_with("certified "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        line.contains("courier E") && line.contains("registry E"),
        "{line}"
    );
    let verbs = text
        .lines()
        .find(|l| l.starts_with("permission-verbs "))
        .unwrap();
    assert!(verbs.contains("olm-release only"), "{verbs}");
    assert!(text.contains("package-name (E/W): Quay"), "{text}");
    assert!(text.contains("appregistry-2019: package-name"), "{text}");
    let o = olm_release(
        &corpus_dir(),
        &["--format", "json", "verify", "--list-rules"],
        &[],
    );
    assert_code(&o, 0);
    let rows: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let rows = rows.as_array().unwrap();
    let owned = rows.iter().find(|r| r["id"] == "crd-owned").unwrap();
    assert_eq!(owned["enforced_by"]["courier"], "error");
    assert_eq!(owned["enforced_by"]["api"], "error");
    assert_eq!(owned["levels"]["appregistry-2019"], "error");
    assert_eq!(owned["levels"]["modern"], "error");
    let hub = rows.iter().find(|r| r["id"] == "csv-categories").unwrap();
    assert!(hub["levels"].get("appregistry-2019").is_none(), "{hub}");
    assert_eq!(hub["levels"]["appregistry-2019+operatorhub"], "error");
}

#[test]
fn custom_categories_replace_the_catalogs_list() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("categories.json");
    std::fs::write(
        &file,
        r#"{"categories": ["Developer Tools", "Virtualization"]}"#,
    )
    .unwrap();
    let case = "broken/category-unknown";
    assert_code(&verify(&["--operatorhub", case]), 1);
    let f = file.to_str().unwrap();
    assert_code(&verify(&["--operatorhub", "--categories", f, case]), 0);
    // operator-framework/api's environment variable works too.
    let o = olm_release(
        &corpus_dir(),
        &["verify", "--operatorhub", case],
        &[("OPERATOR_BUNDLE_CATEGORIES", f)],
    );
    assert_code(&o, 0);
    // Not a categories file: an input error naming what was expected.
    std::fs::write(&file, "[\"Developer Tools\"]").unwrap();
    let o = verify(&["--operatorhub", "--categories", f, case]);
    assert_code(&o, 2);
    assert!(stderr(&o).contains("\"categories\""), "{}", stderr(&o));
}
