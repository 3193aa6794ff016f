//! `verify` reads a CSV's install strategy as the Kubernetes API server reads the Deployments OLM
//! creates from it, under both profiles: a CSV shaped like the one `init` once wrote for
//! jaeger-operator (its Deployment taken from a kustomize patch: no selector, no replicas, no
//! service account, a `manager` container without an image) fails, each finding naming its
//! field; the same CSV completed passes; the rules are in `verify --list-rules` with the tool
//! that enforces them.

use std::path::Path;

use crate::support::{assert_code, olm_release, stderr, stdout};

const PACKAGE: &str = "packageName: jaeger\nchannels:\n  - name: stable\n    currentCSV: jaeger-operator.v1.24.0\ndefaultChannel: stable\n";

/// The CSV, with the Deployment spec given (indented for `spec:` of the deployment entry).
fn csv(deployment_spec: &str) -> String {
    format!(
        r#"apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: jaeger-operator.v1.24.0
  annotations:
    capabilities: Deep Insights
    categories: Logging & Tracing
    certified: "false"
    containerImage: quay.io/jaegertracing/jaeger-operator:1.24.0
    createdAt: "2021-07-14T00:00:00Z"
    description: Provides tracing, monitoring and troubleshooting for microservices-based distributed systems
    repository: https://github.com/jaegertracing/jaeger-operator
    support: Jaeger
    alm-examples: '[]'
spec:
  displayName: Community Jaeger Operator
  description: Jaeger, inspired by Dapper and OpenZipkin.
  version: 1.24.0
  maturity: stable
  maintainers:
    - name: Jaeger Google Group
      email: jaeger-tracing@googlegroups.com
  provider:
    name: CNCF
  links:
    - name: Jaeger Operator
      url: https://github.com/jaegertracing/jaeger-operator
  icon:
    - base64data: iVBORw0KGgo=
      mediatype: image/png
  installModes:
    - type: OwnNamespace
      supported: true
    - type: SingleNamespace
      supported: true
    - type: MultiNamespace
      supported: true
    - type: AllNamespaces
      supported: true
  install:
    strategy: deployment
    spec:
      clusterPermissions:
        - serviceAccountName: jaeger-operator
          rules:
            - apiGroups: ["jaegertracing.io"]
              resources: ["jaegers"]
              verbs: ["get", "list", "watch", "update"]
      deployments:
        - name: jaeger-operator
          spec:
{deployment_spec}"#
    )
}

/// `config/default/manager_auth_proxy_patch.yaml` as kustomize patches hold it: the fields the
/// patch changes and nothing else.
const FROM_PATCH: &str = "            template:
              spec:
                containers:
                  - name: kube-rbac-proxy
                    image: gcr.io/kubebuilder/kube-rbac-proxy:v0.8.0
                    args: [--secure-listen-address=0.0.0.0:8443]
                  - name: manager
                    args: [--metrics-addr=127.0.0.1:8080]
";

const COMPLETE: &str = "            replicas: 1
            selector:
              matchLabels:
                name: jaeger-operator
            template:
              metadata:
                labels:
                  name: jaeger-operator
              spec:
                serviceAccountName: jaeger-operator
                containers:
                  - name: kube-rbac-proxy
                    image: gcr.io/kubebuilder/kube-rbac-proxy:v0.8.0
                  - name: manager
                    image: quay.io/jaegertracing/jaeger-operator:1.24.0
";

fn bundle(dir: &Path, spec: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("jaeger.package.yaml"), PACKAGE).unwrap();
    std::fs::write(
        dir.join("jaeger-operator.v1.24.0.clusterserviceversion.yaml"),
        csv(spec),
    )
    .unwrap();
}

