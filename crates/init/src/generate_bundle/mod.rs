//! What `operator-sdk generate bundle` makes of the output of `kustomize build config/manifests`
//! (the pipe a kubebuilder project's `make bundle` runs), as a pure function of that output:
//! the ClusterServiceVersion (the CSV base the kustomization takes, completed with the
//! deployments, permissions, owned CRDs, examples and webhook definitions) and the other
//! manifests of the bundle, each named as operator-sdk names its files.
//!
//! The rules follow operator-sdk's own code (github.com/operator-framework/operator-sdk):
//! `internal/generate/collector/` sorts the documents by kind ([`collect`]),
//! `internal/generate/clusterserviceversion/clusterserviceversion_updaters.go` completes the
//! CSV ([`csv`]) and turns admission and conversion webhooks into `webhookdefinitions`
//! ([`webhooks`]), and `internal/cmd/operator-sdk/generate/internal/manifests.go` chooses the
//! other objects written beside it ([`objects`]). Where this module departs from it on purpose
//! (no `createdAt`, the webhook certificate volume), the book's "Bundles from `make bundle`"
//! says why.

mod collect;
mod csv;
mod objects;
mod paths;
mod rbac;
mod webhooks;

use serde_yaml_ng::Value;

/// A bundle as `operator-sdk generate bundle` writes it: the CSV and the other manifests.
#[derive(Debug, Clone)]
pub struct GeneratedBundle {
    /// The CSV's file name (`OPERATOR.clusterserviceversion.yaml`) and the CSV.
    pub csv: (String, Value),
    /// Every other manifest: (file name, object).
    pub objects: Vec<(String, Value)>,
    /// What was left out or changed, one sentence each.
    pub notes: Vec<String>,
}

/// The bundle `operator-sdk generate bundle` writes from `kustomize_output` (the documents
/// `kustomize build config/manifests` prints): `operator` chooses the CSV base named
/// `OPERATOR.*` (default: the first), `version` sets its name and version (default: the
/// base's). `None` when the output holds neither a CSV nor a Deployment.
pub fn generate_bundle(
    kustomize_output: &str,
    operator: Option<&str>,
    version: Option<&str>,
) -> Option<GeneratedBundle> {
    generate(
        &super::scan::parse(kustomize_output),
        &Ask { operator, version },
    )
}

pub(crate) use csv::Ask;
use paths::{set, spec};

/// Generates the bundle from `docs`, the documents `kustomize build` printed. `None` when they
/// hold no CSV base and no Deployment: nothing a bundle is made from.
pub(crate) fn generate(docs: &[Value], ask: &Ask) -> Option<GeneratedBundle> {
    let collected = collect::collect(docs);
    if collected.csvs.is_empty() && collected.deployments.is_empty() {
        return None;
    }
    let (operator, mut csv) = csv::base(&collected, ask);
    let mut notes = Vec::new();
    csv::apply(&collected, &mut csv);
    let definitions = webhooks::definitions(&collected);
    if !definitions.is_empty() {
        notes.extend(objects::drop_certificate_volumes(&collected, &mut csv));
    }
    set(
        spec(&mut csv),
        "webhookdefinitions",
        Value::Sequence(definitions),
    );
    let (objects, left_out) = objects::objects(&collected);
    notes.extend(left_out);
    Some(GeneratedBundle {
        csv: (format!("{operator}.clusterserviceversion.yaml"), csv),
        objects,
        notes,
    })
}

#[cfg(test)]
mod tests;
