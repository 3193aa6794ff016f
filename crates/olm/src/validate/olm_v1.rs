//! `--profile olm-v1`: what OLM v1 (operator-framework/operator-controller) refuses or does not
//! support, per CSV of a bundle, from its documented limits (`docs/project/olmv1_limitations.md`:
//! the AllNamespaces install mode, no `olm.gvk.required`, `olm.package.required` or
//! `olm.constraint` dependencies, webhooks only through a certificate provider, no
//! OperatorConditions API) and from the checks its code runs before rendering (the manifest
//! provider's gates, the renderer's registry+v1 validators, in [`crate::cluster`]). Under the
//! other profiles these rules are off and nothing here runs.

use serde_yaml_ng::Value;

use super::model::Unit;
use super::rules;
use super::sink::{At, Sink};
use crate::cluster::RegistryV1;
use crate::cluster::refuse::{DEPENDENCY_TYPES, bundle_errors};
use crate::value_at;

/// The checks of one bundle under `olm-v1`.
pub(crate) fn check(unit: &Unit, sink: &mut Sink) {
    if !sink.on(&rules::OLM_V1_BUNDLE) {
        return;
    }
    let crds: Vec<Value> = unit.crds.iter().map(|m| m.doc.clone()).collect();
    let others: Vec<Value> = unit.objects.iter().map(|m| m.doc.clone()).collect();
    for csv in unit.csvs {
        let at = At::of(csv);
        let b = RegistryV1::from_objects(csv.doc.clone(), crds.clone(), others.clone());
        let modes = b.supported_install_modes();
        if !modes.iter().any(|m| m == "AllNamespaces") {
            let msg = format!(
                "supports [{}], not AllNamespaces: OLM v1 refuses it (\"unsupported bundle: bundle does not support AllNamespaces install mode\") unless the ClusterExtension configures a watchNamespace, which its docs do not recommend",
                modes.join(" ")
            );
            sink.add(&rules::OLM_V1_INSTALL_MODES, &at, "spec.installModes", msg);
        }
        if let Some((t, from)) = b
            .property_types
            .iter()
            .find(|(t, _)| DEPENDENCY_TYPES.contains(&t.as_str()))
        {
            let msg = format!(
                "bundle \"{}\" has a dependency declared via property \"{t}\" which is currently not supported (declared in {from})",
                b.csv_name()
            );
            sink.add(
                &rules::OLM_V1_DEPENDENCIES,
                &at,
                "spec.customresourcedefinitions.required",
                msg,
            );
        }
        if !b.csv_list("spec.apiservicedefinitions.owned").is_empty() {
            let msg = "unsupported bundle: apiServiceDefintions are not supported";
            sink.add(
                &rules::OLM_V1_API_SERVICES,
                &at,
                "spec.apiservicedefinitions.owned",
                msg,
            );
        }
        if !b.csv_list("spec.webhookdefinitions").is_empty() {
            let msg = "declares webhooks: OLM v1 installs them only through a certificate provider (cert-manager by default, or OpenShift's service CA), which must be on the cluster";
            sink.add(&rules::OLM_V1_WEBHOOKS, &at, "spec.webhookdefinitions", msg);
        }
        for e in bundle_errors(&b)
            .into_iter()
            .filter(|e| e != "package name is empty")
        {
            sink.add(&rules::OLM_V1_BUNDLE, &at, "spec", e);
        }
        if let Some(field) = operator_conditions(&b) {
            let msg = "uses the OperatorConditions API, which OLM v1 does not support: the operator may fail at start or while reconciling";
            sink.add(&rules::OLM_V1_OPERATOR_CONDITIONS, &at, &field, msg);
        }
    }
}

/// Where the CSV uses OperatorConditions: a permission on `operatorconditions`, or a container
/// reading `OPERATOR_CONDITION_NAME` (which OLM v0 sets and operator-lib reads).
pub(crate) fn operator_conditions(b: &RegistryV1) -> Option<String> {
    for key in ["permissions", "clusterPermissions"] {
        let path = format!("spec.install.spec.{key}");
        for p in b.csv_list(&path) {
            for r in p
                .get("rules")
                .and_then(Value::as_sequence)
                .into_iter()
                .flatten()
            {
                let names = r.get("resources").and_then(Value::as_sequence);
                if names.into_iter().flatten().any(|n| {
                    n.as_str()
                        .is_some_and(|n| n.starts_with("operatorconditions"))
                }) {
                    return Some(format!("{path}.rules.resources"));
                }
            }
        }
    }
    for d in b.csv_list("spec.install.spec.deployments") {
        let containers = value_at(d, "spec.template.spec.containers").and_then(Value::as_sequence);
        for c in containers.into_iter().flatten() {
            let env = c.get("env").and_then(Value::as_sequence);
            if env
                .into_iter()
                .flatten()
                .any(|e| e.get("name").and_then(Value::as_str) == Some("OPERATOR_CONDITION_NAME"))
            {
                let name = d.get("name").and_then(Value::as_str).unwrap_or_default();
                return Some(format!(
                    "spec.install.spec.deployments[{name}].spec.template.spec.containers.env"
                ));
            }
        }
    }
    None
}
