//! `init` on the layouts other than KubeVirt-style templates: plain manifests (a CSV to start
//! from), an operator-sdk catalog (its newest version included), a kubebuilder tree (with and
//! without kustomize); and that the pipeline `init` writes for each runs (what `init` says where it
//! cannot adopt a repository is crates/init's test).

use std::path::Path;

use super::{put, run_variant};
use crate::support::{assert_code, olm_release, root, stderr};

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
        "# Written by olm-release init: deploy/crds/samples.example.com.crd.yaml, included as it is.\n{{index .Manifests \"samples.example.com.crd.yaml\"}}\n",
        "the CRD stays where it is, included"
    );
    let err = run_variant(r, Path::new("."), "local", "0.1.0", &[], true);
    assert!(err.contains("bundle valid under profile modern"), "{err}");
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
        csv.ends_with("{{index .Catalog \"sample-operator.v0.1.0.clusterserviceversion.yaml\"}}\n"),
        "{csv}"
    );
    let err = run_variant(r, Path::new("."), "local", "0.2.0", &[], true);
    assert!(
        err.contains("sample-operator 0.2.0 on channel stable"),
        "{err}"
    );
    assert!(err.contains("skipped bundle image"), "{err}");
}

/// A kubebuilder project: config/default patches config/manager's Deployment and prefixes
/// every name; config/manifests/bases holds the CSV base.
fn kubebuilder() -> tempfile::TempDir {
    let repo = tempfile::tempdir().unwrap();
    let r = repo.path();
    put(
        r,
        "config/default/kustomization.yaml",
        "namePrefix: widget-\nresources:\n- ../manager\n- ../rbac\npatches:\n- path: manager_patch.yaml\n",
    );
    put(
        r,
        "config/default/manager_patch.yaml",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: controller-manager\nspec:\n  template:\n    spec:\n      containers:\n      - name: manager\n        args: [--leader-elect]\n",
    );
    put(
        r,
        "config/manager/kustomization.yaml",
        "resources:\n- manager.yaml\n",
    );
    put(
        r,
        "config/manager/manager.yaml",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: controller-manager\nspec:\n  selector:\n    matchLabels: {control-plane: controller-manager}\n  template:\n    metadata:\n      labels: {control-plane: controller-manager}\n    spec:\n      serviceAccountName: controller-manager\n      containers:\n      - name: manager\n        image: quay.io/example/widget:v0.1.0\n",
    );
    put(
        r,
        "config/rbac/kustomization.yaml",
        "resources:\n- role.yaml\n- role_binding.yaml\n",
    );
    put(
        r,
        "config/rbac/role.yaml",
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: manager-role\nrules:\n- apiGroups: [example.com]\n  resources: [widgets]\n  verbs: [get]\n",
    );
    put(
        r,
        "config/rbac/role_binding.yaml",
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: manager-rolebinding\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: manager-role}\nsubjects:\n- {kind: ServiceAccount, name: controller-manager, namespace: system}\n",
    );
    put(
        r,
        "config/crd/bases/example.com_widgets.yaml",
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\nspec:\n  group: example.com\n  names: {kind: Widget, plural: widgets}\n  scope: Namespaced\n  versions:\n  - {name: v1, served: true, storage: true}\n",
    );
    put(
        r,
        "config/manifests/bases/widget.clusterserviceversion.yaml",
        "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: widget.v0.0.0\nspec:\n  displayName: Widget\n  version: 0.0.0\n  install:\n    spec:\n      deployments: null\n    strategy: \"\"\n",
    );
    repo
}

#[test]
fn init_on_a_kubebuilder_tree_without_kustomize_says_what_to_run() {
    let repo = kubebuilder();
    let r = repo.path();
    // A PATH with git alone: neither kustomize nor kubectl.
    let bin = tempfile::tempdir().unwrap();
    let git = std::process::Command::new("sh")
        .args(["-c", "command -v git"])
        .output()
        .unwrap();
    let git = String::from_utf8(git.stdout).unwrap();
    std::os::unix::fs::symlink(git.trim(), bin.path().join("git")).unwrap();
    let out = olm_release(
        r,
        &["init", "--ci", "none"],
        &[("PATH", bin.path().to_str().unwrap())],
    );
    assert_code(&out, 0);
    let said = stderr(&out);
    for needle in [
        "found: layout: kubebuilder config/ (CSV base config/manifests/bases/widget.clusterserviceversion.yaml; objects from config/'s bases, not built)",
        "found: package widget (from the name of the CSV base config/manifests/bases/widget.clusterserviceversion.yaml)",
        "found: Deployment controller-manager in config/manager/manager.yaml",
        "found: config/default/manager_patch.yaml is a kustomize patch, not a Deployment of its own: not taken",
        "found: service account controller-manager: clusterPermissions from manager-role (config/rbac/role.yaml)",
        "neither kustomize nor kubectl is installed, so config/default was not built: the Deployment and RBAC are config/'s bases as written, without config/default's patches and name prefix; install kustomize (or kubectl) and run init again, or run `kustomize build config/default > olm/kustomize/default.yaml` and run init again",
    ] {
        assert!(said.contains(needle), "missing {needle:?} in\n{said}");
    }
    // The CSV base's `deployments: null` (as operator-sdk writes it) takes the Deployment.
    let err = run_variant(r, Path::new("."), "local", "0.1.0", &[], false);
    assert!(err.contains("bundle valid under profile modern"), "{err}");
    let csv =
        super::yaml(&r.join("_out/local/release/v0.1.0/widget.v0.1.0.clusterserviceversion.yaml"));
    assert_eq!(
        csv["spec"]["install"]["spec"]["deployments"][0]["name"].as_str(),
        Some("controller-manager"),
        "{csv:?}"
    );
}

