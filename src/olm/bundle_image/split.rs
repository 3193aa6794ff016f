//! From an app-registry bundle (one package file, every CSV and CRD of the package) to one
//! registry+v1 bundle per CSV — what migrating a package's history needs.
//!
//! Each CSV gets the CRDs it owns (`spec.customresourcedefinitions.owned`, matched by name and,
//! for 2019-era single-version CRDs, by version), the channels whose content holds it (the
//! chain from the channel's `currentCSV` through `replaces`, plus what its members skip, as
//! the registry computes a channel), and the package's default channel when it is one of them.
//! A CSV that no channel reaches is listed apart: it has no channel to publish it in.

use serde_yaml_ng::Value;

use super::{BundleInput, BundleSpec};
use crate::olm::graph::Graph;
use crate::olm::{Bundle, Manifest, value_at};

/// The per-CSV bundles of an app-registry bundle.
#[derive(Debug, Clone)]
pub struct Split {
    /// One input per CSV that a channel reaches, oldest first (in SemVer order).
    pub inputs: Vec<BundleInput>,
    /// Names of CSVs no channel reaches.
    pub stranded: Vec<String>,
}

/// Splits `bundle` into one [`BundleInput`] per CSV.
pub fn per_csv(bundle: &Bundle) -> Split {
    let graph = Graph::new(bundle);
    let channel_content: Vec<(String, std::collections::BTreeSet<usize>)> = bundle
        .package
        .channels
        .iter()
        .map(|c| {
            let chain = graph.walk(&c.current_csv);
            (c.name.clone(), graph.channel_content(&chain))
        })
        .collect();
    let mut order: Vec<usize> = (0..bundle.csvs.len()).collect();
    order.sort_by(|&a, &b| {
        bundle.csvs[a]
            .semver()
            .cmp(&bundle.csvs[b].semver())
            .then_with(|| bundle.csvs[a].name().cmp(&bundle.csvs[b].name()))
    });
    let mut split = Split {
        inputs: Vec::new(),
        stranded: Vec::new(),
    };
    for i in order {
        let csv = &bundle.csvs[i];
        let channels: Vec<String> = channel_content
            .iter()
            .filter(|(_, content)| content.contains(&i))
            .map(|(name, _)| name.clone())
            .collect();
        if channels.is_empty() {
            split
                .stranded
                .push(csv.name().unwrap_or(&csv.file).to_string());
            continue;
        }
        let default_channel = bundle
            .package
            .default_channel
            .clone()
            .filter(|d| channels.contains(d));
        split.inputs.push(BundleInput {
            spec: BundleSpec {
                package: bundle.package.package_name.clone(),
                channels,
                default_channel,
            },
            csv: csv.clone(),
            objects: owned_crds(bundle, csv),
        });
    }
    split
}

/// The CRDs of `bundle` that `csv` owns.
fn owned_crds(bundle: &Bundle, csv: &Manifest) -> Vec<Manifest> {
    let owned: Vec<(&str, Option<&str>)> =
        value_at(&csv.doc, "spec.customresourcedefinitions.owned")
            .and_then(Value::as_sequence)
            .map(|s| {
                s.iter()
                    .filter_map(|o| {
                        Some((
                            o.get("name")?.as_str()?,
                            o.get("version").and_then(Value::as_str),
                        ))
                    })
                    .collect()
            })
            .unwrap_or_default();
    let mut out: Vec<Manifest> = Vec::new();
    for crd in &bundle.crds {
        let Some(name) = crd.name() else { continue };
        let matches = owned.iter().any(|(n, v)| {
            *n == name
                && match (crd.spec_version(), v) {
                    // A single-version CRD (apiextensions v1beta1 `spec.version`) matches the
                    // owned entry of its version only.
                    (Some(cv), Some(v)) => cv == *v,
                    _ => true,
                }
        });
        if matches && !out.iter().any(|o| o.doc == crd.doc) {
            out.push(crd.clone());
        }
    }
    out
}
