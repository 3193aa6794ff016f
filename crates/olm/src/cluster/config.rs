//! The `deploymentConfig` of a ClusterExtension's inline configuration (OLM v0's
//! `Subscription.spec.config`): what it may hold and how OLM v1 applies it to every Deployment of
//! the CSV (operator-controller's `registryv1/generators`, after OLM v0's
//! `pkg/controller/operators/olm/overrides/inject`): `env` replaces variables of the same name
//! and appends the rest; `envFrom` and `tolerations` are appended unless already there;
//! `volumes` and `volumeMounts` replace those of the same name and append the rest;
//! `resources` and `nodeSelector` replace; `affinity` `{}` erases the pod's affinity, a part
//! given empty erases that part, a part given replaces it; `annotations` are added to the
//! Deployment and its pod template where they do not already have the key.

use serde_yaml_ng::{Mapping, Value};

use super::model::InstallError;

/// The keys a `deploymentConfig` may hold.
const KEYS: &[&str] = &[
    "nodeSelector",
    "selector",
    "tolerations",
    "resources",
    "envFrom",
    "env",
    "volumes",
    "volumeMounts",
    "affinity",
    "annotations",
];

/// A `deploymentConfig`, as written (YAML or JSON).
#[derive(Debug, Clone, Default)]
pub struct DeploymentConfig {
    fields: Mapping,
}

impl DeploymentConfig {
    /// Reads a `deploymentConfig` mapping, or a ClusterExtension's `config.inline` /
    /// `{deploymentConfig: …}` holding one.
    pub fn parse(text: &str) -> Result<Self, InstallError> {
        let doc: Value = serde_yaml_ng::from_str(text)
            .map_err(|e| InstallError::Config(format!("invalid deploymentConfig: {e}")))?;
        let doc = match doc.get("inline") {
            Some(inline) => inline.clone(),
            None => doc,
        };
        let doc = match doc.get("deploymentConfig") {
            Some(config) => config.clone(),
            None => doc,
        };
        let Value::Mapping(fields) = doc else {
            return Err(InstallError::Config(
                "invalid deploymentConfig: not a mapping".into(),
            ));
        };
        for key in fields.keys() {
            let k = key.as_str().unwrap_or_default();
            if !KEYS.contains(&k) {
                return Err(InstallError::Config(format!(
                    "invalid deploymentConfig: unknown field {k:?} (known: {})",
                    KEYS.join(", ")
                )));
            }
        }
        Ok(DeploymentConfig { fields })
    }

    fn get(&self, key: &str) -> Option<&Value> {
        self.fields.get(key).filter(|v| !v.is_null())
    }

    fn list(&self, key: &str) -> &[Value] {
        self.get(key)
            .and_then(Value::as_sequence)
            .map(Vec::as_slice)
            .unwrap_or_default()
    }

    /// Applies the configuration to one Deployment object.
    pub(crate) fn apply(&self, deployment: &mut Value) {
        let Some(pod) = deployment
            .get_mut("spec")
            .and_then(|s| s.get_mut("template"))
            .and_then(|t| t.get_mut("spec"))
        else {
            return;
        };
        for c in seq_mut(pod, "containers") {
            merge_by_name(c, "env", self.list("env"));
            append_missing(c, "envFrom", self.list("envFrom"));
        }
        merge_by_name(pod, "volumes", self.list("volumes"));
        if !self.list("volumeMounts").is_empty() {
            for c in seq_mut(pod, "containers") {
                merge_by_name(c, "volumeMounts", self.list("volumeMounts"));
            }
        }
        append_missing(pod, "tolerations", self.list("tolerations"));
        if let Some(r) = self.get("resources") {
            for c in seq_mut(pod, "containers") {
                set(c, "resources", r.clone());
            }
        }
        if let Some(n) = self.get("nodeSelector") {
            set(pod, "nodeSelector", n.clone());
        }
        if let Some(a) = self.get("affinity") {
            apply_affinity(pod, a);
        }
        if let Some(Value::Mapping(extra)) = self.get("annotations") {
            add_annotations(deployment, extra);
            if let Some(t) = deployment
                .get_mut("spec")
                .and_then(|s| s.get_mut("template"))
            {
                add_annotations(t, extra);
            }
        }
    }
}

