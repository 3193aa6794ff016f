//! `init` on the layouts other than KubeVirt-style templates: plain manifests (a CSV to start
//! from), an operator-sdk catalog (its newest version included), and a folder with no operator.

use std::path::Path;

use super::dry_run;
use crate::support::{assert_code, list_files, olm_release, root, stderr};

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
