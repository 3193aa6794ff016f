//! `init` on fixtures in the shapes of operator-sdk projects that commit `bundle/` (written
//! here, never copied from a repository): channels from the Makefile, from the bundle's
//! annotations or from `--channel a,b --default-channel b`; two bundle flavours
//! (`bundle/community`, `bundle/openshift`, chosen by the Makefile's `BUNDLE_VARIANT` or
//! `--operator PATH`, the other released by a variant); the bundle's annotations and scorecard
//! carried; and the smaller points: a GitHub owner with capitals, two byte-identical object
//! files, CI files only for the CI the repository uses, `_out/` in `.gitignore`.

use std::path::Path;

use olm_release_init::{CiService, Fate, init};

use crate::support::{pin, put, said};

const CSV: &str = "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: memcached-operator.v0.0.1\n  annotations:\n    containerImage: quay.io/example/memcached-operator:v0.0.1\nspec:\n  version: 0.0.1\n  install:\n    strategy: deployment\n    spec:\n      deployments:\n      - name: memcached-operator-controller-manager\n        spec:\n          selector: {matchLabels: {control-plane: controller-manager}}\n          template:\n            metadata: {labels: {control-plane: controller-manager}}\n            spec:\n              containers:\n              - name: manager\n                image: quay.io/example/memcached-operator:v0.0.1\n";

const SCORECARD: &str = "apiVersion: scorecard.operatorframework.io/v1alpha3\nkind: Configuration\nmetadata:\n  name: config\nstages:\n- parallel: true\n  tests: []\n";

/// The annotations operator-sdk's `generate bundle` writes, with `channels`.
fn annotations(channels: &str) -> String {
    format!(
        "annotations:\n  operators.operatorframework.io.bundle.mediatype.v1: registry+v1\n  operators.operatorframework.io.bundle.manifests.v1: manifests/\n  operators.operatorframework.io.bundle.metadata.v1: metadata/\n  operators.operatorframework.io.bundle.package.v1: memcached-operator\n  operators.operatorframework.io.bundle.channels.v1: {channels}\n  operators.operatorframework.io.metrics.builder: operator-sdk-v1.39.0\n  operators.operatorframework.io.test.config.v1: tests/scorecard/\n  com.redhat.openshift.versions: v4.12\n"
    )
}

/// A registry+v1 bundle folder at `root` with a Service named `service`.
fn bundle(d: &Path, root: &str, channels: &str, service: &str) {
    put(
        d,
        &format!("{root}/manifests/memcached-operator.clusterserviceversion.yaml"),
        CSV,
    );
    put(
        d,
        &format!("{root}/manifests/{service}_v1_service.yaml"),
        &format!(
            "apiVersion: v1\nkind: Service\nmetadata:\n  name: {service}\nspec:\n  ports: [{{port: 8443}}]\n"
        ),
    );
    put(
        d,
        &format!("{root}/metadata/annotations.yaml"),
        &annotations(channels),
    );
    put(d, &format!("{root}/tests/scorecard/config.yaml"), SCORECARD);
}

