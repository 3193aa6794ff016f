//! `olm-release init` end to end, the binary then the pipeline it wrote: on the sample
//! operator, on KubeVirt tags (read in place from ../shared), on operator-sdk catalogs,
//! registry+v1 bundles, kubebuilder trees and plain manifests (fixtures in the shapes of real
//! repositories, [`shapes`]), projects whose `make bundle` builds a kustomization
//! ([`make_bundle`]): what it says, that its one pipeline runs as the release and as
//! its variants, and what the command adds to the crate ([`command`]: the installer of this
//! version pinned, exit codes, a rerun's pipeline still running). What `init` finds and writes,
//! its CI configurations and a rerun over its own output are crates/init's tests.

use std::path::Path;

mod command;
mod layouts;
mod make_bundle;
mod projects;
mod shapes;

use crate::support::{assert_code, copy_dir, list_files, olm_release, root, shared, stderr};

/// A copy of the sample operator as an operator repository of its own.
pub(super) fn sample_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("fixtures/sample-operator"), dir.path());
    dir
}

/// Writes `text` at `rel` under `dir`.
pub(super) fn put(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// Runs the pipeline `init` wrote in `cwd` as `variant` (`local`: every target a folder under
/// `_out/local/` of `source`), with `VERSION=version` and `vars`; asserts exit 0, returns stderr.
pub(super) fn run_variant(
    cwd: &Path,
    source: &Path,
    variant: &str,
    version: &str,
    vars: &[&str],
    dry_run: bool,
) -> String {
    let pipeline = cwd.join("pipelines/release.yaml").display().to_string();
    let source = source.display().to_string();
    let version = format!("VERSION={version}");
    let mut args = vec![
        "run",
        &pipeline,
        "--variant",
        variant,
        "--source",
        &source,
        "--var",
        &version,
    ];
    for v in vars {
        args.extend(["--var", v]);
    }
    if dry_run {
        args.push("--dry-run");
    }
    let out = olm_release(cwd, &args, &[("SOURCE_DATE_EPOCH", "1700000000")]);
    assert_code(&out, 0);
    stderr(&out)
}

/// Reads a YAML file.
/// Whether kustomize or kubectl is installed (else the test says it is skipped).
pub(super) fn kustomize_installed() -> bool {
    let tool = ["kustomize version", "kubectl kustomize --help"]
        .iter()
        .any(|c| {
            std::process::Command::new("sh")
                .args(["-c", &format!("{c} >/dev/null 2>&1")])
                .status()
                .is_ok_and(|s| s.success())
        });
    if !tool {
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("CI=true but neither kustomize nor kubectl is installed");
        }
        eprintln!("skipping: neither kustomize nor kubectl is installed");
    }
    tool
}

