//! The data the cluster module's generators share: how the bundle is installed ([`Options`],
//! resolved into [`Rendering`]), who provides webhook certificates, and why a bundle cannot be
//! rendered. A leaf: the generators and `mod.rs` import it, it imports none of them.

use serde_yaml_ng::Value;

use super::config::DeploymentConfig;

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

/// A JSON value built with `json!` as a YAML value.
pub(crate) fn to_value(j: serde_json::Value) -> Value {
    serde_yaml_ng::to_value(j).expect("JSON converts to YAML")
}
