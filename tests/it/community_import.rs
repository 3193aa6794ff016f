//! `import operators/PACKAGE`: the community layout (fixtures/community/widget-operator, written
//! in the shape of community-operators' package folders) to an oci: layout of bundle images and
//! a catalog folder, every version with its own edges; a rerun writes nothing; a dry-run writes
//! nothing and says what it would; a semver catalog template decides the channels; a broken
//! folder is refused naming every problem, nothing written.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support::{assert_code, copy_dir, olm_release, root, stderr, stdout};

fn package(dir: &Path) -> PathBuf {
    let to = dir.join("operators/widget-operator");
    copy_dir(&root().join("fixtures/community/widget-operator"), &to);
    to
}

fn import(dir: &Path, pkg: &Path, extra: &[&str]) -> (Output, serde_json::Value) {
    let mut args = vec![
        "--format",
        "json",
        "import",
        pkg.to_str().unwrap(),
        "--image-target",
        "oci:images",
        "--image",
        "quay.io/example/widget-operator-bundle",
        "--catalog",
        "dir:catalog",
    ];
    args.extend_from_slice(extra);
    let o = olm_release(dir, &args, &[("SOURCE_DATE_EPOCH", "0")]);
    let summary = serde_json::from_str(&stdout(&o)).unwrap_or(serde_json::Value::Null);
    (o, summary)
}

fn count(summary: &serde_json::Value, key: &str) -> usize {
    summary[key].as_array().map_or(0, Vec::len)
}

fn catalog(dir: &Path) -> serde_yaml_ng::Value {
    let text = std::fs::read_to_string(dir.join("catalog/widget-operator/catalog.yaml")).unwrap();
    let docs: Vec<serde_yaml_ng::Value> = serde_yaml_ng::Deserializer::from_str(&text)
        .map(|d| serde::Deserialize::deserialize(d).unwrap())
        .collect();
    serde_yaml_ng::Value::Sequence(docs)
}

fn channel<'a>(catalog: &'a serde_yaml_ng::Value, name: &str) -> &'a serde_yaml_ng::Value {
    catalog
        .as_sequence()
        .unwrap()
        .iter()
        .find(|d| d["schema"] == "olm.channel" && d["name"] == name)
        .unwrap_or_else(|| panic!("no channel {name}"))
}

fn entry<'a>(channel: &'a serde_yaml_ng::Value, name: &str) -> &'a serde_yaml_ng::Value {
    channel["entries"]
        .as_sequence()
        .unwrap()
        .iter()
        .find(|e| e["name"] == name)
        .unwrap_or_else(|| panic!("no entry {name}"))
}

#[test]
fn every_version_is_imported_with_its_own_edges_and_a_rerun_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = package(tmp.path());
    let (o, summary) = import(tmp.path(), &pkg, &[]);
    assert_code(&o, 0);
    // Four bundle images and one catalog write.
    assert_eq!(count(&summary, "published"), 5, "{}", stderr(&o));
    for tag in ["0.1.0", "0.2.0", "0.3.0", "0.10.0"] {
        assert!(!crate::support::layout_digest(&tmp.path().join("images"), tag).is_empty());
    }
    let c = catalog(tmp.path());
    let stable = channel(&c, "stable");
    let e3 = entry(stable, "widget-operator.v0.3.0");
    assert_eq!(e3["replaces"], "widget-operator.v0.2.0");
    assert_eq!(e3["skipRange"], ">=0.1.0 <0.3.0");
    let e10 = entry(stable, "widget-operator.v0.10.0");
    assert_eq!(e10["replaces"], "widget-operator.v0.3.0");
    assert_eq!(e10["skips"][0], "widget-operator.v0.2.0");
    assert_eq!(
        channel(&c, "alpha")["entries"].as_sequence().unwrap().len(),
        2
    );
    let text =
        std::fs::read_to_string(tmp.path().join("catalog/widget-operator/catalog.yaml")).unwrap();
    assert!(
        text.contains("olm.package.required"),
        "the dependencies file reaches the entry"
    );
    assert!(text.contains("defaultChannel: stable"));
    let (o, summary) = import(tmp.path(), &pkg, &[]);
    assert_code(&o, 0);
    assert_eq!(count(&summary, "published"), 0, "a rerun writes nothing");
    assert_eq!(count(&summary, "kept"), 5);
}

#[test]
fn a_dry_run_writes_nothing_and_shows_the_catalog() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = package(tmp.path());
    let (o, summary) = import(tmp.path(), &pkg, &["--dry-run"]);
    assert_code(&o, 0);
    assert!(!tmp.path().join("catalog").exists() && !tmp.path().join("images").exists());
    assert_eq!(count(&summary, "published"), 0);
    assert!(count(&summary, "skipped") >= 5, "{summary}");
    assert!(
        stderr(&o).contains("widget-operator.v0.10.0"),
        "the diff names the entries"
    );
}

