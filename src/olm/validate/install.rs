//! How a CSV installs: install modes (checklist rule 9), the install strategy, deployments and
//! permissions (rule 10), and the permission verbs of the 2019 CSV schema (rule 19).

use std::collections::BTreeSet;

use serde_yaml_ng::Value;

use super::csv::type_name;
use super::{At, Sink, rules};
use crate::olm::Manifest;

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
    match install.get("strategy").and_then(Value::as_str) {
        Some("deployment") => {}
        Some(other) => sink.add(
            &rules::INSTALL,
            &at,
            "spec.install.strategy",
            format!("is '{other}'; only deployment is supported"),
        ),
        None => sink.add(&rules::INSTALL, &at, "spec.install.strategy", "is missing"),
    }
    let Some(ispec) = install.get("spec").filter(|s| s.is_mapping()) else {
        sink.add(&rules::INSTALL, &at, "spec.install.spec", "is missing");
        return;
    };
    match ispec.get("deployments") {
        None => sink.add(
            &rules::INSTALL,
            &at,
            "spec.install.spec.deployments",
            "is missing",
        ),
        Some(Value::Sequence(ds)) if ds.is_empty() => sink.add(
            &rules::INSTALL,
            &at,
            "spec.install.spec.deployments",
            "is empty; nothing would run",
        ),
        Some(Value::Sequence(ds)) => {
            for (i, d) in ds.iter().enumerate() {
                if d.get("name")
                    .and_then(Value::as_str)
                    .is_none_or(str::is_empty)
                {
                    sink.add(
                        &rules::INSTALL,
                        &at,
                        &format!("spec.install.spec.deployments[{i}].name"),
                        "is missing",
                    );
                }
                if !d.get("spec").is_some_and(Value::is_mapping) {
                    sink.add(
                        &rules::INSTALL,
                        &at,
                        &format!("spec.install.spec.deployments[{i}].spec"),
                        "is missing (a DeploymentSpec)",
                    );
                }
            }
        }
        Some(other) => sink.add(
            &rules::INSTALL,
            &at,
            "spec.install.spec.deployments",
            format!("is {}, not a list", type_name(other)),
        ),
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
        None => {
            return sink.add(
                &rules::INSTALL_MODES,
                at,
                field,
                "is missing; OLM cannot match any OperatorGroup",
            );
        }
        Some(Value::Sequence(m)) => m,
        Some(other) => {
            return sink.add(
                &rules::INSTALL_MODES,
                at,
                field,
                format!("is {}, not a list", type_name(other)),
            );
        }
    };
    let mut seen = BTreeSet::new();
    let mut supported = 0;
    for (i, m) in modes.iter().enumerate() {
        let t = m.get("type").and_then(Value::as_str).unwrap_or("");
        if !MODES.contains(&t) {
            sink.add(
                &rules::INSTALL_MODES,
                at,
                &format!("{field}[{i}].type"),
                format!("'{t}' is not one of {}", MODES.join(", ")),
            );
        } else if !seen.insert(t) {
            sink.add(
                &rules::INSTALL_MODES,
                at,
                &format!("{field}[{i}].type"),
                format!("{t} is listed twice; OLM fails the CSV with InvalidInstallModes"),
            );
        }
        match m.get("supported") {
            Some(Value::Bool(true)) => supported += 1,
            Some(Value::Bool(false)) => {}
            _ => sink.add(
                &rules::INSTALL_MODES,
                at,
                &format!("{field}[{i}].supported"),
                "must be true or false",
            ),
        }
    }
    if supported == 0 {
        sink.add(
            &rules::INSTALL_MODES,
            at,
            field,
            "supports no install mode; no OperatorGroup can install it",
        );
    }
}

fn permissions(ispec: &Value, key: &str, verbs: &[&str], at: &At, sink: &mut Sink) {
    let Some(v) = ispec.get(key) else { return };
    let base = format!("spec.install.spec.{key}");
    let Some(items) = v.as_sequence() else {
        return sink.add(
            &rules::INSTALL,
            at,
            &base,
            format!("is {}, not a list", type_name(v)),
        );
    };
    let check_verbs = sink.on(&rules::PERMISSION_VERBS);
    for (i, p) in items.iter().enumerate() {
        if p.get("serviceAccountName")
            .and_then(Value::as_str)
            .is_none_or(str::is_empty)
        {
            sink.add(
                &rules::INSTALL,
                at,
                &format!("{base}[{i}].serviceAccountName"),
                "is missing",
            );
        }
        let Some(rules_list) = p.get("rules").and_then(Value::as_sequence) else {
            sink.add(
                &rules::INSTALL,
                at,
                &format!("{base}[{i}].rules"),
                "is missing or not a list",
            );
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
