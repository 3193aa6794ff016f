//! `olm-release init` on the sample operator, on KubeVirt tags (read in place from
//! ../shared), on an operator-sdk catalog and on plain manifests: what it finds, what it writes,
//! that it never overwrites without --force, and that the pipelines it writes render and
//! dry-run; and the CI configurations it writes (installer pinned by version and sha256, the
//! whole history fetched for next-version, dry-run on every build, alpha and release deploys).

use std::path::Path;

mod ci;
mod layouts;

use crate::support::{assert_code, copy_dir, list_files, olm_release, root, shared, stderr};

/// A copy of the sample operator as an operator repository of its own.
pub(super) fn sample_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("fixtures/sample-operator"), dir.path());
    dir
}

/// Dry-runs `pipeline` from `source` against an empty `dir:` registry; returns stderr.
pub(super) fn dry_run(cwd: &Path, pipeline: &Path, source: &Path, env: &[(&str, &str)]) -> String {
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
