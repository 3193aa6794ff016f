//! The GitHub job summary's sections on what the cluster gets: a table of whether OLM v0 and
//! OLM v1 install the release, what the upgrade changes in the cluster (as the run printed
//! it), and the ClusterCatalog and ClusterExtension that install it, as YAML to apply.

use std::fmt::Write as _;

use super::summary::{Summary, cell};

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
