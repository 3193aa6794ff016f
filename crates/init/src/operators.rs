//! Which operator a repository releases, when it holds several Deployments: strimzi has a
//! cluster, a topic, a user and an access operator (each in `install/` and again in
//! `packaging/install/`), prometheus-operator an admission webhook beside its operator.
//!
//! The operator is the Deployment whose service account's roles name the most of the
//! repository's custom resources (an operator manages its CRDs; a webhook, a proxy or an example
//! app manages none); then one named like the repository, then one named like an operator, then
//! the shallowest. Copies of one Deployment (the same name in several folders) are one
//! candidate, taken from the shallowest folder. `--operator NAME` chooses another; `init` lists
//! them all.

use super::parts::{Crd, Deployment};
use super::rbac::Rbac;

/// One operator the repository could release.
#[derive(Debug, Clone)]
pub(crate) struct Operator {
    pub deployment: Deployment,
    /// Other files holding a Deployment of the same name, not taken.
    pub copies: Vec<String>,
    /// The CRDs its roles name.
    pub manages: Vec<String>,
}

impl Operator {
    pub fn name(&self) -> &str {
        &self.deployment.name
    }

    /// What the listing says about it.
    pub fn describe(&self) -> String {
        let manages = match self.manages.len() {
            0 => "manages no CRD".to_string(),
            n => format!("manages {}", olm_release_base::words::count(n, "CRD")),
        };
        format!("{} in {} ({manages})", self.name(), self.deployment.file)
    }
}

/// The candidates, best first.
pub(crate) fn rank(
    deployments: Vec<Deployment>,
    rbac: &Rbac,
    crds: &[Crd],
    repo: &str,
) -> Vec<Operator> {
    let manages = |d: &Deployment| -> Vec<String> {
        d.service_account
            .as_deref()
            .map(|sa| rbac.manages(sa, crds))
            .unwrap_or_default()
            .into_iter()
            .map(|c| c.name.clone())
            .collect()
    };
    // Of copies, the one whose service account manages the most, then the shallowest.
    let mut all: Vec<Operator> = deployments
        .into_iter()
        .map(|d| Operator {
            manages: manages(&d),
            deployment: d,
            copies: Vec::new(),
        })
        .collect();
    all.sort_by_key(|o| {
        (
            std::cmp::Reverse(o.manages.len()),
            o.deployment.file.matches('/').count(),
            o.deployment.file.clone(),
        )
    });
    let mut by_name: Vec<Operator> = Vec::new();
    for o in all {
        match by_name.iter_mut().find(|b| b.name() == o.name()) {
            Some(b) => {
                if b.deployment.file != o.deployment.file && !b.copies.contains(&o.deployment.file)
                {
                    b.copies.push(o.deployment.file);
                }
            }
            None => by_name.push(o),
        }
    }
    by_name.sort_by_key(|o| {
        (
            std::cmp::Reverse(o.manages.len()),
            o.name() != repo,
            !o.name().contains("operator"),
            o.deployment.file.matches('/').count(),
            o.deployment.file.clone(),
        )
    });
    by_name
}
