//! Every object `install-manifests` writes is one the API server accepts, checked against
//! Kubernetes' own OpenAPI schemas: the apps/v1 DeploymentSpec and the rbac/v1 PolicyRule as
//! operator-framework/api's ClusterServiceVersion CRD embeds them (generated from Kubernetes'
//! Go types; `../shared/olm-crds/operator-framework-api`, the schemas the rendered CSVs are
//! checked against), and, for the kinds no schema here covers, the fields the Kubernetes API
//! reference marks required (a binding's `roleRef` and subjects, a webhook's `name`,
//! `clientConfig`, `sideEffects` and `admissionReviewVersions`; every object's apiVersion, kind
//! and an RFC 1123 name). The objects: every fixture bundle rendered with each certificate
//! provider, the fixtures' expected objects, and operator-controller's regression goldens
//! (which the domain's oracle test proves equal, as data, to what install-manifests renders for
//! their bundles), read from `OPERATOR_CONTROLLER_SOURCE` (default: the mirror this project's
//! machines keep). Without the shared folder or the snapshot the test says so and skips that
//! part.

use std::path::{Path, PathBuf};
use std::process::Command;

use olm_release_olm::cluster::{self, CertProvider, Options, RegistryV1};
use serde_yaml_ng::Value;

use super::schema;
use crate::support::{self, root};

const CSV_CRD: &str =
    "olm-crds/operator-framework-api/operators.coreos.com_clusterserviceversions.yaml";
const GOLDENS: &str = "test/regression/convert/testdata/expected-manifests";

/// The DeploymentSpec and PolicyRule schemas of the CSV CRD.
struct Schemas {
    deployment_spec: Value,
    policy_rule: Value,
}

fn schemas(shared: &Path) -> Schemas {
    let csv = schema::from_crd(&shared.join(CSV_CRD), "operators.coreos.com/v1alpha1");
    let install =
        &csv["properties"]["spec"]["properties"]["install"]["properties"]["spec"]["properties"];
    let schemas = Schemas {
        deployment_spec: install["deployments"]["items"]["properties"]["spec"].clone(),
        policy_rule: install["permissions"]["items"]["properties"]["rules"]["items"].clone(),
    };
    assert!(schemas.deployment_spec["properties"]["template"].is_mapping());
    assert!(schemas.policy_rule["properties"]["verbs"].is_mapping());
    schemas
}

fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or_default()
}

fn rfc1123(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 253
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.')
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.ends_with(|c: char| c.is_ascii_alphanumeric())
}

/// Every problem of `o`, as `label: problem`.
fn problems(s: &Schemas, label: &str, o: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut bad = |p: String| out.push(format!("{label}: {p}"));
    let kind = text(o, "kind");
    if text(o, "apiVersion").is_empty() || kind.is_empty() {
        bad("no apiVersion or kind".into());
    }
    let name = o["metadata"]["name"].as_str().unwrap_or_default();
    if !rfc1123(name) {
        bad(format!(
            "metadata.name {name:?} is not an RFC 1123 subdomain"
        ));
    }
    match kind {
        "Deployment" => {
            for e in schema::check(&s.deployment_spec, &o["spec"]) {
                bad(format!("spec{}", e.trim_start_matches('$')));
            }
        }
        "Role" | "ClusterRole" => {
            for (i, rule) in o["rules"].as_sequence().into_iter().flatten().enumerate() {
                for e in schema::check(&s.policy_rule, rule) {
                    bad(format!("rules[{i}]{}", e.trim_start_matches('$')));
                }
            }
        }
        "RoleBinding" | "ClusterRoleBinding" => {
            let r = &o["roleRef"];
            if text(r, "apiGroup") != "rbac.authorization.k8s.io" || text(r, "name").is_empty() {
                bad("roleRef needs apiGroup rbac.authorization.k8s.io, kind and name".into());
            }
            for subject in o["subjects"].as_sequence().into_iter().flatten() {
                if text(subject, "kind").is_empty() || text(subject, "name").is_empty() {
                    bad("a subject needs kind and name".into());
                }
            }
        }
        "ValidatingWebhookConfiguration" | "MutatingWebhookConfiguration" => {
            for w in o["webhooks"].as_sequence().into_iter().flatten() {
                if text(w, "name").is_empty()
                    || !w["clientConfig"].is_mapping()
                    || text(w, "sideEffects").is_empty()
                    || !w["admissionReviewVersions"].is_sequence()
                {
                    bad(format!(
                        "webhook {:?} lacks a required field",
                        text(w, "name")
                    ));
                }
            }
        }
        _ => {}
    }
    out
}

fn fixtures() -> PathBuf {
    root().join("fixtures/install")
}

