//! `olm-release init` on the sample operator, on KubeVirt tags (read in place from
//! ../shared), on an operator-sdk catalog and on plain manifests: what it finds, what it writes,
//! that it never overwrites without --force, and that the pipelines it writes render and
//! dry-run; and the CI configurations it writes (installer pinned by version and sha256, the
//! whole history fetched for next-version, dry-run on every build, alpha and release deploys).

use std::path::Path;

use serde_yaml_ng::Value;

use crate::support::{assert_code, copy_dir, list_files, olm_release, root, shared, stderr};

/// A copy of the sample operator as an operator repository of its own.
fn sample_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("fixtures/sample-operator"), dir.path());
    dir
}

/// Dry-runs `pipeline` from `source` against an empty `dir:` registry; returns stderr.
fn dry_run(cwd: &Path, pipeline: &Path, source: &Path, env: &[(&str, &str)]) -> String {
    let registry = format!("dir:{}", cwd.join("_registry").display());
    let out_dir = cwd.join("_out").display().to_string();
    let mut all = vec![("REGISTRY_URL", registry.as_str())];
    all.extend_from_slice(env);
    let out = olm_release(
        cwd,
        &[
            "run",
            &pipeline.display().to_string(),
            "--source",
            &source.display().to_string(),
            "--out",
            &out_dir,
            "--dry-run",
        ],
        &all,
    );
    assert_code(&out, 0);
    stderr(&out)
}

#[test]
fn init_on_the_sample_operator_writes_pipelines_that_dry_run() {
    let repo = sample_repo();
    let r = repo.path();
    let before = list_files(r);
    let out = olm_release(r, &["init", "--github", "example/sample-operator"], &[]);
    assert_code(&out, 0);
    let said = stderr(&out);
    for needle in [
        "found: layout: templates in olm/, bundle in olm/bundle/",
        "found: package sample-operator",
        "found: Deployment sample-operator in deploy/operator.yaml.in",
        "found: service account sample-operator, role sample-operator, RBAC rbac/rbac.yaml.in",
        "found: icon icon.png",
        "wrote ./pipelines/release.yaml",
        "wrote ./.github/workflows/olm-release.yml",
        "set these secrets in CI: QUAY_USERNAME and QUAY_PASSWORD (or QUAY_TOKEN)",
        "GITHUB_TOKEN",
    ] {
        assert!(said.contains(needle), "missing {needle:?} in\n{said}");
    }
    let mut expected = before.clone();
    expected.extend(
        [
            ".github/workflows/olm-release.yml",
            ".travis.yml",
            "pipelines/alpha.yaml",
            "pipelines/release.yaml",
        ]
        .map(String::from),
    );
    expected.sort();
    assert_eq!(list_files(r), expected, "only the four files were added");

    let release = std::fs::read_to_string(r.join("pipelines/release.yaml")).unwrap();
    for needle in [
        "templates: olm\n",
        "name: sample-operator.v{version}",
        "icon: icon.png",
        "file: deploy/operator.yaml.in",
        "target: github:example/sample-operator",
        "assets: [\"{csv}\", sample-operatorsource.yaml]",
    ] {
        assert!(release.contains(needle), "missing {needle:?} in\n{release}");
    }
    let err = dry_run(
        r,
        Path::new("pipelines/release.yaml"),
        Path::new("."),
        &[("VERSION", "0.1.0")],
    );
    assert!(
        err.contains("dry-run: skipped bundle release 0.1.0"),
        "{err}"
    );
    assert!(
        err.contains("skipped upload asset sample-operator.v0.1.0.clusterserviceversion.yaml"),
        "{err}"
    );
    let alpha = dry_run(
        r,
        Path::new("pipelines/alpha.yaml"),
        Path::new("."),
        &[("VERSION", "0.2.0-alpha.7")],
    );
    assert!(
        alpha.contains("sample-operator-dev 0.2.0-alpha.7"),
        "alpha builds go to a package of their own:\n{alpha}"
    );
    assert!(
        !alpha.contains("asset"),
        "no GitHub release for alpha builds"
    );

    // Again: nothing is overwritten without --force, and nothing changes.
    let release_before = std::fs::read(r.join("pipelines/release.yaml")).unwrap();
    std::fs::write(r.join(".travis.yml"), "# mine\n").unwrap();
    let again = olm_release(r, &["init"], &[]);
    assert_code(&again, 2);
    assert!(
        stderr(&again)
            .contains("not overwriting pipelines/release.yaml, pipelines/alpha.yaml, .travis.yml"),
        "{}",
        stderr(&again)
    );
    assert_eq!(
        std::fs::read_to_string(r.join(".travis.yml")).unwrap(),
        "# mine\n"
    );
    let forced = olm_release(
        r,
        &[
            "init",
            "--force",
            "--ci",
            "travis",
            "--github",
            "example/sample-operator",
        ],
        &[],
    );
    assert_code(&forced, 0);
    assert!(
        stderr(&forced).contains("replaced ./.travis.yml"),
        "{}",
        stderr(&forced)
    );
    assert_ne!(
        std::fs::read_to_string(r.join(".travis.yml")).unwrap(),
        "# mine\n"
    );
    assert_eq!(
        std::fs::read(r.join("pipelines/release.yaml")).unwrap(),
        release_before,
        "same repository, same pipeline"
    );
}

