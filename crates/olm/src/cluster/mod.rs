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
//! ClusterExtension applies before rendering; [`upgrade_diff`] compares two renderings (what an
//! upgrade changes in the cluster); [`installable`] says whether OLM v0 and OLM v1 install a
//! release; [`olm_v1_install`] writes the ClusterCatalog and ClusterExtension that install it
//! from its catalog image. No I/O: the application reads folders and images.

mod bundle;
mod config;
mod deployment;
mod extension;
mod grants;
mod model;
pub(crate) mod names;
mod rbac;
pub(crate) mod refuse;
mod render;
mod stranded;
mod upgrade;
mod verdict;
mod webhooks;

pub use bundle::RegistryV1;
pub use config::DeploymentConfig;
pub use extension::{ExtensionRequest, catalog_name, olm_v1_install};
pub use grants::Grant;
pub use model::{CertProvider, InstallError, Options};
pub use render::{install_refusals, render};
pub use upgrade::{CrdVersionChange, ImageChange, UpgradeDiff, rendering_for_diff, upgrade_diff};
pub use verdict::{Installable, Verdict, installable, installable_contents};
pub use webhooks::webhook_fields;

use serde_yaml_ng::Value;

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
