//! One release model, two sources: a package's channels and upgrade edges as the app registry's
//! cumulative bundle states them (package file heads, each CSV's `replaces`, `skips` and
//! `olm.skipRange`) and as a catalog states them (`olm.channel` entries). [`compare`](super::compare::compare) says
//! exactly how two models differ, so a pipeline that publishes both ways can stop before any
//! write when they disagree; [`ReleaseModel::edges`] lists the upgrade edges, and
//! [`ReleaseModel::to_bundle`] turns a model into the skeleton bundle the existing graph drawer
//! ([`crate::drawing::draw`]) takes, so `graph --registry` and `graph CATALOG` draw alike.
//!
//! In the app registry a channel holds what OLM's registry loads for it: the chain from the
//! channel's head through `replaces`, plus the CSVs its members skip (the same reading as
//! [`crate::graph::Graph::channel_content`]).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde_yaml_ng::{Mapping, Value};

use super::error::CatalogError;
use super::head::heads;
use super::model::Catalog;
use super::properties::skip_range;
use crate::graph::Graph;
use crate::{Bundle, Channel, Manifest, PackageManifest};

/// A channel entry's upgrade edges.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Edges {
    pub(crate) replaces: Option<String>,
    pub(crate) skips: BTreeSet<String>,
    pub(crate) skip_range: Option<String>,
}

/// One channel: its head(s) (exactly one when valid) and its entries.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ChannelModel {
    /// The channel's heads: the package file's `currentCSV` in the app registry; in a catalog, the
    /// entries no other entry replaces or skips.
    pub heads: Vec<String>,
    pub(crate) entries: BTreeMap<String, Edges>,
}

/// A package's release model.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ReleaseModel {
    pub(crate) package: String,
    /// The default channel; an app-registry package with one channel and no `defaultChannel`
    /// has that channel as its (implicit) default.
    pub default_channel: Option<String>,
    /// The channels by name.
    pub channels: BTreeMap<String, ChannelModel>,
    /// Bundle (CSV) name → version, where known.
    pub(crate) versions: BTreeMap<String, String>,
}

/// One upgrade edge of a channel.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Edge {
    pub(crate) channel: String,
    pub(crate) from: String,
    pub(crate) kind: EdgeKind,
    pub(crate) to: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum EdgeKind {
    Replaces,
    Skips,
}

impl fmt::Display for Edge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            EdgeKind::Replaces => "replaces",
            EdgeKind::Skips => "skips",
        };
        write!(f, "{}: {} {kind} {}", self.channel, self.from, self.to)
    }
}

fn csv_edges(csv: &Manifest) -> Edges {
    Edges {
        replaces: csv.replaces().map(str::to_string),
        skips: crate::graph::skips_of(csv)
            .into_iter()
            .map(str::to_string)
            .collect(),
        skip_range: skip_range(csv).map(str::to_string),
    }
}

impl ReleaseModel {
    /// The model of an app-registry release's cumulative bundle.
    pub fn from_bundle(bundle: &Bundle) -> Self {
        let g = Graph::new(bundle);
        let mut channels = BTreeMap::new();
        for ch in &bundle.package.channels {
            let chain = g.walk(&ch.current_csv);
            let entries = g
                .channel_content(&chain)
                .into_iter()
                .map(|i| (g.name(i).to_string(), csv_edges(g.csv(i))))
                .collect();
            let model = ChannelModel {
                heads: vec![ch.current_csv.clone()],
                entries,
            };
            channels.insert(ch.name.clone(), model);
        }
        let p = &bundle.package;
        ReleaseModel {
            package: p.package_name.clone(),
            default_channel: p
                .default_channel
                .clone()
                .or_else(|| (p.channels.len() == 1).then(|| p.channels[0].name.clone())),
            channels,
            versions: bundle
                .csvs
                .iter()
                .filter_map(|c| Some((c.name()?.to_string(), c.spec_version()?.to_string())))
                .collect(),
        }
    }

    /// The model of `package` in a catalog (`None` when the catalog does not mention it).
    pub fn from_catalog(catalog: &Catalog, package: &str) -> Option<Self> {
        if !catalog.package_names().contains(&package) {
            return None;
        }
        let mut channels = BTreeMap::new();
        for c in catalog.channels_of(package) {
            let entries = c
                .entries
                .iter()
                .map(|e| {
                    let edges = Edges {
                        replaces: e.replaces.clone(),
                        skips: e.skips.iter().cloned().collect(),
                        skip_range: e.skip_range.clone(),
                    };
                    (e.name.clone(), edges)
                })
                .collect();
            let heads = heads(c).into_iter().map(str::to_string).collect();
            channels.insert(c.name.clone(), ChannelModel { heads, entries });
        }
        Some(ReleaseModel {
            package: package.into(),
            default_channel: catalog
                .package(package)
                .and_then(|p| p.default_channel.clone()),
            channels,
            versions: catalog
                .bundles_of(package)
                .filter_map(|b| Some((b.name.clone(), b.version_str()?)))
                .collect(),
        })
    }

