//! What the cluster gets: a registry+v1 bundle rendered into the plain Kubernetes objects OLM v1
//! (operator-framework/operator-controller, "cluster extensions") applies for it, and OLM v1's
//! reasons to refuse a bundle. The rules are those of operator-controller's registry+v1
//! renderer (`internal/operator-controller/rukpak/render`: the generators per object kind, the
//! bundle validators, the certificate providers) and of its documented limits
//! (`docs/project/olmv1_limitations.md`): the AllNamespaces install mode (SingleNamespace and
//! OwnNamespace only with a configured watch namespace), no dependencies, webhooks only through a
//! certificate provider (cert-manager, or OpenShift's service CA). Its regression goldens
//! (`test/regression/convert/testdata`) are the oracle the tests compare with.
//!
//! [`RegistryV1::from_files`] reads a bundle folder's files; [`render`] returns the objects,
//! sorted by kind, namespace and name as the goldens are; [`install_refusals`] adds the gates a
//! ClusterExtension applies before rendering. No I/O: the command reads the folder.

mod bundle;
mod config;
mod deployment;
pub(crate) mod names;
mod rbac;
pub(crate) mod refuse;
mod webhooks;

pub use bundle::RegistryV1;
pub use config::DeploymentConfig;

use serde_yaml_ng::Value;

/// Who provides the webhooks' serving certificates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CertProvider {
    /// cert-manager (OLM v1's default): a self-signed Issuer and a Certificate per deployment,
    /// CA injection through `cert-manager.io/inject-ca-from`.
    CertManager,
    /// OpenShift's service CA operator: the serving Secret requested on the Service, CA
    /// injection through `service.beta.openshift.io/inject-cabundle`.
    OpenshiftServiceCa,
}

/// How the bundle is installed.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The ClusterExtension's `spec.namespace`.
    pub install_namespace: String,
    /// The configured `watchNamespace` (`None`: all namespaces when the bundle supports it;
    /// `Some("")`: all namespaces explicitly).
    pub watch_namespace: Option<String>,
    /// The configured `deploymentConfig`.
    pub deployment_config: Option<DeploymentConfig>,
    /// The certificate provider (`None`: the renderer alone, as the goldens are made).
    pub cert_provider: Option<CertProvider>,
}

/// Why a bundle cannot be rendered.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    /// The bundle's files cannot be read as a registry+v1 bundle.
    #[error("{0}")]
    Unreadable(String),
    /// The `deploymentConfig` is not one OLM v1 accepts.
    #[error("{0}")]
    Config(String),
    /// OLM v1 refuses the bundle; its reasons, in its words.
    #[error("OLM v1 cannot install this bundle: {}", .0.join("; "))]
    Refused(Vec<String>),
}

impl InstallError {
    pub(crate) fn refused(why: String) -> Self {
        InstallError::Refused(vec![why])
    }
}

/// The resolved options generators share.
pub(crate) struct Rendering {
    pub(crate) install_namespace: String,
    pub(crate) target_namespaces: Vec<String>,
    pub(crate) cert_provider: Option<CertProvider>,
    pub(crate) deployment_config: Option<DeploymentConfig>,
}

impl Rendering {
    /// Installed for all namespaces (`[""]`).
    pub(crate) fn all_namespaces(&self) -> bool {
        self.target_namespaces.len() == 1 && self.target_namespaces[0].is_empty()
    }
}

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

/// A JSON value built with `json!` as a YAML value.
pub(crate) fn to_value(j: serde_json::Value) -> Value {
    serde_yaml_ng::to_value(j).expect("JSON converts to YAML")
}

/// The objects as one YAML stream (`---` between documents).
pub fn to_yaml_stream(objects: &[Value]) -> String {
    let mut out = String::new();
    for o in objects {
        out.push_str("---\n");
        out.push_str(&serde_yaml_ng::to_string(o).expect("a YAML value serialises"));
    }
    out
}

/// Two objects compared as the API server reads them: `null` fields and empty mappings are
/// unset, and `status` is never applied. Go's typed serializers write such fields
/// (`creationTimestamp: null`, `strategy: {}`, `status: {}`) where the bundle had none; this
/// is the equality the oracle tests use.
pub fn as_applied(object: &Value) -> Value {
    fn strip(v: &Value) -> Option<Value> {
        match v {
            Value::Null => None,
            Value::Mapping(m) => {
                let out: serde_yaml_ng::Mapping = m
                    .iter()
                    .filter_map(|(k, v)| strip(v).map(|v| (k.clone(), v)))
                    .collect();
                (!out.is_empty()).then_some(Value::Mapping(out))
            }
            Value::Sequence(s) => Some(Value::Sequence(
                s.iter().map(|x| strip(x).unwrap_or(Value::Null)).collect(),
            )),
            Value::Tagged(t) => strip(&t.value),
            other => Some(other.clone()),
        }
    }
    let mut o = object.clone();
    if let Some(m) = o.as_mapping_mut() {
        m.remove("status");
    }
    strip(&o).unwrap_or(Value::Null)
}
