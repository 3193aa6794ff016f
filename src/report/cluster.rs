//! What the cluster gets, as the run reports it: whether OLM v0 and OLM v1 install the release
//! (after verify), what the upgrade changes in the cluster (after fetch-previous), and the OLM v1
//! objects that install the release from its catalog image. Each is said on stderr and kept in
//! the summary, which the JSON document shows, and [`job_summary`] writes them into the GitHub
//! job summary.

use std::fmt::Write as _;

use super::Reporter;
use super::github::cell;
use super::summary::{ClusterDiff, OlmV1Install, Summary};
use olm_release_olm::cluster::Installable;

impl Reporter {
    /// Whether OLM v0 and OLM v1 install the release.
    pub(crate) fn installable(&self, i: &Installable) {
        self.info(&format!("OLM v0 installs it: {}", i.olm_v0.to_line()));
        self.info(&format!("OLM v1 installs it: {}", i.olm_v1.to_line()));
        self.state().summary.installable = Some(i.clone());
    }

    /// What the upgrade changes in the cluster: always in a dry-run, else with -v.
    pub(crate) fn cluster_diff(&self, d: ClusterDiff, always: bool) {
        let without = d
            .without
            .as_ref()
            .map(|w| format!(" ({w})"))
            .unwrap_or_default();
        self.block(
            &format!(
                "what changes in the cluster from {}, as OLM v1 installs both{without}:\n{}",
                d.from, d.diff
            ),
            always,
        );
        self.state().summary.cluster_diff = Some(d);
    }

    /// The ClusterCatalog and ClusterExtension that install the release (`yaml`: both as one
    /// YAML stream).
    pub(crate) fn olm_v1_install(&self, objects: OlmV1Install, yaml: &str) {
        self.block(&format!("OLM v1 installs this release with:\n{yaml}"), true);
        self.state().summary.olm_v1_install = Some(objects);
    }
}

/// Whether OLM v0 and OLM v1 install the release, what the upgrade changes in the cluster, and
/// the OLM v1 objects that install it.
pub(super) fn job_summary(s: &Summary, out: &mut String) {
    if let Some(i) = &s.installable {
        out.push_str("| | installs this release |\n|---|---|\n");
        let _ = writeln!(out, "| OLM v0 | {} |", cell(&i.olm_v0.to_line()));
        let _ = writeln!(out, "| OLM v1 | {} |\n", cell(&i.olm_v1.to_line()));
    }
    if let Some(d) = &s.cluster_diff {
        let without = d
            .without
            .as_ref()
            .map(|w| format!(" ({})", cell(w)))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "What changes in the cluster from {}{without}:\n\n```\n{}```\n",
            cell(&d.from),
            d.diff
        );
    }
    if let Some(o) = &s.olm_v1_install {
        let docs = [&o.cluster_catalog, &o.cluster_extension]
            .iter()
            .map(|v| serde_yaml_ng::to_string(v).expect("an object serialises"))
            .collect::<Vec<_>>()
            .join("---\n");
        let _ = writeln!(
            out,
            "Install with OLM v1 (`kubectl apply -f`):\n\n```yaml\n{docs}```\n"
        );
    }
}