    /// Every edge, sorted by channel, source, kind and target.
    pub fn edges(&self) -> Vec<Edge> {
        let mut out = Vec::new();
        for (ch, c) in &self.channels {
            for (name, e) in &c.entries {
                let edge = |kind, to: &str| Edge {
                    channel: ch.clone(),
                    from: name.clone(),
                    kind,
                    to: to.into(),
                };
                if let Some(r) = &e.replaces {
                    out.push(edge(EdgeKind::Replaces, r));
                }
                for s in &e.skips {
                    out.push(edge(EdgeKind::Skips, s));
                }
            }
        }
        out.sort();
        out
    }

    /// The model as a bundle of skeleton CSVs (name, version, replaces, skips, skipRange) and a
    /// package file, for [`crate::drawing::draw`]: channels default first, then by
    /// name; CSVs newest first. Fails when a channel has no single head, or when a bundle's
    /// edges differ between channels (one CSV cannot hold two `replaces`).
    pub fn to_bundle(&self) -> Result<Bundle, CatalogError> {
        let fail = |message: String| CatalogError::Drawing {
            package: self.package.clone(),
            message,
        };
        let mut edges: BTreeMap<&str, (&str, &Edges)> = BTreeMap::new();
        let mut channels = Vec::new();
        for (ch, c) in &self.channels {
            let [head] = c.heads.as_slice() else {
                return Err(fail(format!(
                    "channel {ch} has {} heads ({}); one is needed to draw it",
                    c.heads.len(),
                    c.heads.join(", ")
                )));
            };
            channels.push(Channel {
                name: ch.clone(),
                current_csv: head.clone(),
            });
            for (name, e) in &c.entries {
                match edges.get(name.as_str()) {
                    Some((other, seen)) if *seen != e => {
                        return Err(fail(format!(
                            "{name} has other edges in channel {ch} than in channel {other}; draw it per channel"
                        )));
                    }
                    Some(_) => {}
                    None => {
                        edges.insert(name, (ch, e));
                    }
                }
            }
        }
        let default = self.default_channel.as_deref();
        channels.sort_by_key(|c| (Some(c.name.as_str()) != default, c.name.clone()));
        let mut csvs: Vec<Manifest> = edges
            .iter()
            .map(|(name, (_, e))| skeleton(name, self.versions.get(*name), e))
            .collect();
        csvs.sort_by(|a, b| {
            let v = |m: &Manifest| m.semver();
            v(b).cmp(&v(a)).then_with(|| a.name().cmp(&b.name()))
        });
        Ok(Bundle {
            package: PackageManifest {
                package_name: self.package.clone(),
                channels,
                default_channel: self.default_channel.clone(),
            },
            csvs,
            crds: Vec::new(),
        })
    }
}

fn skeleton(name: &str, version: Option<&String>, e: &Edges) -> Manifest {
    let mut spec = Mapping::new();
    if let Some(v) = version {
        spec.insert("version".into(), v.as_str().into());
    }
    if let Some(r) = &e.replaces {
        spec.insert("replaces".into(), r.as_str().into());
    }
    if !e.skips.is_empty() {
        let skips = e.skips.iter().map(|s| Value::from(s.as_str())).collect();
        spec.insert("skips".into(), Value::Sequence(skips));
    }
    let mut meta = Mapping::new();
    meta.insert("name".into(), name.into());
    if let Some(r) = &e.skip_range {
        let mut ann = Mapping::new();
        ann.insert("olm.skipRange".into(), r.as_str().into());
        meta.insert("annotations".into(), Value::Mapping(ann));
    }
    let mut doc = Mapping::new();
    doc.insert("apiVersion".into(), "operators.coreos.com/v1alpha1".into());
    doc.insert("kind".into(), "ClusterServiceVersion".into());
    doc.insert("metadata".into(), Value::Mapping(meta));
    doc.insert("spec".into(), Value::Mapping(spec));
    Manifest::new(crate::csv_file_name(name), Value::Mapping(doc))
}