pub(super) fn yaml(path: &Path) -> serde_yaml_ng::Value {
    serde_yaml_ng::from_str(&std::fs::read_to_string(path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn init_on_the_sample_operator_writes_one_pipeline_whose_variants_run() {
    let repo = sample_repo();
    let r = repo.path();
    let before = list_files(r);
    let out = olm_release(
        r,
        &[
            "init",
            "--github",
            "example/sample-operator",
            "--ci",
            "travis",
            "--ci",
            "github",
        ],
        &[],
    );
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
        "set these secrets in CI: OCI_USERNAME and OCI_PASSWORD for the bundle image quay.io/example/sample-operator-bundle",
        "GITHUB_TOKEN",
        "try it, offline: olm-release run pipelines/release.yaml --variant local --var VERSION=0.0.1",
    ] {
        assert!(said.contains(needle), "missing {needle:?} in\n{said}");
    }
    assert!(
        !said.contains("quay.io/cnr"),
        "no app registry unless asked:\n{said}"
    );
    let mut expected = before.clone();
    expected.extend(
        [
            ".github/workflows/olm-release.yml",
            ".gitignore",
            ".travis.yml",
            "pipelines/.olm-release-init.sha256",
            "pipelines/release.yaml",
        ]
        .map(String::from),
    );
    expected.sort();
    assert_eq!(
        list_files(r),
        expected,
        "one pipeline, two CI files, the .gitignore and the record of what init wrote were added"
    );

    let release = std::fs::read_to_string(r.join("pipelines/release.yaml")).unwrap();
    for needle in [
        "templates: olm\n",
        "name: sample-operator.v{version}",
        "icon: icon.png",
        "file: deploy/operator.yaml.in",
        "target: github:example/sample-operator",
        // The catalog outlives the CI job: a branch of the operator's own repository.
        "  target: git:https://github.com/example/sample-operator.git\n  branch: olm-catalog",
        "  path: catalog\n",
        "      target: dir:_out/local/catalog\n      branch: null\n      path: null\n",
        "assets: [\"{csv}\", sample-operatorsource.yaml]",
        "stages: [render, fetch-previous, package, verify, bundle-image, catalog, release]",
        "profile: modern",
        "  alpha:",
        "  local:",
    ] {
        assert!(release.contains(needle), "missing {needle:?} in\n{release}");
    }
    assert!(!release.contains("registry:"), "{release}");
    // The release, offline: twice (an upgrade), then again (nothing to do).
    let first = run_variant(r, Path::new("."), "local", "0.1.0", &[], false);
    assert!(first.contains("published bundle image"), "{first}");
    assert!(
        first.contains("published asset sample-operator.v0.1.0.clusterserviceversion.yaml"),
        "{first}"
    );
    let second = run_variant(r, Path::new("."), "local", "0.2.0", &[], false);
    assert!(
        second.contains("sample-operator.v0.2.0 replaces sample-operator.v0.1.0"),
        "{second}"
    );
    let local = r.join("_out/local");
    let published = crate::support::file_contents(&local);
    let again = run_variant(r, Path::new("."), "local", "0.2.0", &[], false);
    assert!(
        !again.contains("published "),
        "a rerun publishes nothing:\n{again}"
    );
    assert_eq!(crate::support::file_contents(&local), published);
    // The alpha variant: its own package, its images at latest, no GitHub release.
    let plan = olm_release(
        r,
        &[
            "plan",
            "pipelines/release.yaml",
            "--dry-run",
            "--variant",
            "alpha",
            "--var",
            "VERSION=0.3.0-alpha.7",
        ],
        &[],
    );
    assert_code(&plan, 0);
    let alpha = crate::support::stdout(&plan);
    assert!(
        alpha.contains("Plan (dry-run): sample-operator-alpha — sample-operator-dev 0.3.0-alpha.7"),
        "alpha builds go to a package of their own:\n{alpha}"
    );
    assert!(
        release.contains("    render:\n      vars:\n        DockerTag: ${DOCKER_TAG:-latest}\n"),
        "the alpha variant replaces the one variable that differs:\n{release}"
    );
    assert!(
        !alpha.contains(". release"),
        "no GitHub release for alpha builds:\n{alpha}"
    );
}

#[test]
fn init_on_kubevirt_tags_reads_them_in_place_and_the_pipeline_runs() {
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
                "--app-registry",
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
            "set these variables in CI (or edit their defaults into the pipeline): DOCKER_PREFIX (for {{.DockerPrefix}}), VERBOSITY (for {{.Verbosity}})",
            "QUAY_USERNAME and QUAY_PASSWORD (or QUAY_TOKEN) for the app registry",
            "--var DOCKER_PREFIX=… --var VERBOSITY=…",
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
        for needle in [
            "name: kubevirtoperator.{version}",
            "KubeVirtLogo: icon.base64data",
            "url: ${REGISTRY_URL:-https://quay.io/cnr}",
            "stages: [render, fetch-previous, package, verify, push, bundle-image, catalog, release]",
            "url: dir:_out/local/registry",
        ] {
            assert!(
                release.contains(needle),
                "{tag}: missing {needle:?} in\n{release}"
            );
        }
        let version = tag.trim_start_matches('v');
        let err = run_variant(
            o,
            &source,
            "local",
            version,
            &["DOCKER_PREFIX=index.docker.io/kubevirt", "VERBOSITY=\"2\""],
            true,
        );
        for needle in [
            format!("skipped bundle release {version}"),
            format!("kubevirtoperator.{version}.clusterserviceversion.yaml"),
            "skipped asset kubevirt-operatorsource.yaml".to_string(),
            "skipped bundle image".to_string(),
        ] {
            assert!(err.contains(&needle), "{tag}: missing {needle:?} in\n{err}");
        }
    }
}