#[test]
fn init_on_a_kubebuilder_tree_whose_crds_are_not_generated_names_the_missing_folder() {
    if !super::kustomize_installed() {
        return;
    }
    // config/crd/bases is controller-gen's output (`make manifests`), often not committed.
    let repo = kubebuilder();
    let r = repo.path();
    put(
        r,
        "config/crd/kustomization.yaml",
        "resources:\n- bases/example.com_widgets.yaml\n",
    );
    put(
        r,
        "config/default/kustomization.yaml",
        "namePrefix: widget-\nresources:\n- ../crd\n- ../manager\n- ../rbac\npatches:\n- path: manager_patch.yaml\n",
    );
    std::fs::remove_dir_all(r.join("config/crd/bases")).unwrap();
    let out = olm_release(r, &["init", "--ci", "none"], &[]);
    assert_code(&out, 0);
    let said = stderr(&out);
    assert!(
        said.contains(" config/default failed: config/crd/bases does not exist: the Deployment and RBAC are config/'s bases as written")
            && said.contains("make the build succeed (a folder it names may be one the Makefile generates first, such as config/crd/bases from `make manifests`) and run init again"),
        "{said}"
    );
    assert!(!said.contains("install kustomize"), "{said}");
}

#[test]
fn init_on_a_kubebuilder_tree_reads_what_kustomize_builds() {
    if !super::kustomize_installed() {
        return;
    }
    let repo = kubebuilder();
    let r = repo.path();
    let out = olm_release(r, &["init", "--ci", "none"], &[]);
    assert_code(&out, 0);
    let said = stderr(&out);
    for needle in [
        "found: layout: kubebuilder config/ (CSV base config/manifests/bases/widget.clusterserviceversion.yaml; objects from olm/kustomize/default.yaml)",
        "found: package widget (from the name of the CSV base config/manifests/bases/widget.clusterserviceversion.yaml)",
        "found: Deployment widget-controller-manager in olm/kustomize/default.yaml",
        "found: service account controller-manager: clusterPermissions from widget-manager-role (olm/kustomize/default.yaml)",
        "found: CRD widgets.example.com in config/crd/bases/example.com_widgets.yaml",
        "wrote ./olm/kustomize/default.yaml",
    ] {
        assert!(said.contains(needle), "missing {needle:?} in\n{said}");
    }
    let built = std::fs::read_to_string(r.join("olm/kustomize/default.yaml")).unwrap();
    assert!(
        built.starts_with("# Written by olm-release init: `"),
        "{built}"
    );
    assert!(
        built.contains("--leader-elect"),
        "the patch is applied:\n{built}"
    );
    let again = olm_release(r, &["init", "--ci", "none"], &[]);
    assert_code(&again, 0);
    assert!(
        stderr(&again).contains("nothing changed"),
        "{}",
        stderr(&again)
    );
    let err = run_variant(r, Path::new("."), "local", "0.1.0", &[], true);
    assert!(err.contains("bundle valid under profile modern"), "{err}");

    // A rule added to config/rbac after init: the release stops until init refreshes the
    // snapshot, and then carries it.
    let role = r.join("config/rbac/role.yaml");
    let mut text = std::fs::read_to_string(&role).unwrap();
    text.push_str("- apiGroups: [\"\"]\n  resources: [configmaps]\n  verbs: [get]\n");
    std::fs::write(&role, text).unwrap();
    let pipeline = r.join("pipelines/release.yaml").display().to_string();
    let stopped = olm_release(
        r,
        &[
            "run",
            &pipeline,
            "--variant",
            "local",
            "--var",
            "VERSION=0.1.0",
            "--dry-run",
        ],
        &[],
    );
    assert_code(&stopped, 2);
    assert!(
        stderr(&stopped).contains("render.kustomize: olm/kustomize/default.yaml is stale: config/default builds something else now (olm/kustomize/default.yaml); run `olm-release init` to refresh it"),
        "{}",
        stderr(&stopped)
    );
    let refreshed = olm_release(r, &["init", "--ci", "none"], &[]);
    assert_code(&refreshed, 0);
    assert!(
        stderr(&refreshed).contains("refreshed ./olm/kustomize/default.yaml\n"),
        "{}",
        stderr(&refreshed)
    );
    run_variant(r, Path::new("."), "local", "0.1.0", &[], false);
    let csv =
        super::yaml(&r.join("_out/local/release/v0.1.0/widget.v0.1.0.clusterserviceversion.yaml"));
    let rules = csv["spec"]["install"]["spec"]["clusterPermissions"][0]["rules"]
        .as_sequence()
        .unwrap();
    assert!(
        rules
            .iter()
            .any(|rule| rule["resources"][0].as_str() == Some("configmaps")),
        "{rules:?}"
    );
}