#[test]
fn a_deployment_from_a_kustomize_patch_fails_under_both_profiles_naming_each_field() {
    let tmp = tempfile::tempdir().unwrap();
    let broken = tmp.path().join("broken");
    let good = tmp.path().join("good");
    bundle(&broken, FROM_PATCH);
    bundle(&good, COMPLETE);
    let base = "spec.install.spec.deployments[jaeger-operator]";
    for profile in ["appregistry-2019", "modern"] {
        let o = olm_release(tmp.path(), &["verify", "--profile", profile, "broken"], &[]);
        assert_code(&o, 1);
        let err = format!("{}{}", stdout(&o), stderr(&o));
        for needle in [
            format!(
                "error[deployment-selector] jaeger-operator.v1.24.0.clusterserviceversion.yaml: jaeger-operator.v1.24.0 {base}.spec.selector: is missing (spec.selector: Required value)"
            ),
            format!(
                "error[deployment-containers] jaeger-operator.v1.24.0.clusterserviceversion.yaml: jaeger-operator.v1.24.0 {base}.spec.template.spec.containers[manager].image: is missing (Required value)"
            ),
            format!(
                "warning[deployment-permissions] jaeger-operator.v1.24.0.clusterserviceversion.yaml: jaeger-operator.v1.24.0 {base}.spec.template.spec.serviceAccountName: is missing: the pods run as the namespace's default account, which the CSV grants nothing; its permissions go to jaeger-operator"
            ),
            "(enforced by apiserver)".to_string(),
        ] {
            assert!(
                err.contains(&needle),
                "{profile}: missing {needle:?} in\n{err}"
            );
        }
        // The kube-rbac-proxy container has its image: no finding about it.
        assert!(!err.contains("containers[kube-rbac-proxy]"), "{err}");

        let o = olm_release(tmp.path(), &["verify", "--profile", profile, "good"], &[]);
        assert_code(&o, 0);
        assert!(!stderr(&o).contains("deployment-"), "{}", stderr(&o));
    }
}

#[test]
fn a_selector_must_match_the_template_and_an_account_must_be_created() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        (
            "mismatch",
            COMPLETE.replace(
                "              matchLabels:\n                name: jaeger-operator\n",
                "              matchExpressions:\n                - {key: name, operator: In, values: [jaeger]}\n",
            ),
            "deployment-selector",
            "spec.selector: does not match the template's labels (name In [jaeger]; `selector` does not match template `labels`)",
        ),
        (
            "empty",
            COMPLETE.replace(
                "              matchLabels:\n                name: jaeger-operator\n",
                "              matchLabels: {}\n",
            ),
            "deployment-selector",
            "spec.selector: is empty (empty selector is invalid for deployment)",
        ),
        (
            "account",
            COMPLETE.replace(
                "serviceAccountName: jaeger-operator",
                "serviceAccountName: jaeger",
            ),
            "deployment-service-account",
            "serviceAccountName: names service account jaeger, which no permissions or clusterPermissions entry names (they name jaeger-operator)",
        ),
        (
            "twice",
            COMPLETE.replace("- name: kube-rbac-proxy", "- name: manager"),
            "deployment-containers",
            "containers[manager].name: 'manager' is used by two containers (Duplicate value)",
        ),
    ];
    for (name, spec, rule, needle) in cases {
        bundle(&tmp.path().join(name), &spec);
        for profile in ["appregistry-2019", "modern"] {
            let o = olm_release(tmp.path(), &["verify", "--profile", profile, name], &[]);
            assert_code(&o, 1);
            let err = format!("{}{}", stdout(&o), stderr(&o));
            assert!(
                err.contains(&format!("error[{rule}]")) && err.contains(needle),
                "{name} ({profile}): missing {needle:?} in\n{err}"
            );
        }
    }
}

#[test]
fn the_rules_are_listed_with_the_api_server_as_their_tool() {
    let tmp = tempfile::tempdir().unwrap();
    let o = olm_release(tmp.path(), &["verify", "--list-rules"], &[]);
    assert_code(&o, 0);
    let text = stdout(&o);
    for rule in [
        "deployment-selector",
        "deployment-containers",
        "deployment-service-account",
    ] {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("{rule} ")))
            .unwrap_or_else(|| panic!("{rule} not listed:\n{text}"));
        assert!(
            line.contains("apiserver E") && line.matches(" E ").count() >= 3,
            "{line}"
        );
    }
    assert!(
        text.contains("deployment-permissions (W/W): the operator may run without"),
        "{text}"
    );
    let o = olm_release(
        tmp.path(),
        &["--format", "json", "verify", "--list-rules"],
        &[],
    );
    let rows: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let row = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "deployment-selector")
        .unwrap();
    assert_eq!(row["enforced_by"]["apiserver"], "error");
    for profile in ["appregistry-2019", "modern"] {
        assert_eq!(row["levels"][profile], "error", "{row}");
    }
}
