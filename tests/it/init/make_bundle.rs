//! `init` on a kubebuilder / operator-sdk project whose `make bundle` pipes
//! `kustomize build config/manifests` into `operator-sdk generate bundle`
//! (`fixtures/make-bundle/guestbook`: admission and conversion webhooks, cert-manager, a CSV
//! base with descriptors and an icon): the release carries what operator-sdk would write; a
//! change under `config/` stops the next release until `init` refreshes the snapshot; and that
//! rerun keeps a pipeline file the user edited, naming the conflict. These need kustomize or
//! kubectl (which has it built in) and are skipped without one.

use std::path::Path;

use super::{kustomize_installed, run_variant, yaml};
use crate::support::{assert_code, copy_dir, olm_release, root, stderr};

fn guestbook() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("fixtures/make-bundle/guestbook"), dir.path());
    dir
}

fn released_csv(r: &Path, version: &str) -> serde_yaml_ng::Value {
    yaml(&r.join(format!(
        "_out/local/release/v{version}/guestbook.v{version}.clusterserviceversion.yaml"
    )))
}

#[test]
fn the_release_carries_what_make_bundle_builds() {
    if !kustomize_installed() {
        return;
    }
    let repo = guestbook();
    let r = repo.path();
    let out = olm_release(r, &["init", "--ci", "none"], &[]);
    assert_code(&out, 0);
    let said = stderr(&out);
    for needle in [
        "found: layout: kubebuilder config/ as `make bundle` builds it: config/manifests, generated as operator-sdk generate bundle does into olm/kustomize/manifests/",
        "found: package guestbook (from the name of the CSV base config/manifests builds)",
        "found: image of container manager: quay.io/example/guestbook:v${VERSION}",
        "found: Deployment guestbook-controller-manager: volume cert (cert-manager's webhook certificate) removed",
        "Certificate guestbook-serving-cert, Issuer guestbook-selfsigned-issuer",
        "wrote ./olm/kustomize/manifests/guestbook.clusterserviceversion.yaml",
    ] {
        assert!(said.contains(needle), "missing {needle:?} in\n{said}");
    }
    let err = run_variant(r, Path::new("."), "local", "0.1.0", &[], false);
    assert!(err.contains("bundle valid under profile modern"), "{err}");
    let csv = released_csv(r, "0.1.0");
    let types: Vec<&str> = csv["spec"]["webhookdefinitions"]
        .as_sequence()
        .unwrap()
        .iter()
        .filter_map(|d| d["type"].as_str())
        .collect();
    assert_eq!(types, ["ConversionWebhook", "ValidatingAdmissionWebhook"]);
    assert_eq!(
        csv["spec"]["webhookdefinitions"][0]["conversionCRDs"][0].as_str(),
        Some("guestbooks.webapp.example.com")
    );
    let dep = &csv["spec"]["install"]["spec"]["deployments"][0];
    assert_eq!(
        dep["spec"]["template"]["spec"]["containers"][0]["image"].as_str(),
        Some("quay.io/example/guestbook:v0.1.0")
    );
    assert_eq!(
        dep["spec"]["template"]["spec"]["containers"][1]["image"].as_str(),
        Some("gcr.io/kubebuilder/kube-rbac-proxy:v0.13.1"),
        "a sidecar keeps its own image"
    );
    assert!(
        dep["spec"]["template"]["spec"]
            .get("volumes")
            .is_none_or(|v| v.as_sequence().is_some_and(|v| v.is_empty())),
        "{dep:?}"
    );
    let owned = &csv["spec"]["customresourcedefinitions"]["owned"][0];
    assert_eq!(owned["specDescriptors"][0]["path"].as_str(), Some("size"));
    assert!(csv["spec"]["icon"][0]["base64data"].as_str().is_some());
}

#[test]
fn a_config_change_stops_the_release_until_init_refreshes_the_snapshot_and_keeps_an_edit() {
    if !kustomize_installed() {
        return;
    }
    let repo = guestbook();
    let r = repo.path();
    assert_code(&olm_release(r, &["init", "--ci", "none"], &[]), 0);
    run_variant(r, Path::new("."), "local", "0.1.0", &[], false);

    // A rule added to the operator's role after init.
    let role = r.join("config/rbac/role.yaml");
    let mut text = std::fs::read_to_string(&role).unwrap();
    text.push_str("- apiGroups: [\"\"]\n  resources: [configmaps]\n  verbs: [get]\n");
    std::fs::write(&role, text).unwrap();
    let stopped = olm_release(
        r,
        &[
            "run",
            "pipelines/release.yaml",
            "--variant",
            "local",
            "--var",
            "VERSION=0.2.0",
        ],
        &[],
    );
    assert_code(&stopped, 2);
    let said = stderr(&stopped);
    assert!(
        said.contains("render.kustomize: olm/kustomize/manifests is stale: config/manifests builds something else now (olm/kustomize/manifests/guestbook.clusterserviceversion.yaml); run `olm-release init` to refresh it"),
        "{said}"
    );
    assert!(!r.join("_out/local/release/v0.2.0").exists(), "{said}");

    // The user edited the pipeline meanwhile: init refreshes the snapshot, keeps the edit.
    let pipeline = r.join("pipelines/release.yaml");
    let edited = format!(
        "{}# our own note\n",
        std::fs::read_to_string(&pipeline).unwrap()
    );
    std::fs::write(&pipeline, &edited).unwrap();
    let again = olm_release(r, &["init", "--ci", "none"], &[]);
    assert_code(&again, 0);
    let said = stderr(&again);
    for needle in [
        "refreshed ./olm/kustomize/manifests/guestbook.clusterserviceversion.yaml\n",
        "unchanged ./olm/kustomize/manifests/webapp.example.com_guestbooks.yaml\n",
        "conflict: ./pipelines/release.yaml was changed since init wrote it: kept as it is, not refreshed\n",
        "diff -u pipelines/release.yaml _out/init/pipelines/release.yaml",
    ] {
        assert!(said.contains(needle), "missing {needle:?} in\n{said}");
    }
    assert_eq!(std::fs::read_to_string(&pipeline).unwrap(), edited);
    run_variant(r, Path::new("."), "local", "0.2.0", &[], false);
    let csv = released_csv(r, "0.2.0");
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

#[test]
fn a_release_without_kustomize_says_what_to_install() {
    if !kustomize_installed() {
        return;
    }
    let repo = guestbook();
    let r = repo.path();
    assert_code(&olm_release(r, &["init", "--ci", "none"], &[]), 0);
    // A PATH with neither kustomize nor kubectl.
    let bin = tempfile::tempdir().unwrap();
    let out = olm_release(
        r,
        &[
            "run",
            "pipelines/release.yaml",
            "--variant",
            "local",
            "--var",
            "VERSION=0.1.0",
        ],
        &[("PATH", bin.path().to_str().unwrap())],
    );
    assert_code(&out, 2);
    let said = stderr(&out);
    assert!(
        said.contains("render.kustomize: neither kustomize nor kubectl is installed, so config/manifests was not built; the release checks olm/kustomize/manifests against a fresh build of config/manifests (install kustomize, or kubectl, which has it built in)"),
        "{said}"
    );
}
