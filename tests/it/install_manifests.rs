//! `install-manifests` end to end: the objects OLM v1 applies for a bundle folder on stdout (a
//! YAML stream, or JSON), equal to the fixtures' expected objects; OLM v1's refusals exit 1 with
//! its reason; a path that is no bundle or a bad `--deployment-config` exits 2.

use std::path::PathBuf;

use olm_release_olm::cluster::as_applied;
use serde_yaml_ng::Value;

use crate::support::{assert_code, olm_release, root, stderr, stdout};

fn fixtures() -> PathBuf {
    root().join("fixtures/install")
}

/// The expected objects of a fixture case, in order.
fn expected(bundle: &str, case: &str) -> Vec<Value> {
    let dir = fixtures()
        .join("expected-manifests")
        .join(bundle)
        .join(case);
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    names
        .iter()
        .map(|p| serde_yaml_ng::from_str(&std::fs::read_to_string(p).unwrap()).unwrap())
        .collect()
}

fn stream(text: &str) -> Vec<Value> {
    serde_yaml_ng::Deserializer::from_str(text)
        .map(|d| <Value as serde::Deserialize>::deserialize(d).unwrap())
        .collect()
}

fn same(got: &[Value], want: &[Value]) {
    assert_eq!(got.len(), want.len(), "{got:?}");
    for (g, w) in got.iter().zip(want) {
        assert_eq!(as_applied(g), as_applied(w));
    }
}

#[test]
fn a_bundle_folder_renders_to_the_objects_olm_v1_applies() {
    let bundle = fixtures().join("bundles/scoped-mini.v0.2.0");
    let config = fixtures().join("scoped-deployment-config.yaml");
    let args = [
        "install-manifests",
        bundle.to_str().unwrap(),
        "--install-namespace",
        "scoped-system",
        "--watch-namespace",
        "team-a",
        "--certificate-provider",
        "openshift-service-ca",
        "--deployment-config",
        config.to_str().unwrap(),
    ];
    let out = olm_release(&root(), &args, &[]);
    assert_code(&out, 0);
    let want = expected("scoped-mini.v0.2.0", "single-namespace");
    same(&stream(&stdout(&out)), &want);

    let mut json_args = vec!["--format", "json"];
    json_args.extend(args);
    let out = olm_release(&root(), &json_args, &[]);
    assert_code(&out, 0);
    let got: Vec<Value> = serde_json::from_str(&stdout(&out)).unwrap();
    same(&got, &want);
}

#[test]
fn cert_manager_is_the_default_provider() {
    let bundle = fixtures().join("bundles/webhook-mini.v0.1.0");
    let out = olm_release(
        &root(),
        &[
            "install-manifests",
            bundle.to_str().unwrap(),
            "--install-namespace",
            "mini-system",
        ],
        &[],
    );
    assert_code(&out, 0);
    same(
        &stream(&stdout(&out)),
        &expected("webhook-mini.v0.1.0", "cert-manager"),
    );
}

#[test]
fn a_bundle_olm_v1_refuses_fails_with_its_reason() {
    let bundle = fixtures().join("bundles/scoped-mini.v0.2.0");
    let out = olm_release(
        &root(),
        &[
            "install-manifests",
            bundle.to_str().unwrap(),
            "--install-namespace",
            "scoped-system",
        ],
        &[],
    );
    assert_code(&out, 1);
    assert!(
        stderr(&out)
            .contains("unsupported bundle: bundle does not support AllNamespaces install mode"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).is_empty());
}

#[test]
fn no_bundle_or_a_bad_deployment_config_is_an_input_error() {
    let out = olm_release(
        &root(),
        &[
            "install-manifests",
            "fixtures/install",
            "--install-namespace",
            "x",
        ],
        &[],
    );
    assert_code(&out, 2);
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("config.yaml");
    std::fs::write(&config, "replicas: 3\n").unwrap();
    let bundle = fixtures().join("bundles/webhook-mini.v0.1.0");
    let out = olm_release(
        &root(),
        &[
            "install-manifests",
            bundle.to_str().unwrap(),
            "--install-namespace",
            "x",
            "--deployment-config",
            config.to_str().unwrap(),
        ],
        &[],
    );
    assert_code(&out, 2);
    assert!(
        stderr(&out).contains("unknown field \"replicas\""),
        "{}",
        stderr(&out)
    );
}

