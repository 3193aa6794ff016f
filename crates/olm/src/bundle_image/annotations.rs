//! A bundle's `metadata/annotations.yaml` and the image labels that repeat it: the six
//! `operators.operatorframework.io.bundle.*` keys, computed from the package and channels the
//! release names, followed by every other annotation of the project's own annotations file
//! (`com.redhat.openshift.versions`, operator-sdk's `operators.operatorframework.io.metrics.*`
//! and `….test.*`, …) in the project's order. operator-registry's bundle format
//! (`docs/design/operator-bundle.md`) has the image's labels equal the annotations, and
//! operator-sdk's `generate bundle` writes the metrics and test keys beside the bundle keys.

use std::collections::BTreeMap;
use std::path::Path;

use serde_yaml_ng::{Mapping, Value};

use super::error::{BundleImageError as E, LABEL_KEYS, REGISTRY_V1};
use super::error::{DEFAULT_CHANNEL_KEY, MANIFESTS_KEY, MEDIATYPE_KEY, METADATA_KEY};
use super::folder::BundleSpec;

/// The annotations of an annotations file's document (`annotations: {KEY: VALUE}`), in the
/// file's order; numbers and booleans read as the text they are written as (a label is text).
/// An error names the first key whose value is not a scalar.
pub fn annotations_of(doc: &Value) -> Result<Vec<(String, String)>, String> {
    let Some(map) = doc.get("annotations").and_then(Value::as_mapping) else {
        return Err("no 'annotations:' mapping".into());
    };
    let mut out = Vec::new();
    for (k, v) in map {
        let key = k.as_str().ok_or("an annotation key is not a string")?;
        let text = match v {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            _ => return Err(format!("'{key}' is not a string")),
        };
        out.push((key.to_string(), text));
    }
    Ok(out)
}

/// The labels of a bundle: the six keys for `spec` (names checked), then `extra` without them.
pub(super) fn labels(
    spec: &BundleSpec,
    extra: &[(String, String)],
) -> Result<Vec<(String, String)>, E> {
    check_name("package", &spec.package)?;
    if spec.channels.is_empty() {
        return Err(E::Spec {
            field: "channels",
            why: "a bundle must join at least one channel".into(),
        });
    }
    for c in &spec.channels {
        check_name("channels", c)?;
    }
    let default = match &spec.default_channel {
        Some(d) if spec.channels.contains(d) => d.clone(),
        Some(d) => {
            return Err(E::Spec {
                field: "default_channel",
                why: format!(
                    "'{d}' is not one of this bundle's channels ({}); add it or pick one of them",
                    spec.channels.join(", ")
                ),
            });
        }
        None => spec.channels[0].clone(),
    };
    let values = [
        REGISTRY_V1.to_string(),
        "manifests/".into(),
        "metadata/".into(),
        spec.package.clone(),
        spec.channels.join(","),
        default,
    ];
    let mut out: Vec<(String, String)> = LABEL_KEYS
        .iter()
        .zip(values)
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    for (k, v) in extra {
        if !out.iter().any(|(have, _)| have == k) {
            out.push((k.clone(), v.clone()));
        }
    }
    Ok(out)
}

/// Package and channel names: letters, digits, `-`, `_`, `.` (they become label values and a
/// comma-separated list).
fn check_name(field: &'static str, name: &str) -> Result<(), E> {
    let ok = !name.is_empty()
        && name.len() <= 253
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(())
    } else {
        Err(E::Spec {
            field,
            why: format!("'{name}' is not a valid name (letters, digits, '-', '_', '.')"),
        })
    }
}

/// `metadata/annotations.yaml` of `labels`.
pub(super) fn annotations_yaml(labels: &[(String, String)]) -> String {
    let mut inner = Mapping::new();
    for (k, v) in labels {
        inner.insert(Value::from(k.as_str()), Value::from(v.as_str()));
    }
    let mut top = Mapping::new();
    top.insert(Value::from("annotations"), Value::Mapping(inner));
    olm_release_base::yaml::to_string(&Value::Mapping(top))
}

/// The annotations of an `annotations.yaml` on disk, checked: the format must be registry+v1
/// with the standard folders, and the package and channels must be set. The six keys come
/// first, in [`LABEL_KEYS`] order, then the others in the file's order.
pub(super) fn parse_annotations(path: &Path, bytes: &[u8]) -> Result<Vec<(String, String)>, E> {
    let bad = |why: String| E::Folder {
        path: path.to_path_buf(),
        why,
    };
    let text = std::str::from_utf8(bytes).map_err(|_| bad("not UTF-8".into()))?;
    let doc: Value =
        crate::archive::parse_single("annotations.yaml", text).map_err(|e| bad(e.to_string()))?;
    let all = annotations_of(&doc).map_err(bad)?;
    let found: BTreeMap<&str, &str> = all.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let mut labels = Vec::new();
    for key in LABEL_KEYS {
        match found.get(key) {
            Some(v) => labels.push((key.to_string(), v.to_string())),
            None if key == DEFAULT_CHANNEL_KEY => {}
            None => return Err(bad(format!("'{key}' is missing"))),
        }
    }
    for (key, want) in [
        (MEDIATYPE_KEY, REGISTRY_V1),
        (MANIFESTS_KEY, "manifests/"),
        (METADATA_KEY, "metadata/"),
    ] {
        let got = found[key];
        if got != want {
            return Err(bad(format!(
                "'{key}' is '{got}'; olm-release builds '{want}' bundles only"
            )));
        }
    }
    labels.extend(
        all.into_iter()
            .filter(|(k, _)| !LABEL_KEYS.contains(&k.as_str())),
    );
    Ok(labels)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_projects_other_annotations_follow_the_six_keys_and_never_replace_them() {
        let doc: Value = serde_yaml_ng::from_str(
            "annotations:\n  com.redhat.openshift.versions: v4.12-v4.16\n  operators.operatorframework.io.bundle.package.v1: other\n  operators.operatorframework.io.metrics.builder: operator-sdk-v1.34.1\n  x.example.com/count: 3\n",
        )
        .unwrap();
        let extra = annotations_of(&doc).unwrap();
        let spec = BundleSpec {
            package: "memcached-operator".into(),
            channels: vec!["alpha".into()],
            default_channel: None,
        };
        let got = labels(&spec, &extra).unwrap();
        assert_eq!(got.len(), 9, "{got:?}");
        assert_eq!(got[3].1, "memcached-operator", "the release's package wins");
        assert_eq!(
            got[6..].to_vec(),
            vec![
                (
                    "com.redhat.openshift.versions".to_string(),
                    "v4.12-v4.16".to_string()
                ),
                (
                    "operators.operatorframework.io.metrics.builder".to_string(),
                    "operator-sdk-v1.34.1".to_string()
                ),
                ("x.example.com/count".to_string(), "3".to_string()),
            ]
        );
        let bad: Value = serde_yaml_ng::from_str("annotations: {a: [1]}\n").unwrap();
        assert_eq!(annotations_of(&bad).unwrap_err(), "'a' is not a string");
    }
}
