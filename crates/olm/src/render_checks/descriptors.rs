//! Descriptor paths of the rendered CSV: a descriptor written without its `x-descriptors:` key
//! makes YAML fold the list item into `path` (`observedKubeVirtVersion - 'urn:alm:descriptor:text'`,
//! KubeVirt v0.16–v0.19). The intent is unambiguous, so the descriptor is repaired (path and
//! `x-descriptors` split again) and a warning names the template line; any other path holding
//! whitespace is a warning, kept as written: no upstream validator checks descriptor paths,
//! OLM's console accepts them (it shows no value for a path it cannot follow), and
//! OperatorHub's catalogs ship such CSVs. OLM's descriptor docs: a descriptor's
//! `path` is a dot-delimited field path of the custom resource, and `x-descriptors` a list.

use serde_yaml_ng::Value;

use crate::{Finding, Level};

const DESCRIPTOR_LISTS: [&str; 3] = ["specDescriptors", "statusDescriptors", "actionDescriptors"];

/// Checks (and repairs) descriptor paths of the CSV; `file` is its template, `text` the
/// template's text, used to name the line.
pub(super) fn descriptor_paths(csv: &mut Value, file: &str, text: &str) -> Vec<Finding> {
    let mut findings = Vec::new();
    let object = csv
        .get("metadata")
        .and_then(|m| m.get("name"))
        .and_then(Value::as_str)
        .unwrap_or("ClusterServiceVersion")
        .to_string();
    let Some(owned) = csv
        .get_mut("spec")
        .and_then(|s| s.get_mut("customresourcedefinitions"))
        .and_then(|c| c.get_mut("owned"))
        .and_then(Value::as_sequence_mut)
    else {
        return findings;
    };
    for (i, crd) in owned.iter_mut().enumerate() {
        for list in DESCRIPTOR_LISTS {
            let Some(items) = crd.get_mut(list).and_then(Value::as_sequence_mut) else {
                continue;
            };
            for (j, d) in items.iter_mut().enumerate() {
                let Some(path) = d.get("path").and_then(Value::as_str).map(str::to_string) else {
                    continue;
                };
                if !path.contains(char::is_whitespace) {
                    continue;
                }
                let field = format!("spec.customresourcedefinitions.owned[{i}].{list}[{j}].path");
                let repaired = unfold(&path).filter(|_| d.get("x-descriptors").is_none());
                let finding = match (repaired, d.as_mapping_mut()) {
                    (Some((p, xs)), Some(m)) => {
                        let at = line_of(text, &p)
                            .map(|l| format!(" (line {l})"))
                            .unwrap_or_default();
                        m.insert("path".into(), p.clone().into());
                        m.insert(
                            "x-descriptors".into(),
                            Value::Sequence(xs.iter().cloned().map(Value::from).collect()),
                        );
                        Finding {
                            level: Level::Warning,
                            rule: "descriptor-path-folded".into(),
                            mirrors: String::new(),
                            file: file.to_string(),
                            object: object.clone(),
                            field,
                            message: format!(
                                "the descriptor lacks its 'x-descriptors:' key{at}, so YAML folded the next line into path: '{path}'; \
                                 rendered as path '{p}' with x-descriptors {xs:?}"
                            ),
                            fix: format!(
                                "add 'x-descriptors:' above the list under 'path: {p}' in the template"
                            ),
                            accepted: None,
                        }
                    }
                    _ => Finding {
                        level: Level::Warning,
                        rule: "descriptor-path".into(),
                        mirrors: String::new(),
                        file: file.to_string(),
                        object: object.clone(),
                        field,
                        message: format!(
                            "'{path}' is not a field path (it holds whitespace); the console shows no value for it"
                        ),
                        fix:
                            "write a dotted field path of the custom resource, e.g. 'status.phase'"
                                .into(),
                        accepted: None,
                    },
                };
                findings.push(finding);
            }
        }
    }
    findings
}

/// Splits `observedKubeVirtVersion - 'urn:a' - 'urn:b'` into the path and its list items.
fn unfold(path: &str) -> Option<(String, Vec<String>)> {
    let mut parts = path.split(" - ");
    let head = parts.next()?.trim();
    let items: Vec<String> = parts
        .map(|p| p.trim().trim_matches(|c| c == '\'' || c == '"').to_string())
        .collect();
    let plain = |s: &str| !s.is_empty() && !s.contains(char::is_whitespace);
    (plain(head) && !items.is_empty() && items.iter().all(|i| plain(i)))
        .then(|| (head.to_string(), items))
}

/// The line of `path: P` followed by a list item: where the key is missing.
fn line_of(text: &str, path: &str) -> Option<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let want = format!("path: {path}");
    (0..lines.len().saturating_sub(1))
        .find(|&i| {
            let line = lines[i].trim();
            let line = line.strip_prefix("- ").unwrap_or(line).trim_start();
            line == want && lines[i + 1].trim_start().starts_with("- ")
        })
        .map(|i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unfolds_only_unambiguous_paths() {
        assert_eq!(
            unfold("observedKubeVirtVersion - 'urn:alm:descriptor:text'"),
            Some((
                "observedKubeVirtVersion".into(),
                vec!["urn:alm:descriptor:text".into()]
            ))
        );
        assert_eq!(unfold("a b"), None);
        assert_eq!(unfold("a - 'x y'"), None);
    }

    #[test]
    fn repairs_a_folded_descriptor_and_names_the_line() {
        let text = "spec:\n  customresourcedefinitions:\n    owned:\n    - statusDescriptors:\n      - path: phase\n          - 'urn:alm:descriptor:text'\n";
        let mut csv: Value = serde_yaml_ng::from_str(text).unwrap();
        let f = descriptor_paths(&mut csv, "csv.yaml.in", text);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].level, Level::Warning);
        assert_eq!(
            f[0].field,
            "spec.customresourcedefinitions.owned[0].statusDescriptors[0].path"
        );
        assert!(f[0].message.contains("line 5"), "{}", f[0].message);
        let d = &csv["spec"]["customresourcedefinitions"]["owned"][0]["statusDescriptors"][0];
        assert_eq!(d["path"], Value::from("phase"));
        assert_eq!(
            d["x-descriptors"][0],
            Value::from("urn:alm:descriptor:text")
        );
    }

    #[test]
    fn a_path_holding_a_space_is_a_warning_and_kept() {
        let text = "spec:\n  customresourcedefinitions:\n    owned:\n    - specDescriptors:\n      - path: Pod Count\n";
        let mut csv: Value = serde_yaml_ng::from_str(text).unwrap();
        let f = descriptor_paths(&mut csv, "csv.yaml", text);
        assert_eq!(f.len(), 1);
        assert_eq!(
            (f[0].rule.as_str(), f[0].level),
            ("descriptor-path", crate::Level::Warning)
        );
        let d = &csv["spec"]["customresourcedefinitions"]["owned"][0]["specDescriptors"][0];
        assert_eq!(d["path"], Value::from("Pod Count"));
    }
}
