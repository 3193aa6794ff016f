//! What the cluster gets, as the run reports it: whether OLM v0 and OLM v1 install the release
//! (after verify), what the upgrade changes in the cluster (after fetch-previous), and the OLM v1
//! objects that install the release from its catalog image. Each is said on stderr and kept in
//! the summary, which the JSON document shows and `cluster_markdown` writes into the GitHub
//! job summary.

use super::Reporter;
use super::summary::{ClusterDiff, OlmV1Install};
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