#[test]
fn a_semver_template_decides_the_channels() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = package(tmp.path());
    std::fs::create_dir_all(pkg.join("catalog-templates")).unwrap();
    std::fs::write(
        pkg.join("catalog-templates/semver.yaml"),
        "Schema: olm.semver\nGenerateMajorChannels: true\nGenerateMinorChannels: false\nStable:\n  Bundles:\n  - Image: quay.io/community-operator-pipeline-prod/widget-operator:0.2.0\n  - Image: quay.io/community-operator-pipeline-prod/widget-operator:0.3.0\n  - Image: quay.io/community-operator-pipeline-prod/widget-operator:0.10.0\n",
    )
    .unwrap();
    let (o, _) = import(tmp.path(), &pkg, &[]);
    assert_code(&o, 0);
    let c = catalog(tmp.path());
    let names: Vec<&str> = c
        .as_sequence()
        .unwrap()
        .iter()
        .filter(|d| d["schema"] == "olm.channel")
        .filter_map(|d| d["name"].as_str())
        .collect();
    assert_eq!(names, ["stable-v0"]);
    assert!(stderr(&o).contains("widget-operator.v0.1.0 (1 of 4); left out of the catalog"));
    let (o, summary) = import(tmp.path(), &pkg, &[]);
    assert_code(&o, 0);
    assert_eq!(count(&summary, "published"), 0, "a rerun writes nothing");
}

#[test]
fn a_broken_folder_is_refused_naming_every_problem_and_nothing_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = package(tmp.path());
    std::fs::remove_file(pkg.join("0.1.0/metadata/annotations.yaml")).unwrap();
    let csv = pkg.join("0.2.0/manifests/widget-operator.clusterserviceversion.yaml");
    let text = std::fs::read_to_string(&csv).unwrap();
    std::fs::write(&csv, text.replace("version: 0.2.0\n", "version: two\n")).unwrap();
    let (o, _) = import(tmp.path(), &pkg, &[]);
    assert_code(&o, 2);
    let err = stderr(&o);
    assert!(
        err.contains("0.1.0/metadata/annotations.yaml: missing"),
        "{err}"
    );
    assert!(
        err.contains("spec.version: 'two' is not a SemVer version"),
        "{err}"
    );
    assert!(!tmp.path().join("catalog").exists() && !tmp.path().join("images").exists());
}

/// `import --catalog git:… --pull-request` proposes the whole package's catalog as one pull
/// request (through the in-process fake of GitHub's git data and pulls APIs), from the branch
/// `olm-release/PACKAGE-import` of the fork; a rerun finds it and writes nothing to GitHub.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_catalog_pull_request_holds_every_version_and_a_rerun_writes_nothing() {
    use crate::pulls_fake::{Fake, TOKEN};
    let fake = Fake::start().await;
    crate::pulls::seed_catalog(&fake);
    let tmp = tempfile::tempdir().unwrap();
    let pkg = package(tmp.path());
    let dir = tmp.path().to_path_buf();
    let api = fake.api.clone();
    let run = move |dir: PathBuf, pkg: PathBuf, api: String, token: &'static str| {
        tokio::task::spawn_blocking(move || {
            let pkg = pkg.to_str().unwrap().to_string();
            olm_release(
                &dir,
                &[
                    "import",
                    &pkg,
                    "--image-target",
                    "oci:images",
                    "--image",
                    "quay.io/example/widget-operator-bundle",
                    "--catalog",
                    "git:https://github.com/acme/catalog.git",
                    "--catalog-branch",
                    "main",
                    "--pull-request",
                    "--pull-request-fork",
                    "bot/catalog",
                    "--github-api",
                    &api,
                ],
                &[("SOURCE_DATE_EPOCH", "0"), ("GITHUB_TOKEN", token)],
            )
        })
    };
    // Without a token the run stops before anything, naming the variables.
    let o = run(dir.clone(), pkg.clone(), api.clone(), "")
        .await
        .unwrap();
    assert_code(&o, 2);
    assert!(stderr(&o).contains("GITHUB_TOKEN"), "{}", stderr(&o));
    assert_eq!(fake.writes(), 0);

    let first = run(dir.clone(), pkg.clone(), api.clone(), TOKEN)
        .await
        .unwrap();
    assert_code(&first, 0);
    {
        let w = fake.world();
        assert_eq!(w.pulls.len(), 1, "{}", stderr(&first));
        let pr = &w.pulls[0];
        assert_eq!(pr.head, "bot:olm-release/widget-operator-import");
        assert_eq!(pr.base, "main");
        let files = w.files("bot/catalog", "olm-release/widget-operator-import");
        let catalog =
            String::from_utf8(files["catalog/widget-operator/catalog.yaml"].clone()).unwrap();
        for v in ["0.1.0", "0.2.0", "0.3.0", "0.10.0"] {
            assert!(
                catalog.contains(&format!("name: widget-operator.v{v}")),
                "{v}: {catalog}"
            );
        }
        assert_eq!(files["README.md"], b"catalog\n");
    }
    let writes = fake.writes();
    let again = run(dir, pkg, api, TOKEN).await.unwrap();
    assert_code(&again, 0);
    assert_eq!(fake.writes(), writes, "{}", stderr(&again));
    assert_eq!(fake.world().pulls.len(), 1);
}
