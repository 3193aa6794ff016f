//! operator-controller's regression goldens as the oracle: each case of
//! `test/regression/convert/generate-manifests.go` (argocd-operator v0.6.0 for all, single and
//! own namespaces and with deployment configurations; webhook-operator v0.0.5 with every webhook
//! type) is extracted with `git show` from a snapshot of operator-framework/operator-controller
//! (`OPERATOR_CONTROLLER_SOURCE`, a git directory; by default the mirror this project's machines
//! keep) and rendered here; every object must equal its golden file as data.

use std::path::{Path, PathBuf};
use std::process::Command;

use olm_release_olm::cluster::{DeploymentConfig, Options};

use super::common::compare;

const DEFAULT_SOURCE: &str = "/work/.mirror/operator-framework+operator-controller/repo";
const TESTDATA: &str = "test/regression/convert/testdata";

/// generate-manifests.go's `WithDeploymentConfigOptions` case, as a `deploymentConfig`.
const ALL_OPTIONS: &str = r#"
nodeSelector:
  kubernetes.io/os: linux
tolerations:
- {key: some/key, operator: Equal, effect: NoSchedule}
- {key: someother/key, operator: Exists, effect: NoExecute, tolerationSeconds: 120}
resources:
  requests: {cpu: 100m, memory: 128Mi}
  limits: {cpu: 500m, memory: 512Mi}
env:
- {name: CUSTOM_ENV_VAR, value: custom-value}
- {name: LOG_LEVEL, value: debug}
envFrom:
- {prefix: test}
- configMapRef: {name: configmapForTest}
- secretRef: {name: secretForTest}
volumes:
- name: test-configmap-volume
  configMap: {name: testVolumeConfigMap}
- name: test-emptydir-volume
  emptyDir: {}
volumeMounts:
- {name: test-configmap-volume, mountPath: /test-volume-mount, readOnly: true}
affinity:
  nodeAffinity:
    requiredDuringSchedulingIgnoredDuringExecution:
      nodeSelectorTerms:
      - matchExpressions:
        - {key: kubernetes.io/os, operator: In, values: [linux]}
        matchFields:
        - {key: key, operator: In, values: [val1, val2]}
  podAffinity:
    requiredDuringSchedulingIgnoredDuringExecution:
    - labelSelector:
        matchLabels: {app.kubernetes.io/name: test-app}
      topologyKey: topKey
      namespaces: [test, test2]
  podAntiAffinity:
    preferredDuringSchedulingIgnoredDuringExecution:
    - weight: 100
      podAffinityTerm:
        labelSelector:
          matchLabels: {app.kubernetes.io/name: test-app-2}
        topologyKey: topKey2
annotations:
  foo: bar
  testkey: testval
"#;

/// generate-manifests.go's cases: bundle, case folder, install namespace, watch namespace,
/// deployment configuration.
const CASES: &[(&str, &str, &str, &str, Option<&str>)] = &[
    (
        "argocd-operator.v0.6.0",
        "all-namespaces",
        "argocd-system",
        "",
        None,
    ),
    (
        "argocd-operator.v0.6.0",
        "single-namespace",
        "argocd-system",
        "argocd-watch",
        None,
    ),
    (
        "argocd-operator.v0.6.0",
        "own-namespace",
        "argocd-system",
        "argocd-system",
        None,
    ),
    (
        "webhook-operator.v0.0.5",
        "all-webhook-types",
        "webhook-system",
        "",
        None,
    ),
    (
        "argocd-operator.v0.6.0",
        "with-deploymentconfig-options",
        "argocd-system",
        "",
        Some(ALL_OPTIONS),
    ),
    (
        "argocd-operator.v0.6.0",
        "with-empty-affinity",
        "argocd-system",
        "",
        Some("affinity: {}"),
    ),
    (
        "argocd-operator.v0.6.0",
        "with-empty-affinity-subtype",
        "argocd-system",
        "",
        Some("affinity: {nodeAffinity: {}}"),
    ),
];

/// The snapshot, or why the test is skipped.
fn source() -> Result<PathBuf, String> {
    if std::env::var("CI").as_deref() == Ok("true") {
        return Err("CI=true: CI machines keep no snapshot of operator-framework/operator-controller; the fixtures test covers the rendering there".into());
    }
    let path =
        std::env::var("OPERATOR_CONTROLLER_SOURCE").unwrap_or_else(|_| DEFAULT_SOURCE.into());
    let path = PathBuf::from(path);
    if !path.exists() {
        return Err(format!(
            "no snapshot of operator-framework/operator-controller at {} (set OPERATOR_CONTROLLER_SOURCE to its git directory)",
            path.display()
        ));
    }
    Ok(path)
}

fn git(source: &Path, args: &[&str]) -> Vec<u8> {
    let out = Command::new("git")
        .arg("--git-dir")
        .arg(source)
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Writes every file under `TESTDATA` of the snapshot's HEAD into `into`.
fn extract(source: &Path, into: &Path) {
    let list = git(source, &["ls-tree", "-r", "--name-only", "HEAD", TESTDATA]);
    for path in String::from_utf8(list).unwrap().lines() {
        let rel = path.strip_prefix(TESTDATA).unwrap().trim_start_matches('/');
        let target = into.join(rel);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(&target, git(source, &["show", &format!("HEAD:{path}")])).unwrap();
    }
}

#[test]
fn every_golden_of_operator_controller_is_rendered_equal() {
    let source = match source() {
        Ok(s) => s,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let tmp = tempfile::tempdir().unwrap();
    extract(&source, tmp.path());
    let mut diffs = Vec::new();
    for (bundle, case, install, watch, config) in CASES {
        let opts = Options {
            install_namespace: install.to_string(),
            watch_namespace: Some(watch.to_string()),
            deployment_config: config.map(|c| DeploymentConfig::parse(c).unwrap()),
            cert_provider: None,
        };
        diffs.extend(compare(
            &tmp.path().join("bundles").join(bundle),
            &tmp.path()
                .join("expected-manifests")
                .join(bundle)
                .join(case),
            &opts,
        ));
    }
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
}
