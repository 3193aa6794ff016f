//! How a CSV installs: install modes (and their coupling with conversion webhooks), the install
//! strategy, deployments and permissions, and the permission verbs of the 2019 CSV schema.
//! (Field types, e.g. deployments that are not a list, are checked in `types`.)

use std::collections::BTreeSet;

use serde_yaml_ng::Value;

use super::rules;
use super::rules::Tool;
use super::sink::{At, Sink};
use crate::{Manifest, value_at};

const MODES: &[&str] = &[
    "OwnNamespace",
    "SingleNamespace",
    "MultiNamespace",
    "AllNamespaces",
];
/// Verbs of the 2019 CSV schema's `permissions`; `clusterPermissions` also allow put and post.
const VERBS: &[&str] = &[
    "*",
    "assign",
    "get",
    "list",
    "watch",
    "create",
    "update",
    "patch",
    "delete",
    "deletecollection",
    "initialize",
    "use",
];

/// Checks how one CSV installs (install modes, the install strategy, deployments, permissions and
/// their verbs), adding the findings to `sink`.
pub fn check(csv: &Manifest, sink: &mut Sink) {
    let at = At::of(csv);
    let Some(spec) = csv.doc.get("spec").filter(|s| s.is_mapping()) else {
        return;
    };
    install_modes(spec, &at, sink);
    let Some(install) = spec.get("install") else {
        sink.add(
            &rules::CSV_REQUIRED,
            &at,
            "spec.install",
            "is missing; OLM cannot install the operator",
        );
        return;
    };
    let field = "spec.install.strategy";
    match install.get("strategy").and_then(Value::as_str) {
        Some("deployment") => {}
        Some(other) => {
            let msg = format!("is '{other}'; it must be one of ['deployment']");
            sink.add_except(&rules::INSTALL, &[Tool::Api], &at, field, msg);
        }
        None => sink.add(&rules::INSTALL, &at, field, "is missing"),
    }
    let Some(ispec) = install.get("spec").filter(|s| s.is_mapping()) else {
        let msg = "is missing (the deployments and permissions to install)";
        sink.add_except(&rules::INSTALL, &[Tool::Api], &at, "spec.install.spec", msg);
        return;
    };
    match ispec.get("deployments") {
        None | Some(Value::Null) => sink.add(
            &rules::INSTALL,
            &at,
            "spec.install.spec.deployments",
            "is missing",
        ),
        Some(Value::Sequence(ds)) if ds.is_empty() => sink.add(
            &rules::INSTALL_ENTRIES,
            &at,
            "spec.install.spec.deployments",
            "is empty; nothing would run",
        ),
        Some(Value::Sequence(ds)) => {
            for (i, d) in ds.iter().enumerate() {
                let base = format!("spec.install.spec.deployments[{i}]");
                if d.get("name")
                    .and_then(Value::as_str)
                    .is_none_or(str::is_empty)
                {
                    let field = format!("{base}.name");
                    sink.add(&rules::INSTALL_ENTRIES, &at, &field, "is missing");
                }
                if !d.get("spec").is_some_and(Value::is_mapping) {
                    let field = format!("{base}.spec");
                    let msg = "is missing (a DeploymentSpec)";
                    sink.add(&rules::INSTALL_ENTRIES, &at, &field, msg);
                }
            }
        }
        Some(_) => {} // a type error
    }
    permissions(ispec, "permissions", VERBS, &at, sink);
    permissions(
        ispec,
        "clusterPermissions",
        &[VERBS, &["put", "post"]].concat(),
        &at,
        sink,
    );
}

