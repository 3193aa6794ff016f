//! Independent expectations for KubeVirt's inputs: the generated RBAC and Deployment files read
//! with plain text substitution of their few actions (no template engine), and rules compared
//! by what they allow.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use base64::Engine as _;
use serde_yaml_ng::Value;

use super::EPOCH_TEXT;

pub fn decode(b64: &str) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(b64)
        .unwrap()
}

/// Every non-empty YAML document of `text`.
pub fn docs(text: &str) -> Vec<Value> {
    serde_yaml_ng::Deserializer::from_str(text)
        .map(|d| serde::Deserialize::deserialize(d).unwrap())
        .filter(|v: &Value| !v.is_null())
        .collect()
}

pub fn substitute<A: AsRef<str>, B: AsRef<str>>(text: &str, pairs: &[(A, B)]) -> String {
    let mut t = text.to_string();
    for (from, to) in pairs {
        t = t.replace(from.as_ref(), to.as_ref());
    }
    assert!(!t.contains("{{"), "unsubstituted action left:\n{t}");
    t
}

/// What KubeVirt's generated files hold once their variables are filled as the pipeline does.
fn fill(text: &str, tag: &str) -> String {
    let version = tag.trim_start_matches('v');
    let mut pairs: Vec<(String, String)> = vec![(
        "{{if .VirtOperatorSha}}@{{.VirtOperatorSha}}{{else}}:{{.DockerTag}}{{end}}".into(),
        format!(":{tag}"),
    )];
    for c in ["Api", "Controller", "Handler", "Launcher"] {
        pairs.push((
            format!("{{{{if .Virt{c}Sha}}}}{{{{.Virt{c}Sha}}}}{{{{end}}}}"),
            String::new(),
        ));
    }
    for (k, v) in [
        ("Namespace", "kubevirt"),
        ("DockerPrefix", "index.docker.io/kubevirt"),
        ("DockerTag", tag),
        ("ImagePullPolicy", "IfNotPresent"),
        ("Verbosity", "\"2\""),
        ("CsvVersion", version),
        ("CSVNamespace", "placeholder"),
        ("CreatedAt", EPOCH_TEXT),
        ("KubeVirtLogo", "x"),
        ("ReplacesCsvVersion", ""),
    ] {
        pairs.push((format!("{{{{.{k}}}}}"), v.to_string()));
    }
    substitute(text, &pairs)
}

pub fn read(dir: &Path, rel: &str) -> String {
    std::fs::read_to_string(dir.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// What a rule allows, independent of order and repetition.
pub fn canonical(rule: &Value) -> BTreeMap<String, BTreeSet<String>> {
    rule.as_mapping()
        .unwrap()
        .iter()
        .map(|(k, v)| {
            let items = v
                .as_sequence()
                .unwrap()
                .iter()
                .map(|i| i.as_str().unwrap().to_string())
                .collect();
            (k.as_str().unwrap().to_string(), items)
        })
        .collect()
}

/// The operator's own ClusterRole rules, then every other (Cluster)Role's, in file order,
/// without rules that allow exactly what an earlier one does.
pub fn expected_rules(src: &Path, tag: &str) -> Vec<BTreeMap<String, BTreeSet<String>>> {
    let mut roles = Vec::new();
    for f in ["operator", "kubevirt", "cluster"] {
        let text = read(
            src,
            &format!("manifests/generated/rbac-{f}.authorization.k8s.yaml.in"),
        );
        roles.extend(
            docs(&fill(&text, tag))
                .into_iter()
                .filter(|d| matches!(d["kind"].as_str(), Some("Role" | "ClusterRole"))),
        );
    }
    let own = roles
        .iter()
        .position(|d| {
            d["kind"].as_str() == Some("ClusterRole")
                && d["metadata"]["name"].as_str() == Some("kubevirt-operator")
        })
        .expect("the operator's ClusterRole");
    let mut concatenated: Vec<Value> = roles[own]["rules"].as_sequence().unwrap().clone();
    for (i, r) in roles.iter().enumerate() {
        if i != own {
            concatenated.extend(r["rules"].as_sequence().cloned().unwrap_or_default());
        }
    }
    let mut seen = BTreeSet::new();
    concatenated
        .iter()
        .map(canonical)
        .filter(|c| seen.insert(c.clone()))
        .collect()
}

pub fn expected_deployment_spec(src: &Path, tag: &str) -> Value {
    let standalone = src.join("manifests/generated/virt-operator.yaml.in");
    if standalone.exists() {
        let d = docs(&fill(
            &read(src, "manifests/generated/virt-operator.yaml.in"),
            tag,
        ));
        let d = d
            .iter()
            .find(|d| d["kind"].as_str() == Some("Deployment"))
            .unwrap();
        return d["spec"].clone();
    }
    let csv = &docs(&fill(
        &read(src, "manifests/generated/operator-csv.yaml.in"),
        tag,
    ))[0];
    let d = &csv["spec"]["install"]["spec"]["deployments"][0];
    assert_eq!(d["name"].as_str(), Some("virt-operator"));
    d["spec"].clone()
}