fn read(r: &Path, rel: &str) -> String {
    std::fs::read_to_string(r.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn request(r: &Path) -> olm_release_init::Request {
    let mut asked = olm_release_init::Request::new(r, pin());
    asked.github = Some("example/memcached-operator".into());
    asked
}

#[test]
fn channels_come_from_the_makefile_before_the_bundle_and_from_the_command_line_first() {
    let repo = tempfile::tempdir().unwrap();
    let r = repo.path();
    bundle(r, "bundle", "alpha", "metrics");
    let from_bundle = init(&request(r)).unwrap();
    assert!(read(r, "pipelines/release.yaml").contains("channel: ${CHANNEL:-alpha}\n"));
    assert!(said(&from_bundle).contains("channel alpha (from bundle/metadata/annotations.yaml)"));

    put(
        r,
        "Makefile",
        "# (e.g make bundle CHANNELS=candidate,fast,stable)\nCHANNELS ?= \"stable-v1.5,stable\"\nDEFAULT_CHANNEL ?= stable\nBUNDLE_METADATA_OPTS ?= $(BUNDLE_CHANNELS)\n",
    );
    let mut again = request(r);
    again.force = true;
    let from_make = init(&again).unwrap();
    let pipeline = read(r, "pipelines/release.yaml");
    assert!(
        pipeline.contains("channels: [stable-v1.5, stable]\ndefault_channel: stable\n"),
        "{pipeline}"
    );
    let package = read(r, "olm/bundle/memcached-operator.package.yaml.in");
    assert!(
        package.contains("  - name: stable\n") && package.contains("defaultChannel: stable\n"),
        "{package}"
    );
    let text = said(&from_make);
    assert!(
        text.contains(
            "channels stable-v1.5, stable, default stable (from the Makefile's CHANNELS)"
        ),
        "{text}"
    );
    assert!(
        text.contains("channels stable-v1.5, stable from the Makefile's CHANNELS, not alpha"),
        "{text}"
    );

    again.channels = vec!["fast".into(), "candidate".into()];
    again.default_channel = Some("candidate".into());
    init(&again).unwrap();
    let pipeline = read(r, "pipelines/release.yaml");
    assert!(
        pipeline.contains("channels: [fast, candidate]\ndefault_channel: candidate\n"),
        "{pipeline}"
    );
}

#[test]
fn a_committed_bundles_annotations_and_scorecard_travel_with_the_release() {
    let repo = tempfile::tempdir().unwrap();
    let r = repo.path();
    bundle(r, "bundle", "alpha", "metrics");
    init(&request(r)).unwrap();
    let pipeline = read(r, "pipelines/release.yaml");
    assert!(
        pipeline.contains("    BundleMetadata: bundle/metadata\n"),
        "{pipeline}"
    );
    assert!(
        pipeline.contains("    ScorecardTests: bundle/tests/scorecard\n"),
        "{pipeline}"
    );
    assert!(pipeline.contains("  functions: sprig"), "{pipeline}");
    let ann = read(r, "olm/bundle/metadata/annotations.yaml.in");
    assert!(
        ann.contains("{{index .BundleMetadata \"annotations.yaml\" | replace \"operators.operatorframework.io.bundle.package.v1: memcached-operator\" (print \"operators.operatorframework.io.bundle.package.v1: \" .PackageName)}}"),
        "{ann}"
    );
    let tests = read(r, "olm/bundle/tests/scorecard/config.yaml.in");
    assert!(
        tests.ends_with("{{index .ScorecardTests \"config.yaml\"}}"),
        "{tests}"
    );
}

#[test]
fn two_flavours_one_released_the_other_a_variant_or_chosen_by_path() {
    let repo = tempfile::tempdir().unwrap();
    let r = repo.path();
    bundle(r, "bundle/community", "alpha", "metrics");
    bundle(r, "bundle/openshift", "alpha", "openshift-metrics");
    put(
        r,
        "Makefile",
        "BUNDLE_VARIANT ?= openshift\nBUNDLE_DIR = ./bundle/$(BUNDLE_VARIANT)\n",
    );
    let outcome = init(&request(r)).unwrap();
    let pipeline = read(r, "pipelines/release.yaml");
    assert!(
        pipeline.contains("    Bundle: bundle/openshift/manifests\n"),
        "the Makefile's variant:\n{pipeline}"
    );
    assert!(pipeline.contains("  community:"), "{pipeline}");
    assert!(
        pipeline.contains("      templates: olm-community\n"),
        "{pipeline}"
    );
    assert!(
        pipeline.contains("        Bundle: bundle/community/manifests\n"),
        "{pipeline}"
    );
    assert!(
        pipeline.contains("      target: quay.io/example/memcached-operator-community-bundle\n"),
        "{pipeline}"
    );
    assert!(
        pipeline.contains("      path: catalog-community\n"),
        "{pipeline}"
    );
    assert!(
        r.join("olm-community/bundle/metrics_v1_service.yaml.in")
            .is_file()
    );
    assert!(
        r.join("olm/bundle/openshift-metrics_v1_service.yaml.in")
            .is_file()
    );
    assert!(
        said(&outcome).contains("bundle flavours of memcached-operator: bundle/openshift/ released; bundle/community/ as --variant community"),
        "{}",
        said(&outcome)
    );

    let mut chosen = request(r);
    chosen.force = true;
    chosen.operator = Some("bundle/community/".into());
    init(&chosen).unwrap();
    let pipeline = read(r, "pipelines/release.yaml");
    assert!(
        pipeline.contains("    Bundle: bundle/community/manifests\n"),
        "{pipeline}"
    );
    assert!(pipeline.contains("  openshift:"), "{pipeline}");

    chosen.operator = Some("bundle/next".into());
    let err = init(&chosen).unwrap_err().to_string();
    assert!(
        err.contains("--operator bundle/next: no such operator here"),
        "{err}"
    );
}

#[test]
fn the_smaller_points_capitals_duplicates_ci_and_gitignore() {
    let repo = tempfile::tempdir().unwrap();
    let r = repo.path();
    bundle(r, "bundle", "alpha", "metrics");
    let secret = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: token\nstringData: {a: b}\n";
    put(r, "bundle/manifests/token_v1_secret.yaml", secret);
    put(r, "bundle/manifests/token-copy_v1_secret.yaml", secret);
    put(r, ".gitignore", "bin/");
    let mut asked = request(r);
    asked.github = Some("Acme/Memcached-Operator".into());
    let outcome = init(&asked).unwrap();
    let text = said(&outcome);

    // The image organisation lowercased, and said.
    assert!(
        read(r, "pipelines/release.yaml")
            .contains("target: ${BUNDLE_IMAGE:-quay.io/acme/memcached-operator-bundle}")
    );
    assert!(text.contains("image organisation acme, not Acme"), "{text}");

    // One Secret of the two same files.
    assert!(r.join("olm/bundle/token-copy_v1_secret.yaml.in").is_file());
    assert!(
        !r.join("olm/bundle/token_v1_secret.yaml.in").exists(),
        "{text}"
    );
    assert!(text.contains("bundle/manifests/token_v1_secret.yaml: the same bytes as bundle/manifests/token-copy_v1_secret.yaml"), "{text}");

    // No CI guessed; _out/ ignored, the other lines kept.
    assert!(!r.join(".travis.yml").exists() && !r.join(".github").exists());
    assert!(
        text.contains("no CI configuration: the repository has no .github/workflows/"),
        "{text}"
    );
    assert_eq!(
        read(r, ".gitignore"),
        "bin/\n# olm-release's work folder (olm-release init)\n_out/\n"
    );
    assert!(
        outcome
            .files
            .iter()
            .any(|f| f.path == r.join(".gitignore") && f.fate == Fate::Edited)
    );

    // GitLab: its job file, and the include asked for.
    put(r, ".gitlab-ci.yml", "stages: [test]\n");
    let again = init(&asked).unwrap();
    let job = read(r, ".gitlab/olm-release.gitlab-ci.yml");
    assert!(
        job.contains("olm-release run pipelines/release.yaml --variant alpha"),
        "{job}"
    );
    assert!(job.contains(&pin().sha256), "{job}");
    assert!(said(&again).contains(
        "add to .gitlab-ci.yml: `include: [{local: .gitlab/olm-release.gitlab-ci.yml}]`"
    ));
    assert!(!r.join(".travis.yml").exists());
    let mut github = asked.clone();
    github.ci = Some(vec![CiService::Github]);
    init(&github).unwrap();
    assert!(
        r.join(".github/workflows/olm-release.yml").is_file(),
        "--ci github"
    );
}