fn install_modes(spec: &Value, at: &At, sink: &mut Sink) {
    let field = "spec.installModes";
    let modes = match spec.get("installModes") {
        None | Some(Value::Null) => {
            return sink.add(
                &rules::INSTALL_MODES,
                at,
                field,
                "is missing (install modes not found); OLM matches the CSV to no OperatorGroup and never installs it",
            );
        }
        Some(Value::Sequence(m)) if m.is_empty() => {
            let msg = "is empty (install modes not found); OLM matches the CSV to no OperatorGroup and never installs it";
            return sink.add_except(&rules::INSTALL_MODES, &[Tool::Courier], at, field, msg);
        }
        Some(Value::Sequence(m)) => m,
        Some(_) => return, // a type error
    };
    let mut seen = BTreeSet::new();
    let mut supported = BTreeSet::new();
    for (i, m) in modes.iter().enumerate() {
        let t = m.get("type").and_then(Value::as_str).unwrap_or("");
        let entry = format!("{field}[{i}].type");
        if !MODES.contains(&t) {
            let msg = format!("'{t}' is not one of {}", MODES.join(", "));
            sink.add(&rules::INSTALL_MODES_VALUES, at, &entry, msg);
        } else if !seen.insert(t) {
            let msg = format!("{t} is listed twice; OLM fails the CSV with InvalidInstallModes");
            sink.add(&rules::INSTALL_MODES_VALUES, at, &entry, msg);
        }
        if m.get("supported") == Some(&Value::Bool(true)) {
            supported.insert(t);
        }
    }
    if supported.is_empty() {
        sink.add(
            &rules::INSTALL_MODES_VALUES,
            at,
            field,
            "supports none of the install modes; no OperatorGroup can install it",
        );
    }
    // Conversion webhooks serve every namespace, so only AllNamespaces can work.
    let conversion = spec
        .get("webhookdefinitions")
        .and_then(Value::as_sequence)
        .is_some_and(|ws| {
            ws.iter().any(|w| {
                w.get("conversionCRDs")
                    .and_then(Value::as_sequence)
                    .is_some_and(|c| !c.is_empty())
            })
        });
    if conversion && supported.iter().copied().ne(["AllNamespaces"]) {
        let msg = format!(
            "supports {}; only AllNamespaces InstallModeType is supported when conversionCRDs is present",
            supported.iter().copied().collect::<Vec<_>>().join(", ")
        );
        sink.add(&rules::WEBHOOK_INSTALL_MODES, at, field, msg);
    }
}

fn permissions(ispec: &Value, key: &str, verbs: &[&str], at: &At, sink: &mut Sink) {
    let Some(items) = ispec.get(key).and_then(Value::as_sequence) else {
        return;
    };
    let base = format!("spec.install.spec.{key}");
    let check_verbs = sink.on(&rules::PERMISSION_VERBS);
    for (i, p) in items.iter().enumerate() {
        if p.get("serviceAccountName")
            .and_then(Value::as_str)
            .is_none_or(str::is_empty)
        {
            let field = format!("{base}[{i}].serviceAccountName");
            sink.add(&rules::INSTALL_ENTRIES, at, &field, "is missing");
        }
        let Some(rules_list) = p.get("rules").and_then(Value::as_sequence) else {
            let field = format!("{base}[{i}].rules");
            let msg = "is missing or not a list";
            sink.add(&rules::INSTALL_ENTRIES, at, &field, msg);
            continue;
        };
        if !check_verbs {
            continue;
        }
        for (j, r) in rules_list.iter().enumerate() {
            let field = format!("{base}[{i}].rules[{j}].verbs");
            let Some(vs) = r.get("verbs").and_then(Value::as_sequence) else {
                sink.add(&rules::PERMISSION_VERBS, at, &field, "is missing");
                continue;
            };
            for verb in vs {
                let s = verb.as_str().unwrap_or("");
                if !verbs.contains(&s) {
                    let msg = format!("'{s}' is not a verb the 2019 CSV schema allows in {key}");
                    sink.add(&rules::PERMISSION_VERBS, at, &field, msg);
                }
            }
        }
    }
}

/// The service accounts the CSV's deployments run as (OLM creates them).
pub(crate) fn service_accounts(csv: &Manifest) -> Vec<&str> {
    value_at(&csv.doc, "spec.install.spec.deployments")
        .and_then(Value::as_sequence)
        .map(|ds| {
            ds.iter()
                .filter_map(|d| value_at(d, "spec.template.spec.serviceAccountName"))
                .filter_map(Value::as_str)
                .collect()
        })
        .unwrap_or_default()
}

/// `spec.install` reduced to what [`service_accounts`] reads (each deployment's
/// `spec.template.spec.serviceAccountName`), for a CSV's skeleton; `None` without deployments.
pub(crate) fn accounts_only(csv: &Manifest) -> Option<Value> {
    let ds = value_at(&csv.doc, "spec.install.spec.deployments").and_then(Value::as_sequence)?;
    let kept: Vec<Value> = ds
        .iter()
        .map(|d| {
            let name = value_at(d, "spec.template.spec.serviceAccountName")
                .cloned()
                .unwrap_or(Value::Null);
            let yaml = |k: &str, v: Value| {
                let mut m = serde_yaml_ng::Mapping::new();
                m.insert(k.into(), v);
                Value::Mapping(m)
            };
            yaml(
                "spec",
                yaml("template", yaml("spec", yaml("serviceAccountName", name))),
            )
        })
        .collect();
    let mut spec = serde_yaml_ng::Mapping::new();
    spec.insert("deployments".into(), Value::Sequence(kept));
    let mut install = serde_yaml_ng::Mapping::new();
    install.insert("spec".into(), Value::Mapping(spec));
    Some(Value::Mapping(install))
}
