//! Why OLM v1 refuses a bundle, in its own words. Two layers, as in operator-controller: the
//! renderer's bundle validators and target-namespace check (`rukpak/render/registryv1/validators`,
//! `rukpak/render/render.go`), which every rendering runs; and the manifest provider's gates
//! (`applier/provider.go`) and the resolver's dependency check (`resolve/validation.go`), which
//! decide whether a ClusterExtension may install the bundle at all: no API service definitions,
//! webhooks only with a certificate provider, the AllNamespaces install mode unless a watch
//! namespace is configured, no `olm.gvk.required`, `olm.package.required` or `olm.constraint`
//! (`docs/project/olmv1_limitations.md`).

use serde_yaml_ng::Value;

use super::bundle::RegistryV1;
use crate::validate::text::is_dns1123_subdomain;

/// The kinds a registry+v1 bundle may carry besides the CSV and CRDs, and whether each is
/// namespaced (operator-registry's `pkg/lib/bundle/supported_resources.go`).
pub(crate) const OTHER_KINDS: &[(&str, bool)] = &[
    ("ClusterRole", false),
    ("ClusterRoleBinding", false),
    ("ConfigMap", true),
    ("ConsoleCLIDownload", false),
    ("ConsoleLink", false),
    ("ConsolePlugin", false),
    ("ConsoleQuickStart", false),
    ("ConsoleYAMLSample", false),
    ("NetworkPolicy", true),
    ("PodDisruptionBudget", true),
    ("PriorityClass", false),
    ("PrometheusRule", true),
    ("Role", true),
    ("RoleBinding", true),
    ("Secret", true),
    ("Service", true),
    ("ServiceAccount", true),
    ("ServiceMonitor", true),
    ("VerticalPodAutoscaler", false),
];

/// The admissionregistration.k8s.io resources an admission webhook may not intercept.
const FORBIDDEN_ADMISSION_RESOURCES: [&str; 5] = [
    "*",
    "mutatingwebhookconfiguration",
    "mutatingwebhookconfigurations",
    "validatingwebhookconfiguration",
    "validatingwebhookconfigurations",
];

/// The dependency properties OLM v1 does not resolve.
pub(crate) const DEPENDENCY_TYPES: [&str; 3] =
    ["olm.package.required", "olm.gvk.required", "olm.constraint"];

const DNS1123_SUBDOMAIN: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or_default()
}

fn dns_errors(name: &str) -> Option<String> {
    let mut errs = Vec::new();
    if name.len() > 253 {
        errs.push("must be no more than 253 characters".to_string());
    }
    if !is_dns1123_subdomain(name) {
        errs.push(DNS1123_SUBDOMAIN.to_string());
    }
    errs.sort();
    (!errs.is_empty()).then(|| errs.join(", "))
}

/// The renderer's validators: every reason, in the validators' order.
pub(crate) fn bundle_errors(b: &RegistryV1) -> Vec<String> {
    let mut errs = Vec::new();
    let deployments = b.csv_list("spec.install.spec.deployments");
    let names: Vec<&str> = deployments.iter().map(|d| s(d, "name")).collect();
    let mut dup: Vec<&str> = names
        .iter()
        .enumerate()
        .filter(|(i, n)| names[..*i].contains(n))
        .map(|(_, n)| *n)
        .collect();
    dup.sort();
    dup.dedup();
    for d in dup {
        errs.push(format!(
            "cluster service version contains duplicate strategy deployment spec '{d}'"
        ));
    }
    let mut bad: Vec<(&str, String)> = names
        .iter()
        .filter_map(|n| dns_errors(n).map(|e| (*n, e)))
        .collect();
    bad.sort();
    bad.dedup();
    for (n, e) in bad {
        errs.push(format!(
            "invalid cluster service version strategy deployment name '{n}': {e}"
        ));
    }
    let crds: Vec<&str> = b
        .crds
        .iter()
        .map(|c| {
            crate::value_at(c, "metadata.name")
                .and_then(Value::as_str)
                .unwrap_or_default()
        })
        .collect();
    let mut dup: Vec<&str> = crds
        .iter()
        .enumerate()
        .filter(|(i, n)| crds[..*i].contains(n))
        .map(|(_, n)| *n)
        .collect();
    dup.sort();
    dup.dedup();
    for c in dup {
        errs.push(format!(
            "bundle contains duplicate custom resource definition '{c}'"
        ));
    }
    let owned: Vec<&str> = b
        .csv_list("spec.customresourcedefinitions.owned")
        .iter()
        .map(|o| s(o, "name"))
        .collect();
    let mut missing: Vec<&str> = owned
        .iter()
        .filter(|o| !crds.contains(o))
        .copied()
        .collect();
    missing.sort();
    missing.dedup();
    for m in missing {
        errs.push(format!(
            "cluster service definition references owned custom resource definition '{m}' not found in bundle"
        ));
    }
    if b.package_name.is_empty() {
        errs.push("package name is empty".into());
    }
    errs.extend(webhook_errors(b, &names, &owned));
    for o in &b.others {
        let kind = s(o, "kind");
        if !OTHER_KINDS.iter().any(|(k, _)| *k == kind) {
            let name = crate::value_at(o, "metadata.name")
                .and_then(Value::as_str)
                .unwrap_or_default();
            errs.push(format!(
                "unsupported resource \"{name}\" with kind \"{kind}\""
            ));
        }
    }
    errs
}

