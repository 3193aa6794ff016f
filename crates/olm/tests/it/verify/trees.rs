//! Package-manifest trees (fixtures/verify/trees, listed in cases.yaml): a package file at the
//! top and one folder per version, with CSV and CRD files of any name, extra objects, two CSVs
//! in one folder, a registry+v1 bundle. Each version folder is checked as a bundle of its own
//! (an older folder's CSV owns a CRD version only its own CRD copy still defines, and that is
//! fine; a folder lacking its CRD is an error even though another folder has it), the folders
//! together only for the package and the upgrade graph. Valid trees pass under both profiles;
//! courier's verdict on each tree is what the manifest says (the COURIER peer).

use olm_release_olm::Level;
use olm_release_olm::validate::Profile;
use olm_release_testsupport as support;
use serde::Deserialize;

use super::{corpus_dir, courier_verify, ours, show};

#[derive(Debug, Deserialize)]
struct Cases {
    trees: Vec<Tree>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Tree {
    name: String,
    valid: bool,
    #[serde(default)]
    profile: Option<Profile>,
    courier: String,
    #[serde(default)]
    note: Option<String>,
    #[serde(default)]
    findings: Vec<Expected>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Expected {
    rule: String,
    file: String,
    level: String,
}

fn trees() -> Vec<Tree> {
    let text = std::fs::read_to_string(corpus_dir().join("cases.yaml")).unwrap();
    serde_yaml_ng::from_str::<Cases>(&text).unwrap().trees
}

#[test]
fn trees_are_checked_folder_by_folder_and_across_folders_only_for_the_graph() {
    let all = trees();
    assert!(all.len() >= 5);
    for t in &all {
        let dir = corpus_dir().join("trees").join(&t.name);
        let profiles = match t.profile {
            Some(p) => vec![p],
            None if t.valid => vec![Profile::Appregistry2019, Profile::Modern],
            None => vec![Profile::Appregistry2019],
        };
        for profile in profiles {
            let r = ours(&dir, profile, false);
            assert_eq!(
                r.is_valid(),
                t.valid,
                "{} ({profile:?}, {}):\n{}",
                t.name,
                t.note.as_deref().unwrap_or(""),
                show(&r)
            );
            for e in &t.findings {
                assert!(
                    r.findings.iter().any(|f| f.rule == e.rule
                        && f.file == e.file
                        && f.level.as_str() == e.level),
                    "{}: no {:?} {} in {}:\n{}",
                    t.name,
                    e.level,
                    e.rule,
                    e.file,
                    show(&r)
                );
            }
        }
    }
}

#[test]
fn a_registry_v1_bundle_needs_a_package_file_only_for_the_app_registry() {
    let dir = corpus_dir().join("trees/registry-v1-bundle");
    let y2019 = ours(&dir, Profile::Appregistry2019, false);
    let f = y2019
        .findings
        .iter()
        .find(|f| f.rule == "package")
        .unwrap_or_else(|| panic!("{}", show(&y2019)));
    assert_eq!(f.level, Level::Error);
    assert_eq!(f.mirrors, "courier, registry");
    assert!(f.message.contains("widget-operator"), "{f}");
    assert!(ours(&dir, Profile::Modern, false).is_valid());
}

#[test]
fn a_scorecard_configuration_beside_manifests_is_part_of_the_bundle() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("bundle");
    support::copy_dir(&corpus_dir().join("trees/registry-v1-bundle"), &dir);
    let config = "apiVersion: scorecard.operatorframework.io/v1alpha3\nkind: Configuration\nmetadata:\n  name: config\nstages: []\n";
    for place in ["tests/scorecard", "extra"] {
        std::fs::create_dir_all(dir.join(place)).unwrap();
        std::fs::write(dir.join(place).join("config.yaml"), config).unwrap();
    }
    let report = ours(&dir, Profile::Modern, false);
    let stray: Vec<&str> = report
        .findings
        .iter()
        .filter(|f| f.rule == "file-stray")
        .map(|f| f.file.as_str())
        .collect();
    // operator-sdk writes bundle/tests/scorecard/config.yaml; the same file elsewhere is stray.
    assert_eq!(stray, ["extra/config.yaml"], "{}", show(&report));
}

#[test]
fn courier_agrees_on_every_tree() {
    for t in trees() {
        let dir = corpus_dir().join("trees").join(&t.name);
        let Some((code, _)) = courier_verify(&dir, false) else {
            return;
        };
        let want = if t.courier == "accept" { 0 } else { 1 };
        assert_eq!(code == 0, want == 0, "{}: courier exit {code}", t.name);
    }
}