/// Every object of the fixture bundles rendered with both certificate providers (in their own
/// namespace when they do not support all namespaces), with a label.
fn fixture_renders() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(fixtures().join("bundles")).unwrap() {
        let dir = e.unwrap().path();
        let bundle = RegistryV1::from_files(
            olm_release_olm::bundle_image::BundleFolder::read(&dir)
                .unwrap()
                .files(),
        )
        .unwrap();
        let all = bundle
            .supported_install_modes()
            .iter()
            .any(|m| m == "AllNamespaces");
        for provider in [CertProvider::CertManager, CertProvider::OpenshiftServiceCa] {
            let opts = Options {
                install_namespace: "operators".into(),
                watch_namespace: (!all).then(|| "operators".into()),
                deployment_config: None,
                cert_provider: Some(provider),
            };
            let objects = cluster::render(&bundle, &opts)
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
            for o in objects {
                out.push((format!("{} ({provider:?})", dir.display()), o));
            }
        }
    }
    out
}

/// Every file under `dir`, recursively, parsed.
fn expected_files(dir: &Path, out: &mut Vec<(String, Value)>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        if path.is_dir() {
            expected_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "yaml") {
            let v = serde_yaml_ng::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            out.push((path.display().to_string(), v));
        }
    }
}

/// operator-controller's goldens, or why there are none here.
fn goldens() -> Result<Vec<(String, Value)>, String> {
    let source = std::env::var("OPERATOR_CONTROLLER_SOURCE")
        .unwrap_or_else(|_| "/work/.mirror/operator-framework+operator-controller/repo".into());
    let git = |args: &[&str]| {
        Command::new("git")
            .arg("--git-dir")
            .arg(&source)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| o.stdout)
    };
    let list = git(&["ls-tree", "-r", "--name-only", "HEAD", GOLDENS])
        .ok_or_else(|| format!("no snapshot of operator-framework/operator-controller at {source} (set OPERATOR_CONTROLLER_SOURCE)"))?;
    let mut out = Vec::new();
    for path in String::from_utf8(list).unwrap().lines() {
        let bytes = git(&["show", &format!("HEAD:{path}")]).expect("a listed file");
        out.push((path.to_string(), serde_yaml_ng::from_slice(&bytes).unwrap()));
    }
    Ok(out)
}

#[test]
fn every_object_install_manifests_writes_passes_kubernetes_schemas() {
    let Some(shared) = support::shared() else {
        eprintln!("skipped: no shared folder beside the repository (the CSV CRD's schemas)");
        return;
    };
    let s = schemas(&shared);
    let mut objects = fixture_renders();
    expected_files(&fixtures().join("expected-manifests"), &mut objects);
    match goldens() {
        Ok(g) => {
            assert!(g.len() > 50, "operator-controller's goldens: {}", g.len());
            objects.extend(g);
        }
        Err(why) => eprintln!("operator-controller's goldens skipped: {why}"),
    }
    let deployments = objects
        .iter()
        .filter(|(_, o)| text(o, "kind") == "Deployment")
        .count();
    assert!(deployments >= 10, "{deployments} Deployments checked");
    eprintln!(
        "{} objects checked, {deployments} of them Deployments",
        objects.len()
    );
    let all: Vec<String> = objects
        .iter()
        .flat_map(|(label, o)| problems(&s, label, o))
        .collect();
    assert!(all.is_empty(), "{all:#?}");
}

#[test]
fn the_checks_fail_on_what_the_api_server_refuses() {
    let Some(shared) = support::shared() else {
        return;
    };
    let s = schemas(&shared);
    let (label, mut deployment) = fixture_renders()
        .into_iter()
        .find(|(_, o)| {
            o["spec"]["template"]["spec"]["containers"][0]
                .get("ports")
                .is_some()
        })
        .expect("a fixture Deployment with ports");
    deployment["spec"]["template"]["spec"]["containers"][0]["ports"][0]["containerPort"] =
        Value::String("https".into());
    let p = problems(&s, &label, &deployment);
    assert!(p.iter().any(|p| p.contains("containerPort")), "{p:#?}");
    let rule: Value = serde_yaml_ng::from_str("{apiGroups: [''], resources: [pods]}").unwrap();
    let role: Value = serde_yaml_ng::from_str(
        "{apiVersion: rbac.authorization.k8s.io/v1, kind: Role, metadata: {name: Bad_Name}}",
    )
    .unwrap();
    let mut role = role;
    role["rules"] = Value::Sequence(vec![rule]);
    let p = problems(&s, "role", &role);
    assert_eq!(p.len(), 2, "{p:#?}");
}
