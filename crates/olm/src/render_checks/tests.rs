//! The render checks as the executor calls them: one [`check`] over what rendered.

use super::*;
use crate::Level;
use crate::testing::package;

const CSV: &str = "kind: ClusterServiceVersion\nmetadata:\n  name: op.v0.1.0\nspec:\n  version: 0.1.0\n  customresourcedefinitions:\n    owned:\n    - statusDescriptors:\n      - path: phase\n          - 'urn:alm:descriptor:text'\n";

fn subscription(name: &str, channel: &str) -> (String, Value) {
    let text = format!(
        "kind: Subscription\nmetadata:\n  name: sub\nspec:\n  name: {name}\n  channel: {channel}\n"
    );
    (
        "deploy/sub.yaml.in".into(),
        serde_yaml_ng::from_str(&text).unwrap(),
    )
}

fn rules(findings: &[Finding]) -> Vec<(&str, Level)> {
    findings
        .iter()
        .map(|f| (f.rule.as_str(), f.level))
        .collect()
}

#[test]
fn one_check_repairs_the_csv_and_reports_in_order() {
    let mut csv: Value = serde_yaml_ng::from_str(CSV).unwrap();
    let pkg = package(&[("beta", "op.v0.1.0")]);
    let helpers = [
        subscription("kubevirt", "beta"),
        subscription("op", "alpha"),
    ];
    let findings = check(
        Rendered {
            csv: &mut csv,
            csv_template: "csv.yaml.in",
            csv_template_text: CSV,
            package: &pkg,
            package_file: "op.package.yaml.in",
            helpers: &helpers,
        },
        Wanted {
            package: "other",
            channels: &["stable".into()],
        },
    );
    assert_eq!(
        rules(&findings),
        [
            ("descriptor-path-folded", Level::Warning),
            ("package-name", Level::Error),
            ("package-channel", Level::Error),
            ("subscription-package", Level::Warning),
            ("subscription-channel", Level::Warning),
        ]
    );
    assert_eq!(findings[1].file, "op.package.yaml.in");
    assert_eq!(findings[3].file, "deploy/sub.yaml.in");
    assert!(
        findings[4].message.contains("only beta"),
        "{}",
        findings[4].message
    );
    // The CSV the executor writes is the repaired one.
    let d = &csv["spec"]["customresourcedefinitions"]["owned"][0]["statusDescriptors"][0];
    assert_eq!(d["path"], Value::from("phase"));
}

#[test]
fn a_package_on_one_of_the_release_channels_passes() {
    let mut csv: Value = serde_yaml_ng::from_str("kind: ClusterServiceVersion\n").unwrap();
    let pkg = package(&[("beta", "op.v0.1.0")]);
    let findings = check(
        Rendered {
            csv: &mut csv,
            csv_template: "csv.yaml.in",
            csv_template_text: "",
            package: &pkg,
            package_file: "op.package.yaml",
            helpers: &[subscription("op", "beta")],
        },
        Wanted {
            package: "op",
            channels: &["stable".into(), "beta".into()],
        },
    );
    assert!(findings.is_empty(), "{findings:?}");
}

#[test]
fn a_tagged_release_warns_about_images_at_other_tags() {
    let text = "kind: ClusterServiceVersion\nmetadata:\n  name: op.v1.2.0\nspec:\n  install:\n    spec:\n      deployments:\n      - spec:\n          template:\n            spec:\n              containers:\n              - image: quay.io/op/a:latest\n              - image: quay.io/op/b:1.2.0\n              - image: quay.io/op/c:v1.1.0\n              - image: quay.io/op/d@sha256:0000\n";
    let csv = Manifest::new("csv.yaml", serde_yaml_ng::from_str(text).unwrap());
    let warnings = image_tags(&csv, "v1.2.0");
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].contains("quay.io/op/a:latest in the CSV still points at latest"));
    assert!(
        warnings[0].contains("render.csv.images (by container name)"),
        "{warnings:?}"
    );
    assert!(warnings[1].contains("quay.io/op/c:v1.1.0 in the CSV is at tag v1.1.0"));
}

#[test]
fn only_the_operators_own_images_are_warned_about_with_the_key_that_sets_them() {
    let text = "kind: ClusterServiceVersion\nmetadata:\n  name: op.v1.2.0\n  annotations:\n    containerImage: quay.io/acme/op:v1.2.0\nspec:\n  install:\n    spec:\n      deployments:\n      - spec:\n          template:\n            spec:\n              containers:\n              - name: kube-rbac-proxy\n                image: gcr.io/kubebuilder/kube-rbac-proxy:v0.13.0\n              - name: manager\n                image: quay.io/acme/op:v1.2.0\n              - name: agent\n                image: quay.io/acme/agent:latest\n";
    let csv = Manifest::new("csv.yaml", serde_yaml_ng::from_str(text).unwrap());
    let warnings = image_tags(&csv, "v1.2.0");
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].contains("quay.io/acme/agent:latest")
            && warnings[0].contains(
                "set render.csv.images.agent in the pipeline to quay.io/acme/agent:v1.2.0"
            ),
        "{warnings:?}"
    );
}

#[test]
fn the_epoch_warning_names_the_source_and_the_fix() {
    let f = epoch_created_at("olm-release.yaml", "/src/op");
    assert_eq!((f.rule.as_str(), f.level), ("created-at", Level::Warning));
    assert_eq!(f.file, "olm-release.yaml");
    assert!(
        f.message.contains("/src/op is not a git checkout"),
        "{}",
        f.message
    );
    assert!(f.fix.contains("SOURCE_DATE_EPOCH"), "{}", f.fix);
}
