//! Whether OLM v0 and OLM v1 can install a release, with the reasons when not: what `plan`,
//! the run's summary and the GitHub job summary say. OLM v0 (operator-lifecycle-manager)
//! installs a bundle that passes validation under the pipeline's profile, so its verdict is
//! verify's own errors. OLM v1 (operator-controller) refuses what its ClusterExtension gates
//! and its registry+v1 validators refuse ([`super::install_refusals`], [`super::render`]),
//! installed as its docs recommend: for all namespaces, with cert-manager providing webhook
//! certificates (`docs/project/olmv1_limitations.md`), and what verify refuses about the
//! objects either OLM creates ([`CLUSTER_RULES`]: pods that never start, CRD versions that lose
//! fields, webhook configurations OLM never installs), which hold under OLM v1 as under OLM v0.
//! What OLM v1 installs but may not run as under OLM v0 (webhooks needing cert-manager, the
//! OperatorConditions API) is a note.

use serde::Serialize;

use super::bundle::RegistryV1;
use super::model::{CertProvider, Options};
use crate::Finding;
use crate::archive::Contents;
use crate::validate::rules::{
    CRD_CONVERSION, CRD_CONVERSION_SCHEMAS, DEPLOYMENT_CONTAINERS, DEPLOYMENT_IMAGE,
    DEPLOYMENT_REFERENCES, DEPLOYMENT_SELECTOR, DEPLOYMENT_SERVICE_ACCOUNT,
    OBJECT_WEBHOOK_CONFIGURATION, Rule,
};

/// verify's rules about the objects an OLM creates from the bundle, whatever its version: the
/// Deployments the API server refuses or whose pods never start, CRDs whose conversion fails
/// or loses fields, webhook configurations no OLM installs from `manifests/`. An error of one
/// is a reason under OLM v1 too.
pub const CLUSTER_RULES: [&Rule; 8] = [
    &DEPLOYMENT_SELECTOR,
    &DEPLOYMENT_CONTAINERS,
    &DEPLOYMENT_IMAGE,
    &DEPLOYMENT_SERVICE_ACCOUNT,
    &DEPLOYMENT_REFERENCES,
    &CRD_CONVERSION,
    &CRD_CONVERSION_SCHEMAS,
    &OBJECT_WEBHOOK_CONFIGURATION,
];

/// One OLM's verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// It installs the release.
    pub installs: bool,
    /// Why not (empty when it installs).
    pub reasons: Vec<String>,
    /// What to know when it does.
    pub notes: Vec<String>,
}

/// Whether OLM v0 and OLM v1 install the release.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Installable {
    /// OLM v0 (Subscriptions, operator-lifecycle-manager).
    pub olm_v0: Verdict,
    /// OLM v1 (ClusterExtensions, operator-controller).
    pub olm_v1: Verdict,
}

impl Verdict {
    fn of(reasons: Vec<String>, notes: Vec<String>) -> Self {
        Verdict {
            installs: reasons.is_empty(),
            reasons,
            notes,
        }
    }

    /// `yes`, `yes (NOTE; …)` or `no: REASON; …`.
    pub fn to_line(&self) -> String {
        match (self.installs, self.notes.is_empty()) {
            (true, true) => "yes".to_string(),
            (true, false) => format!("yes ({})", self.notes.join("; ")),
            (false, _) => format!("no: {}", self.reasons.join("; ")),
        }
    }
}

/// How many reasons a verdict names (and how many more there are).
const REASONS: usize = 3;

/// The verdicts for `bundle`, given verify's errors under the pipeline's profile (OLM v0
/// refuses what they name, the first three are its reasons; those of [`CLUSTER_RULES`] are
/// OLM v1's reasons too).
pub fn installable(bundle: &RegistryV1, errors: &[&Finding]) -> Installable {
    let opts = Options {
        install_namespace: "olm-release-check".into(),
        watch_namespace: None,
        deployment_config: None,
        cert_provider: Some(CertProvider::CertManager),
    };
    let mut reasons = super::render::install_refusals(bundle, &opts);
    if reasons.is_empty() {
        match super::render::render(bundle, &opts) {
            Ok(_) => {}
            Err(super::model::InstallError::Refused(why)) => reasons.extend(why),
            Err(e) => reasons.push(e.to_string()),
        }
    }
    for e in errors {
        let reason = shown(e);
        if CLUSTER_RULES.iter().any(|r| r.id == e.rule) && !reasons.contains(&reason) {
            reasons.push(reason);
        }
    }
    let mut notes = Vec::new();
    if !bundle.csv_list("spec.webhookdefinitions").is_empty() {
        notes.push(
            "its webhooks need cert-manager (or OpenShift's service CA) on the cluster".into(),
        );
    }
    if let Some(field) = crate::validate::olm_v1::operator_conditions(bundle) {
        notes.push(format!(
            "it uses the OperatorConditions API ({field}), which OLM v1 does not support"
        ));
    }
    Installable {
        olm_v0: Verdict::of(v0_reasons(errors), Vec::new()),
        olm_v1: Verdict::of(capped(reasons), notes),
    }
}

/// [`installable`] for a bundle as the release holds it: its newest CSV with the CRDs that CSV
/// owns and the objects beside it, as one registry+v1 bundle; `None` without a CSV.
pub fn installable_contents(contents: &Contents, errors: &[&Finding]) -> Option<Installable> {
    let csv = contents.bundle.csvs.first()?;
    let bundle = RegistryV1::of_release(
        &contents.bundle.package.package_name,
        csv,
        &contents.bundle.crds,
        &contents.objects,
    );
    Some(installable(&bundle, errors))
}

/// An error as a verdict's reason: `RULE: MESSAGE`.
fn shown(e: &Finding) -> String {
    format!("{}: {}", e.rule, e.message)
}

fn v0_reasons(errors: &[&Finding]) -> Vec<String> {
    capped(errors.iter().map(|e| shown(e)).collect())
}

/// The first [`REASONS`] reasons, then how many more there are.
fn capped(mut reasons: Vec<String>) -> Vec<String> {
    if reasons.len() > REASONS {
        let more = reasons.len() - REASONS;
        reasons.truncate(REASONS);
        reasons.push(format!("and {more} more"));
    }
    reasons
}