/// The webhook validators.
fn webhook_errors(b: &RegistryV1, deployments: &[&str], owned: &[&str]) -> Vec<String> {
    let hooks = b.csv_list("spec.webhookdefinitions");
    let mut errs = Vec::new();
    let conversions: Vec<&Value> = hooks
        .iter()
        .filter(|w| s(w, "type") == "ConversionWebhook")
        .collect();
    let modes = b.supported_install_modes();
    if !conversions.is_empty() && modes != ["AllNamespaces"] {
        for w in &conversions {
            errs.push(format!(
                "bundle contains conversion webhook \"{}\" and supports install modes [{}] - conversion webhooks are only supported for bundles that only support AllNamespaces install mode",
                s(w, "generateName"),
                modes.join(" ")
            ));
        }
    }
    let mut dangling: Vec<(&str, &str, &str)> = hooks
        .iter()
        .filter(|w| !deployments.contains(&s(w, "deploymentName")))
        .map(|w| (s(w, "deploymentName"), s(w, "type"), s(w, "generateName")))
        .collect();
    dangling.sort();
    for (d, t, n) in dangling {
        errs.push(format!(
            "webhook of type '{t}' with name '{n}' references non-existent deployment '{d}'"
        ));
    }
    let mut seen: Vec<(&str, &str)> = Vec::new();
    let mut dups: Vec<(&str, &str)> = Vec::new();
    for w in hooks {
        let key = (s(w, "type"), s(w, "generateName"));
        if seen.contains(&key) {
            dups.push(key);
        }
        seen.push(key);
    }
    dups.sort();
    dups.dedup();
    for (t, n) in dups {
        errs.push(format!("duplicate webhook '{n}' of type '{t}'"));
    }
    let mut bad: Vec<(&str, &str, String)> = hooks
        .iter()
        .filter_map(|w| {
            let n = s(w, "generateName");
            dns_errors(n).map(|e| (s(w, "type"), n, e))
        })
        .collect();
    bad.sort();
    bad.dedup();
    for (t, n, e) in bad {
        errs.push(format!("webhook of type '{t}' has invalid name '{n}': {e}"));
    }
    let mut by_crd: Vec<(String, Vec<&str>)> = Vec::new();
    for w in &conversions {
        for crd in super::names::strings(w.get("conversionCRDs")).unwrap_or_default() {
            match by_crd.iter_mut().find(|(c, _)| *c == crd) {
                Some((_, ws)) => ws.push(s(w, "generateName")),
                None => by_crd.push((crd, vec![s(w, "generateName")])),
            }
        }
    }
    by_crd.sort();
    for (crd, mut ws) in by_crd.into_iter().filter(|(_, ws)| ws.len() > 1) {
        ws.sort();
        errs.push(format!(
            "conversion webhooks [{}] reference same custom resource definition '{crd}'",
            ws.join(",")
        ));
    }
    let mut sorted = conversions.clone();
    sorted.sort_by_key(|w| s(w, "generateName"));
    for w in sorted {
        let mut crds = super::names::strings(w.get("conversionCRDs")).unwrap_or_default();
        crds.sort();
        for crd in crds.iter().filter(|c| !owned.contains(&c.as_str())) {
            errs.push(format!(
                "conversion webhook '{}' references custom resource definition '{crd}' not owned bundle",
                s(w, "generateName")
            ));
        }
    }
    for w in hooks.iter().filter(|w| s(w, "type") != "ConversionWebhook") {
        let name = s(w, "generateName");
        for rule in w
            .get("rules")
            .and_then(Value::as_sequence)
            .into_iter()
            .flatten()
        {
            for group in super::names::strings(rule.get("apiGroups")).unwrap_or_default() {
                if group == "olm.operatorframework.io" || group == "*" {
                    errs.push(format!("webhook \"{name}\" contains forbidden rule: admission webhook rules cannot reference API group \"{group}\""));
                }
                if group == "admissionregistration.k8s.io" {
                    for res in super::names::strings(rule.get("resources")).unwrap_or_default() {
                        if FORBIDDEN_ADMISSION_RESOURCES.contains(&res.to_lowercase().as_str()) {
                            errs.push(format!("webhook \"{name}\" contains forbidden rule: admission webhook rules cannot reference resource \"{res}\" for API group \"{group}\""));
                        }
                    }
                }
            }
        }
    }
    errs
}

