//! The rendered package file and helper manifests against the pipeline: the package file must
//! be the pipeline's package and hold one of its channels (an error), and a rendered
//! Subscription must name that package and one of its channels (a warning: a Subscription is a
//! helper applied by hand, not part of the published bundle). OLM resolves a Subscription by
//! `spec.name` (the package) and `spec.channel` in the catalog (OLM docs, "Subscription").

use serde_yaml_ng::Value;

use crate::{Finding, Level, PackageManifest};

/// Compares each rendered Subscription with the package file.
pub(super) fn subscriptions(docs: &[(String, Value)], package: &PackageManifest) -> Vec<Finding> {
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
                accepted: None,
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
/// the release's other channels are added to the package by the decision ([`crate::decision`]).
pub(super) fn package(
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
            accepted: None,
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