#[test]
fn verify_reads_a_registry_v1_folder_under_the_modern_profile_and_its_dockerfile() {
    let tmp = tempfile::tempdir().unwrap();
    let bundle = tmp.path().join("bundle");
    crate::support::copy_dir(&fixtures().join("bundles/webhook-mini.v0.1.0"), &bundle);
    std::fs::write(bundle.join("bundle.Dockerfile"), "FROM scratch\n").unwrap();
    let out = olm_release(&root(), &["verify", bundle.to_str().unwrap()], &[]);
    assert_code(&out, 0);
    assert!(
        stderr(&out).contains("(profile modern)"),
        "{}",
        stderr(&out)
    );
    assert!(
        !stdout(&out).contains("bundle.Dockerfile"),
        "{}",
        stdout(&out)
    );
    // Told otherwise, the app-registry tools' rules apply (they need a package file).
    let out = olm_release(
        &root(),
        &[
            "verify",
            "--profile",
            "appregistry-2019",
            bundle.to_str().unwrap(),
        ],
        &[],
    );
    assert_code(&out, 1);
}

#[test]
fn verify_refuses_a_bundle_whose_pods_cannot_start() {
    let bundle = fixtures().join("unstartable/kubebuilder-unwired.v0.1.0");
    let out = olm_release(&root(), &["verify", bundle.to_str().unwrap()], &[]);
    assert_code(&out, 1);
    let text = stdout(&out);
    for rule in [
        "error[deployment-references]",
        "warning[crd-conversion-webhook]",
        "error[object-webhook-configuration]",
        "warning[deployment-pull-secrets]",
    ] {
        assert!(text.contains(rule), "{rule}: {text}");
    }
    let rules = stdout(&olm_release(&root(), &["verify", "--list-rules"], &[]));
    for id in [
        "deployment-references",
        "deployment-pull-secrets",
        "crd-conversion-webhook",
        "crd-conversion-schemas",
        "object-webhook-configuration",
    ] {
        assert!(rules.contains(id), "{id} is listed");
    }
}

#[test]
fn a_bundle_image_in_an_oci_layout_renders_as_its_folder_does() {
    let (w, folder) = crate::shipped_bundle::released();
    let layout = w.path().join("_out/oci/memcached-operator-bundle");
    let render = |bundle: &str| {
        let out = w.run(
            &[
                "install-manifests",
                bundle,
                "--install-namespace",
                "memcached-system",
            ],
            &[],
        );
        assert_code(&out, 0);
        stream(&stdout(&out))
    };
    let from_folder = render(folder.to_str().unwrap());
    assert!(!from_folder.is_empty());
    let from_image = render(&format!("oci:{}:0.0.1", layout.display()));
    same(&from_image, &from_folder);
    let missing = w.run(
        &[
            "install-manifests",
            &format!("oci:{}:9.9.9", layout.display()),
            "--install-namespace",
            "memcached-system",
        ],
        &[],
    );
    assert_code(&missing, 2);
    assert!(
        stderr(&missing).contains("no tag 9.9.9"),
        "{}",
        stderr(&missing)
    );
}

#[test]
fn objects_the_cluster_admin_provides_are_checked_where_they_are_named() {
    // `verify --provided` takes KIND/NAME of the kinds a pod names; anything else is a usage error.
    let bundle = fixtures().join("unstartable/kubebuilder-unwired.v0.1.0");
    let out = olm_release(
        &root(),
        &[
            "verify",
            bundle.to_str().unwrap(),
            "--provided",
            "Deployment/x",
        ],
        &[],
    );
    assert_code(&out, 2);
    assert!(stderr(&out).contains("KIND/NAME"), "{}", stderr(&out));
    // A pipeline's verify.provided is checked with the other keys, naming file and line.
    let work = crate::support::Work::sample();
    let file = work.path().join("pipelines/sample.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    let text = text.replace(
        "stages:",
        "verify:\n  provided: [ConfigMap/settings, Settings]\nstages:",
    );
    std::fs::write(work.path().join("pipelines/provided.yaml"), text).unwrap();
    let o = work.run(&["plan", "pipelines/provided.yaml"], &[]);
    assert_code(&o, 2);
    let err = stderr(&o);
    assert!(err.contains("pipelines/provided.yaml:"), "{err}");
    assert!(err.contains("verify.provided: \"Settings\""), "{err}");
    assert!(!err.contains("ConfigMap/settings\""), "{err}");
}
