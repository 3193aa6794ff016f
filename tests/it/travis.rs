//! The Travis configurations: ours runs the test suite; the example for an operator project
//! dry-runs every build without secrets, publishes alpha builds from master and releases tags.

use serde_yaml_ng::Value;

use crate::support::root;

fn load(path: &str) -> Value {
    serde_yaml_ng::from_str(&std::fs::read_to_string(root().join(path)).unwrap()).unwrap()
}

fn lines(v: &Value) -> Vec<String> {
    match v {
        Value::Sequence(items) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        Value::String(s) => vec![s.clone()],
        _ => vec![],
    }
}

#[test]
fn our_travis_build_runs_the_test_suite() {
    let ours = load(".travis.yml");
    assert!(lines(&ours["script"]).iter().any(|l| l.contains(".ci/run")));
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    assert!(
        ci.contains("scripts/test.sh"),
        ".ci/run calls README's test command"
    );
}

#[test]
fn the_operator_example_dry_runs_prs_and_publishes_tags_and_master() {
    let example = load("fixtures/travis/kubevirt.travis.yml");
    let script = lines(&example["script"]).join("\n");
    assert!(
        script.contains("olm-release run pipelines/kubevirt-release.yaml --dry-run"),
        "{script}"
    );
    assert!(
        script.contains("next-version --build \"$TRAVIS_BUILD_NUMBER\""),
        "{script}"
    );
    for secret in ["QUAY_PASSWORD", "QUAY_TOKEN", "GITHUB_TOKEN"] {
        assert!(
            !script.contains(secret),
            "the every-build dry-run needs no {secret}"
        );
    }
    let deploys = example["deploy"].as_sequence().unwrap();
    let tag = deploys
        .iter()
        .find(|d| d["on"]["tags"] == Value::Bool(true))
        .expect("a tag deploy");
    assert!(
        tag["script"]
            .as_str()
            .unwrap()
            .contains("olm-release run pipelines/kubevirt-release.yaml")
    );
    let master = deploys
        .iter()
        .find(|d| d["on"]["branch"].as_str() == Some("master"))
        .expect("a master deploy");
    let m = master["script"].as_str().unwrap();
    assert!(
        m.contains("pipelines/kubevirt-alpha.yaml") && m.contains("next-version"),
        "{m}"
    );
    // Both pipelines it names exist here.
    for p in [
        "pipelines/kubevirt-release.yaml",
        "pipelines/kubevirt-alpha.yaml",
    ] {
        assert!(root().join(p).is_file(), "{p}");
    }
}