#[test]
fn init_on_kubevirt_tags_reads_them_in_place_and_the_pipelines_dry_run() {
    let Some(shared) = shared() else { return };
    for (tag, channel, deployment) in [("v0.22.0", "alpha", false), ("v0.16.0", "beta", true)] {
        let source = shared.join("kubevirt").join(tag);
        let out = tempfile::tempdir().unwrap();
        let o = out.path();
        let run = olm_release(
            o,
            &[
                "init",
                "--source",
                &source.display().to_string(),
                "--out",
                ".",
                "--github",
                "kubevirt/kubevirt",
            ],
            &[],
        );
        assert_code(&run, 0);
        let said = stderr(&run);
        for needle in [
            "found: layout: templates in manifests/release/olm/, bundle in manifests/release/olm/bundle/",
            "found: package kubevirt",
            &format!("channel {channel}"),
            "service account kubevirt-operator, role kubevirt-operator, RBAC manifests/generated/rbac-cluster.authorization.k8s.yaml.in",
            "found: icon assets/kubevirt_logo.png",
            "found: includes {{index .GeneratedManifests \"FILE\"}} from manifests/generated/",
            "set these variables in CI (or edit their defaults into the pipelines): DOCKER_PREFIX (for {{.DockerPrefix}}), VERBOSITY (for {{.Verbosity}})",
        ] {
            assert!(
                said.contains(needle),
                "{tag}: missing {needle:?} in\n{said}"
            );
        }
        assert_eq!(
            said.contains(
                "found: Deployment virt-operator in manifests/generated/virt-operator.yaml.in"
            ),
            deployment,
            "{tag}: {said}"
        );
        let release = std::fs::read_to_string(o.join("pipelines/release.yaml")).unwrap();
        assert!(
            release.contains("name: kubevirtoperator.{version}"),
            "{release}"
        );
        assert!(
            release.contains("KubeVirtLogo: icon.base64data"),
            "{release}"
        );
        let version = tag.trim_start_matches('v');
        let err = dry_run(
            o,
            &o.join("pipelines/release.yaml"),
            &source,
            &[
                ("VERSION", version),
                ("DOCKER_PREFIX", "index.docker.io/kubevirt"),
                ("VERBOSITY", "\"2\""),
            ],
        );
        assert!(
            err.contains(&format!("skipped bundle release {version}")),
            "{tag}:\n{err}"
        );
        assert!(
            err.contains(&format!(
                "kubevirtoperator.{version}.clusterserviceversion.yaml"
            )),
            "{tag}:\n{err}"
        );
        assert!(
            err.contains("skipped upload asset kubevirt-operatorsource.yaml"),
            "{tag}:\n{err}"
        );
    }
}

/// Writes `text` at `rel` under `dir`.
fn put(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// The sample operator as plain manifests: its Deployment, RBAC, CRD, an example CR, an icon.
fn plain_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let sample = root().join("fixtures/sample-operator");
    let plain = |rel: &str| {
        std::fs::read_to_string(sample.join(rel))
            .unwrap()
            .replace("{{.Namespace}}", "sample")
            .replace("{{.DockerTag}}", "v0.1.0")
    };
    put(d, "deploy/operator.yaml", &plain("deploy/operator.yaml.in"));
    put(d, "deploy/rbac.yaml", &plain("rbac/rbac.yaml.in"));
    put(
        d,
        "deploy/crds/samples.example.com.crd.yaml",
        &plain("olm/bundle/samples.example.com.crd.yaml"),
    );
    put(
        d,
        "deploy/crds/sample_cr.yaml",
        "apiVersion: example.com/v1alpha1\nkind: Sample\nmetadata:\n  name: example\nspec:\n  size: 1\n",
    );
    std::fs::copy(sample.join("icon.png"), d.join("deploy/logo.png")).unwrap();
    dir
}

