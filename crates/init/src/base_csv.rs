//! A kubebuilder project's CSV base (`config/manifests/bases/*.clusterserviceversion.yaml`)
//! completed as `operator-sdk generate kustomize manifests` would: the install modes and the
//! `deployment` install strategy when it has none, the repository's CRDs listed as owned, and
//! example custom resources. The result is the CSV to start from, the user's to edit; the
//! pipeline sets its name, version, deployments and permissions.

use serde_yaml_ng::{Mapping, Value};

use super::found::Found;

/// The completed base, as YAML text with a first line saying where it came from.
pub(crate) fn complete(base: &Value, from: &str, found: &Found) -> String {
    let mut csv = base.clone();
    let spec = entry(&mut csv, "spec");
    if spec
        .get("installModes")
        .and_then(Value::as_sequence)
        .is_none_or(|s| s.is_empty())
    {
        let modes = [
            ("OwnNamespace", true),
            ("SingleNamespace", true),
            ("MultiNamespace", false),
            ("AllNamespaces", true),
        ]
        .iter()
        .map(|(t, ok)| {
            let mut m = Mapping::new();
            m.insert("type".into(), (*t).into());
            m.insert("supported".into(), (*ok).into());
            Value::Mapping(m)
        })
        .collect();
        set(spec, "installModes", Value::Sequence(modes));
    }
    let install = entry(spec, "install");
    if install
        .get("strategy")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        set(install, "strategy", "deployment".into());
    }
    let owned = entry(entry(spec, "customresourcedefinitions"), "owned");
    if !owned.is_sequence() {
        *owned = Value::Sequence(Vec::new());
    }
    let list = owned.as_sequence_mut().expect("a sequence");
    for crd in &found.crds {
        if list
            .iter()
            .any(|o| o.get("name").and_then(Value::as_str) == Some(&crd.name))
        {
            continue;
        }
        let mut m = Mapping::new();
        m.insert("name".into(), crd.name.clone().into());
        m.insert("version".into(), crd.version.clone().into());
        m.insert("kind".into(), crd.kind.clone().into());
        m.insert("displayName".into(), crd.kind.clone().into());
        m.insert("description".into(), format!("A {}.", crd.kind).into());
        list.push(Value::Mapping(m));
    }
    let annotations = entry(entry(&mut csv, "metadata"), "annotations");
    if annotations.get("alm-examples").is_none() && !found.examples.is_empty() {
        let json = serde_json::to_string_pretty(&found.examples).unwrap_or_default();
        set(annotations, "alm-examples", json.into());
    }
    format!(
        "# The CSV to start from, completed by olm-release init from {from} (install modes, install\n\
         # strategy, owned CRDs): yours to edit. The pipeline sets its name, version, deployments\n\
         # and permissions.\n{}",
        olm_release_base::yaml::to_string(&csv)
    )
}

/// The mapping at `key` of `v` (created, and `v` made a mapping, when missing).
fn entry<'a>(v: &'a mut Value, key: &str) -> &'a mut Value {
    if !v.is_mapping() {
        *v = Value::Mapping(Mapping::new());
    }
    let m = v.as_mapping_mut().expect("a mapping");
    if !m
        .get(key)
        .is_some_and(|x| x.is_mapping() || x.is_sequence())
    {
        m.insert(key.into(), Value::Mapping(Mapping::new()));
    }
    m.get_mut(key).expect("inserted")
}

fn set(v: &mut Value, key: &str, value: Value) {
    if let Some(m) = v.as_mapping_mut() {
        m.insert(key.into(), value);
    }
}