fn set(obj: &mut Value, key: &str, v: Value) {
    if let Some(m) = obj.as_mapping_mut() {
        m.insert(key.into(), v);
    }
}

/// The items of a list field (none when absent).
fn seq_mut<'a>(obj: &'a mut Value, key: &str) -> std::slice::IterMut<'a, Value> {
    match obj.get_mut(key).and_then(Value::as_sequence_mut) {
        Some(s) => s.iter_mut(),
        None => [].iter_mut(),
    }
}

/// The list field, created empty when absent.
fn list_mut<'a>(obj: &'a mut Value, key: &str) -> Option<&'a mut Vec<Value>> {
    let m = obj.as_mapping_mut()?;
    if !m.get(key).is_some_and(Value::is_sequence) {
        m.insert(key.into(), Value::Sequence(Vec::new()));
    }
    m.get_mut(key).and_then(Value::as_sequence_mut)
}

/// Items replace those with the same `name`; the rest are appended.
fn merge_by_name(obj: &mut Value, key: &str, items: &[Value]) {
    if items.is_empty() {
        return;
    }
    let Some(list) = list_mut(obj, key) else {
        return;
    };
    for item in items {
        let name = item.get("name");
        match list.iter_mut().find(|x| x.get("name") == name) {
            Some(slot) => *slot = item.clone(),
            None => list.push(item.clone()),
        }
    }
}

/// Items appended unless an equal one is already there.
fn append_missing(obj: &mut Value, key: &str, items: &[Value]) {
    if items.is_empty() {
        return;
    }
    let Some(list) = list_mut(obj, key) else {
        return;
    };
    for item in items {
        if !list.contains(item) {
            list.push(item.clone());
        }
    }
}

fn add_annotations(obj: &mut Value, extra: &Mapping) {
    let Some(meta) = obj.as_mapping_mut().map(|m| {
        m.entry("metadata".into())
            .or_insert_with(|| Value::Mapping(Mapping::new()))
    }) else {
        return;
    };
    let Some(meta) = meta.as_mapping_mut() else {
        return;
    };
    let ann = meta
        .entry("annotations".into())
        .or_insert_with(|| Value::Mapping(Mapping::new()));
    if ann.is_null() {
        *ann = Value::Mapping(Mapping::new());
    }
    if let Some(ann) = ann.as_mapping_mut() {
        for (k, v) in extra {
            if !ann.contains_key(k) {
                ann.insert(k.clone(), v.clone());
            }
        }
    }
}

/// A list field that is absent, null or empty.
fn empty_list(v: &Value, key: &str) -> bool {
    v.get(key)
        .and_then(Value::as_sequence)
        .is_none_or(Vec::is_empty)
}

/// Whether an affinity part holds no term.
fn part_empty(part: &str, v: &Value) -> bool {
    let preferred = empty_list(v, "preferredDuringSchedulingIgnoredDuringExecution");
    let required = if part == "nodeAffinity" {
        v.get("requiredDuringSchedulingIgnoredDuringExecution")
            .is_none_or(|r| r.is_null() || empty_list(r, "nodeSelectorTerms"))
    } else {
        empty_list(v, "requiredDuringSchedulingIgnoredDuringExecution")
    };
    preferred && required
}

const PARTS: [&str; 3] = ["nodeAffinity", "podAffinity", "podAntiAffinity"];

fn apply_affinity(pod: &mut Value, config: &Value) {
    let Some(pod) = pod.as_mapping_mut() else {
        return;
    };
    let given: Vec<(&str, &Value)> = PARTS
        .iter()
        .filter_map(|p| config.get(*p).filter(|v| !v.is_null()).map(|v| (*p, v)))
        .collect();
    if given.is_empty() {
        pod.remove("affinity");
        return;
    }
    let affinity = pod
        .entry("affinity".into())
        .or_insert_with(|| Value::Mapping(Mapping::new()));
    if !affinity.is_mapping() {
        *affinity = Value::Mapping(Mapping::new());
    }
    let a = affinity.as_mapping_mut().expect("a mapping");
    for (part, v) in given {
        if part_empty(part, v) {
            a.remove(part);
        } else {
            a.insert(part.into(), v.clone());
        }
    }
    let all_empty = PARTS
        .iter()
        .all(|p| a.get(*p).is_none_or(|v| v.is_null() || part_empty(p, v)));
    if all_empty {
        pod.remove("affinity");
    }
}