#[test]
fn init_on_plain_manifests_writes_a_csv_to_start_from() {
    let repo = plain_repo();
    let r = repo.path();
    let out = olm_release(
        r,
        &["init", "--ci", "none", "--github", "example/sample"],
        &[],
    );
    assert_code(&out, 0);
    let said = stderr(&out);
    assert!(
        said.contains("found: layout: plain manifests, no CSV yet"),
        "{said}"
    );
    assert!(
        said.contains("edit olm/bundle/sample-operator.vVERSION.clusterserviceversion.yaml.in"),
        "{said}"
    );
    assert!(!r.join(".travis.yml").exists(), "--ci none");
    let csv = std::fs::read_to_string(
        r.join("olm/bundle/sample-operator.vVERSION.clusterserviceversion.yaml.in"),
    )
    .unwrap();
    assert!(csv.contains("- name: samples.example.com"), "{csv}");
    assert!(
        csv.contains("\"kind\": \"Sample\""),
        "the example CR is in alm-examples:\n{csv}"
    );
    assert_eq!(
        std::fs::read_to_string(r.join("olm/bundle/samples.example.com.crd.yaml.in")).unwrap(),
        "{{index .Manifests \"samples.example.com.crd.yaml\"}}\n",
        "the CRD stays where it is, included"
    );
    let err = dry_run(
        r,
        Path::new("pipelines/release.yaml"),
        Path::new("."),
        &[("VERSION", "0.1.0")],
    );
    assert!(
        err.contains("bundle valid under profile appregistry-2019"),
        "{err}"
    );
    assert!(!err.contains("error["), "{err}");
}

#[test]
fn init_on_an_operator_sdk_catalog_includes_the_newest_version() {
    let repo = plain_repo();
    let r = repo.path();
    // The catalog: the sample's rendered CSV and CRD under two version folders.
    let work = crate::support::Work::sample();
    let rendered = work.path().join("_rendered");
    assert_code(
        &work.run(
            &[
                "render",
                "pipelines/sample.yaml",
                "--out",
                &rendered.display().to_string(),
            ],
            &[],
        ),
        0,
    );
    let catalog = "deploy/olm-catalog/sample-operator";
    for v in ["0.0.9", "0.1.0"] {
        for f in [
            "sample-operator.v0.1.0.clusterserviceversion.yaml",
            "samples.example.com.crd.yaml",
        ] {
            put(
                r,
                &format!("{catalog}/{v}/{f}"),
                &std::fs::read_to_string(rendered.join("bundle").join(f)).unwrap(),
            );
        }
    }
    put(
        r,
        &format!("{catalog}/sample-operator.package.yaml"),
        "packageName: sample-operator\nchannels:\n- name: stable\n  currentCSV: sample-operator.v0.1.0\ndefaultChannel: stable\n",
    );
    let out = olm_release(
        r,
        &["init", "--ci", "none", "--github", "example/sample"],
        &[],
    );
    assert_code(&out, 0);
    let said = stderr(&out);
    assert!(said.contains("found: layout: operator-sdk catalog deploy/olm-catalog/sample-operator/, newest version 0.1.0"), "{said}");
    assert!(said.contains("channel stable"), "{said}");
    let csv = std::fs::read_to_string(
        r.join("olm/bundle/sample-operator.vVERSION.clusterserviceversion.yaml.in"),
    )
    .unwrap();
    assert!(
        csv.starts_with("{{index .Catalog \"sample-operator.v0.1.0.clusterserviceversion.yaml\"}}"),
        "{csv}"
    );
    let err = dry_run(
        r,
        Path::new("pipelines/release.yaml"),
        Path::new("."),
        &[("VERSION", "0.2.0")],
    );
    assert!(
        err.contains("sample-operator 0.2.0 on channel stable"),
        "{err}"
    );
    assert!(err.contains("skipped bundle release 0.2.0"), "{err}");
}

#[test]
fn init_says_what_to_do_in_a_folder_without_an_operator() {
    let dir = tempfile::tempdir().unwrap();
    let out = olm_release(dir.path(), &["init"], &[]);
    assert_code(&out, 2);
    assert!(
        stderr(&out).contains("no OLM manifests, CRDs or operator Deployment found"),
        "{}",
        stderr(&out)
    );
    assert!(list_files(dir.path()).is_empty());
    let bad = olm_release(
        &root().join("fixtures/sample-operator"),
        &["init", "--github", "nope", "--out", "/nonexistent"],
        &[],
    );
    assert_code(&bad, 2);
    assert!(stderr(&bad).contains("--github 'nope' is not OWNER/REPO"));
}

fn load(path: &Path) -> Value {
    serde_yaml_ng::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn ci_configurations_install_the_pinned_release_fetch_tags_and_deploy() {
    let repo = sample_repo();
    let r = repo.path();
    assert_code(&olm_release(r, &["init"], &[]), 0);
    let version = env!("CARGO_PKG_VERSION");
    let installer = std::fs::read(root().join("scripts/install.sh")).unwrap();
    let sha = olm_release::olm::archive::sha256_hex(&installer);
    let url = format!(
        "{}/v{version}/scripts/install.sh",
        env!("CARGO_PKG_REPOSITORY")
            .replace("https://github.com/", "https://raw.githubusercontent.com/")
    );

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
    assert!(
        deploys.iter().any(|d| d["on"]["branch"] == "master"
            && d["script"] == "olm-release run pipelines/alpha.yaml")
    );

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
    assert_eq!(
        step("Release")["env"]["GITHUB_TOKEN"],
        "${{ secrets.GITHUB_TOKEN }}"
    );
    assert!(
        step("Alpha build")["if"]
            .as_str()
            .unwrap()
            .contains("refs/heads/master")
    );
}