/// The target namespaces a rendering uses, or OLM v1's reason to refuse them.
pub(crate) fn target_namespaces(
    b: &RegistryV1,
    install_namespace: &str,
    watch: Option<&str>,
) -> Result<Vec<String>, String> {
    let modes = b.supported_install_modes();
    let has = |m: &str| modes.iter().any(|x| x == m);
    let list = modes.join(" ");
    let targets: Vec<String> = match watch {
        Some(w) => vec![w.to_string()],
        None if has("AllNamespaces") => vec![String::new()],
        None => Vec::new(),
    };
    let invalid = |why: String| {
        format!(
            "invalid option(s): invalid target namespaces [{}]: {why}",
            targets.join(" ")
        )
    };
    match targets.first().map(String::as_str) {
        None if has("MultiNamespace") => Err(invalid(
            "at least one target namespace must be specified".into(),
        )),
        None => Err(invalid(
            "exactly one target namespace must be specified".into(),
        )),
        Some("") if has("AllNamespaces") => Ok(targets),
        Some("") => Err(invalid(format!(
            "supported install modes [{list}] do not support targeting all namespaces"
        ))),
        Some(t) if t == install_namespace && has("OwnNamespace") => Ok(targets),
        Some(t) if t == install_namespace => Err(invalid(format!(
            "supported install modes [{list}] do not support targeting own namespace"
        ))),
        Some(_) if has("SingleNamespace") => Ok(targets),
        Some(_) => Err(invalid(format!(
            "supported install modes [{list}] do not support target namespaces [{}]",
            targets.join(" ")
        ))),
    }
}

/// The ClusterExtension gates: why OLM v1 would not install the bundle at all.
pub(crate) fn install_gates(
    b: &RegistryV1,
    has_cert_provider: bool,
    watch_namespace_set: bool,
) -> Vec<String> {
    let mut errs = Vec::new();
    if !b.csv_list("spec.apiservicedefinitions.owned").is_empty() {
        // Sic: operator-controller spells it so.
        errs.push("unsupported bundle: apiServiceDefintions are not supported".into());
    }
    if !b.csv_list("spec.webhookdefinitions").is_empty() && !has_cert_provider {
        errs.push(
            "unsupported bundle: webhookDefinitions are not supported: certificate provider is nil"
                .into(),
        );
    }
    let modes = b.supported_install_modes();
    let has = |m: &str| modes.iter().any(|x| x == m);
    if !watch_namespace_set && !has("AllNamespaces") {
        errs.push("unsupported bundle: bundle does not support AllNamespaces install mode".into());
    }
    if !has("AllNamespaces") && !has("SingleNamespace") && !has("OwnNamespace") {
        errs.push("unsupported bundle: bundle must support at least one of [AllNamespaces SingleNamespace OwnNamespace] install modes".into());
    }
    for (t, from) in &b.property_types {
        if DEPENDENCY_TYPES.contains(&t.as_str()) {
            errs.push(format!(
                "bundle \"{}\" has a dependency declared via property \"{t}\" which is currently not supported (declared in {from})",
                b.csv_name()
            ));
            break;
        }
    }
    errs
}
