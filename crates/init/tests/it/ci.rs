//! The CI configurations `init` writes: the installer pinned as the request says (version and
//! sha256), the whole history fetched for next-version, a dry-run on every build without
//! secrets, alpha builds from the default branch and releases from tags.

use std::path::Path;

use olm_release_init::{CiService, init};
use serde_yaml_ng::Value;

use crate::support::{pin, request, sample_repo};

fn load(path: &Path) -> Value {
    serde_yaml_ng::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn ci_configurations_install_the_pinned_release_fetch_tags_and_deploy() {
    let repo = sample_repo();
    let r = repo.path();
    init(&request(r, None)).unwrap();
    let (version, url, sha) = (pin().version, pin().url, pin().sha256);

    let travis = load(&r.join(".travis.yml"));
    assert_eq!(
        travis["git"]["depth"],
        Value::Bool(false),
        "next-version needs the tags"
    );
    let lines = |v: &Value| -> Vec<String> {
        v.as_sequence()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap().to_string())
            .collect()
    };
    let install = lines(&travis["before_install"]).join("\n");
    assert!(install.contains(&url), "{install}");
    assert!(
        install.contains(&format!(
            "echo \"{sha}  /tmp/olm-release-install.sh\" | sha256sum -c -"
        )),
        "{install}"
    );
    assert!(
        install.contains("--version \"$OLM_RELEASE_VERSION\""),
        "{install}"
    );
    assert!(lines(&travis["env"]["global"]).contains(&format!("OLM_RELEASE_VERSION={version}")));
    assert!(!install.contains("cargo install"));
    let script = lines(&travis["script"]).join("\n");
    assert!(
        script.contains("olm-release run pipelines/release.yaml --dry-run"),
        "{script}"
    );
    assert!(
        script.contains("next-version --build \"$TRAVIS_BUILD_NUMBER\""),
        "{script}"
    );
    let deploys = travis["deploy"].as_sequence().unwrap();
    assert!(deploys.iter().any(|d| d["on"]["tags"] == Value::Bool(true)
        && d["script"] == "olm-release run pipelines/release.yaml"));
    assert!(deploys.iter().any(|d| d["on"]["branch"] == "master"
        && d["script"] == "olm-release run pipelines/release.yaml --variant alpha"));

    let gha = load(&r.join(".github/workflows/olm-release.yml"));
    let steps = gha["jobs"]["olm-release"]["steps"].as_sequence().unwrap();
    assert_eq!(steps[0]["with"]["fetch-depth"], Value::from(0));
    let runs: Vec<&str> = steps.iter().filter_map(|s| s["run"].as_str()).collect();
    assert!(
        runs[0].contains(&url) && runs[0].contains(&sha),
        "{}",
        runs[0]
    );
    assert!(
        runs.iter()
            .any(|r| r.contains("next-version --build \"$GITHUB_RUN_NUMBER\""))
    );
    let step = |name: &str| steps.iter().find(|s| s["name"] == name).unwrap();
    assert_eq!(
        step("Dry-run of the release")["run"],
        "olm-release run pipelines/release.yaml --dry-run"
    );
    assert!(
        step("Dry-run of the release").get("env").is_none(),
        "no secrets for the dry-run"
    );
    assert!(
        step("Release")["if"]
            .as_str()
            .unwrap()
            .contains("refs/tags/v")
    );
    let env_names = |name: &str| -> Vec<String> {
        step(name)["env"]
            .as_mapping()
            .unwrap()
            .keys()
            .map(|k| k.as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        env_names("Release"),
        ["OCI_USERNAME", "OCI_PASSWORD", "GITHUB_TOKEN"],
        "the bundle image's and the release's secrets, no app registry's"
    );
    assert_eq!(
        step("Release")["env"]["GITHUB_TOKEN"],
        "${{ secrets.GITHUB_TOKEN }}"
    );
    assert_eq!(
        env_names("Alpha build"),
        ["OCI_USERNAME", "OCI_PASSWORD", "GITHUB_TOKEN"],
        "the alpha build pushes the catalog branch too"
    );
    assert_eq!(
        step("Alpha build")["run"],
        "olm-release run pipelines/release.yaml --variant alpha"
    );
    assert!(
        step("Alpha build")["if"]
            .as_str()
            .unwrap()
            .contains("refs/heads/master")
    );
    assert_eq!(
        gha["permissions"]["contents"], "write",
        "the release stage writes releases"
    );

    // With the app registry: its secrets too.
    let other = sample_repo();
    let o = other.path();
    let mut asked = request(o, None);
    asked.app_registry = true;
    asked.ci = Some(vec![CiService::Github]);
    init(&asked).unwrap();
    let gha = load(&o.join(".github/workflows/olm-release.yml"));
    let steps = gha["jobs"]["olm-release"]["steps"].as_sequence().unwrap();
    let release = steps.iter().find(|s| s["name"] == "Release").unwrap();
    for secret in [
        "QUAY_USERNAME",
        "QUAY_PASSWORD",
        "QUAY_TOKEN",
        "OCI_USERNAME",
        "GITHUB_TOKEN",
    ] {
        assert!(
            release["env"].get(secret).is_some(),
            "{secret}: {release:?}"
        );
    }
    assert!(!o.join(".travis.yml").exists(), "--ci github");
}
