//! The rendering itself: the gates a ClusterExtension applies ([`install_refusals`]) and the
//! objects OLM v1's renderer makes of a bundle ([`render`]), each generator's objects gathered
//! and sorted by kind, namespace and name as operator-controller's goldens are.

use serde_yaml_ng::Value;

use super::bundle::RegistryV1;
use super::model::{InstallError, Options, Rendering};
use super::{deployment, rbac, refuse, webhooks};

/// The gates a ClusterExtension applies before rendering (empty: OLM v1 would install it).
pub fn install_refusals(bundle: &RegistryV1, opts: &Options) -> Vec<String> {
    refuse::install_gates(
        bundle,
        opts.cert_provider.is_some(),
        opts.watch_namespace.is_some(),
    )
}

/// The objects OLM v1's renderer makes of the bundle, sorted by kind, namespace and name; or
/// its validators' reasons to refuse it.
pub fn render(bundle: &RegistryV1, opts: &Options) -> Result<Vec<Value>, InstallError> {
    let errors = refuse::bundle_errors(bundle);
    if !errors.is_empty() {
        return Err(InstallError::Refused(errors));
    }
    let target_namespaces = refuse::target_namespaces(
        bundle,
        &opts.install_namespace,
        opts.watch_namespace.as_deref(),
    )
    .map_err(InstallError::refused)?;
    let r = Rendering {
        install_namespace: opts.install_namespace.clone(),
        target_namespaces,
        cert_provider: opts.cert_provider,
        deployment_config: opts.deployment_config.clone(),
    };
    let mut objects = rbac::service_accounts(bundle, &r);
    objects.extend(rbac::roles(bundle, &r));
    objects.extend(rbac::cluster_roles(bundle, &r));
    objects.extend(webhooks::crds(bundle, &r)?);
    objects.extend(others(bundle, &r));
    objects.extend(deployment::deployments(bundle, &r));
    objects.extend(webhooks::configurations(bundle, &r));
    objects.extend(webhooks::services(bundle, &r));
    objects.extend(webhooks::certificates(bundle, &r));
    objects.sort_by_cached_key(|o| {
        let meta = |k: &str| {
            crate::value_at(o, &format!("metadata.{k}"))
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string()
        };
        let kind = o.get("kind").and_then(Value::as_str).unwrap_or_default();
        (kind.to_string(), meta("namespace"), meta("name"))
    });
    Ok(objects)
}

/// The bundle's other objects, namespaced ones moved into the install namespace.
fn others(b: &RegistryV1, r: &Rendering) -> Vec<Value> {
    b.others
        .iter()
        .map(|o| {
            let mut o = o.clone();
            let kind = o.get("kind").and_then(Value::as_str).unwrap_or_default();
            let namespaced = refuse::OTHER_KINDS.iter().any(|(k, ns)| *k == kind && *ns);
            if namespaced && let Some(meta) = o.get_mut("metadata").and_then(Value::as_mapping_mut)
            {
                meta.insert("namespace".into(), r.install_namespace.clone().into());
            }
            o
        })
        .collect()
}
