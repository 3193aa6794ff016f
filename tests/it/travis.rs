//! The CI configurations: ours runs the test suite on every build and, on tags, builds the
//! release archive and releases olm-release with itself; the examples for an operator project
//! (Travis and GitHub Actions) install the prebuilt binary with the pinned installer, fetch the
//! tags next-version needs, dry-run every build without secrets, publish alpha builds from
//! master and release tags.

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
    // On tags: the archive, then olm-release runs its own release pipeline with that binary.
    let deploys = ours["deploy"].as_sequence().unwrap();
    let tag = deploys
        .iter()
        .find(|d| d["on"]["tags"] == Value::Bool(true))
        .expect("a tag deploy");
    let script = tag["script"].as_str().unwrap();
    let dist = script.find("scripts/dist.sh \"$VERSION\"").expect(script);
    let run = script
        .find("olm-release run pipelines/olm-release.yaml")
        .expect(script);
    assert!(dist < run, "{script}");
    assert!(
        script.contains("_dist/olm-release-$VERSION-x86_64-unknown-linux-gnu"),
        "{script}"
    );
}

/// The installer lines of an example: the pinned installer URL and its sha256 check.
fn assert_pinned_installer(text: &str) {
    let sha = olm_release_base::digest::sha256_hex(
        &std::fs::read(root().join("scripts/install.sh")).unwrap(),
    );
    let raw = env!("CARGO_PKG_REPOSITORY")
        .replace("https://github.com/", "https://raw.githubusercontent.com/");
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        text.contains(&format!("{raw}/v{version}/scripts/install.sh")),
        "the installer of this version"
    );
    assert!(
        text.contains(&format!("echo \"{sha}  ")),
        "the installer's sha256 is the one of scripts/install.sh ({sha})"
    );
    assert!(!text.contains("cargo install"), "no build from source");
}

#[test]
fn the_github_actions_example_mirrors_the_travis_one() {
    let path = "fixtures/github/kubevirt.olm-release.yml";
    assert_pinned_installer(&std::fs::read_to_string(root().join(path)).unwrap());
    let gha = load(path);
    let steps = gha["jobs"]["release"]["steps"].as_sequence().unwrap();
    assert_eq!(steps[0]["with"]["fetch-depth"], Value::from(0));
    let run = |name: &str| {
        steps
            .iter()
            .find(|s| s["name"] == name)
            .unwrap_or_else(|| panic!("step {name}"))
    };
    assert_eq!(
        run("Dry-run of the release")["run"],
        "olm-release run pipelines/kubevirt-release.yaml --dry-run"
    );
    assert!(run("Dry-run of the release").get("env").is_none());
    assert!(
        run("Release")["run"]
            .as_str()
            .unwrap()
            .ends_with("olm-release run pipelines/kubevirt-release.yaml")
    );
    assert!(
        run("Version")["run"]
            .as_str()
            .unwrap()
            .contains("next-version --build")
    );
}

#[test]
fn the_operator_example_dry_runs_prs_and_publishes_tags_and_master() {
    let example = load("fixtures/travis/kubevirt.travis.yml");
    assert_eq!(
        example["git"]["depth"],
        Value::Bool(false),
        "next-version needs the history and the tags"
    );
    assert_pinned_installer(
        &std::fs::read_to_string(root().join("fixtures/travis/kubevirt.travis.yml")).unwrap(),
    );
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

#[test]
fn the_readme_installer_line_is_pinned() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let section = readme
        .split("### Installing in CI")
        .nth(1)
        .and_then(|s| s.split("\n### ").next())
        .expect("README has an \"Installing in CI\" section");
    // The book's page shows the same lines.
    let page = std::fs::read_to_string(root().join("docs/src/ci/install.md")).unwrap();
    for section in [section, page.as_str()] {
        assert_pinned_installer(section);
        assert!(
            section.contains(&format!("--version {}", env!("CARGO_PKG_VERSION"))),
            "{section}"
        );
    }
}
