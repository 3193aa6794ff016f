//! Defects rendering can see in an operator's inputs, reported as findings with the template
//! file and the field, so a release never publishes them silently.
//!
//! - **Folded descriptor paths.** A descriptor written without its `x-descriptors:` key makes
//!   YAML fold the list item into `path` (`observedKubeVirtVersion - 'urn:alm:descriptor:text'`,
//!   KubeVirt v0.16–v0.19). The intent is unambiguous, so the descriptor is repaired (path and
//!   `x-descriptors` split again) and a warning names the template line; any other path holding
//!   whitespace is a warning, kept as written: no upstream validator checks descriptor paths,
//!   OLM's console accepts them (it shows no value for a path it cannot follow), and
//!   OperatorHub's catalogs ship such CSVs.
//! - **Subscription vs package.** A rendered Subscription that names another package or a
//!   channel the package file does not have would never resolve (KubeVirt's kept `kubevirt` /
//!   `beta` after the package and channel changed). A warning: the Subscription is a helper
//!   manifest applied by hand, not part of the published bundle.
//! - **Package vs pipeline.** The package file must be the pipeline's package (the app-registry
//!   repository must equal `packageName`) and hold the pipeline's channel; otherwise an error,
//!   which stops the pipeline at verify before anything is published.

use serde_yaml_ng::Value;

use olm_release_olm::{Finding, Level, PackageManifest};

const DESCRIPTOR_LISTS: [&str; 3] = ["specDescriptors", "statusDescriptors", "actionDescriptors"];

/// Checks (and repairs) descriptor paths of the CSV; `file` is its template, `text` the
/// template's text, used to name the line.
pub(crate) fn descriptor_paths(csv: &mut Value, file: &str, text: &str) -> Vec<Finding> {
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

/// Compares each rendered Subscription with the package file.
pub(crate) fn subscriptions(docs: &[(String, Value)], package: &PackageManifest) -> Vec<Finding> {
    let mut findings = Vec::new();
    for (file, doc) in docs {
        if doc.get("kind").and_then(Value::as_str) != Some("Subscription") {
            continue;
        }
        let spec = |k: &str| {
            doc.get("spec")
                .and_then(|s| s.get(k))
                .and_then(Value::as_str)
        };
        let object = doc
            .get("metadata")
            .and_then(|m| m.get("name"))
            .and_then(Value::as_str)
            .unwrap_or("Subscription")
            .to_string();
        let channels: Vec<&str> = package.channels.iter().map(|c| c.name.as_str()).collect();
        let mut warn = |rule: &str, field: &str, message: String, fix: String| {
            findings.push(Finding {
                level: Level::Warning,
                rule: rule.into(),
                mirrors: String::new(),
                file: file.clone(),
                object: object.clone(),
                field: field.into(),
                message,
                fix,
            })
        };
        let name = spec("name");
        if name != Some(package.package_name.as_str()) {
            warn(
                "subscription-package",
                "spec.name",
                format!(
                    "subscribes to package '{}', but the bundle's package is '{}'",
                    name.unwrap_or(""),
                    package.package_name
                ),
                format!(
                    "set spec.name to '{}' (e.g. {{{{.PackageName}}}})",
                    package.package_name
                ),
            );
        }
        let channel = spec("channel");
        if !channel.is_some_and(|c| channels.contains(&c)) {
            warn(
                "subscription-channel",
                "spec.channel",
                format!(
                    "follows channel '{}', but the package has only {}",
                    channel.unwrap_or(""),
                    channels.join(", ")
                ),
                "set spec.channel to a channel of the package file".into(),
            );
        }
    }
    findings
}

/// The package file must be the pipeline's package and hold at least one of the pipeline's
/// channels (a package file on other channels only is a leftover, as KubeVirt's `beta` was);
/// the release's other channels are added to the package (`exec::fetch_previous`).
pub(crate) fn package(
    want_package: &str,
    want_channels: &[String],
    package: &PackageManifest,
    file: &str,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut error = |rule: &str, field: &str, message: String, fix: String| {
        findings.push(Finding {
            level: Level::Error,
            rule: rule.into(),
            mirrors: String::new(),
            file: file.to_string(),
            object: package.package_name.clone(),
            field: field.into(),
            message,
            fix,
        })
    };
    if package.package_name != want_package {
        error(
            "package-name",
            "packageName",
            format!(
                "is '{}', but the pipeline publishes package '{}' (the app-registry repository must equal packageName)",
                package.package_name, want_package
            ),
            "write packageName: {{.PackageName}} in the template, or set the pipeline's package"
                .into(),
        );
    }
    if !want_channels.iter().any(|c| package.channel(c).is_some()) {
        let names: Vec<&str> = package.channels.iter().map(|c| c.name.as_str()).collect();
        error(
            "package-channel",
            "channels",
            format!(
                "has channels {}, but the pipeline publishes to channel '{}'",
                names.join(", "),
                want_channels.join("', '")
            ),
            "make the pipeline's channel one of the package file's channels".into(),
        );
    }
    findings
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
    fn a_path_holding_a_space_is_a_warning_and_kept() {
        let text = "spec:\n  customresourcedefinitions:\n    owned:\n    - specDescriptors:\n      - path: Pod Count\n";
        let mut csv: Value = serde_yaml_ng::from_str(text).unwrap();
        let f = descriptor_paths(&mut csv, "csv.yaml", text);
        assert_eq!(f.len(), 1);
        assert_eq!(
            (f[0].rule.as_str(), f[0].level),
            ("descriptor-path", Level::Warning)
        );
        let d = &csv["spec"]["customresourcedefinitions"]["owned"][0]["specDescriptors"][0];
        assert_eq!(d["path"], Value::from("Pod Count"));
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
}
