//! How two release models differ: the app registry's (left) and the catalog's (right). Each
//! [`Difference`] names the channel, the bundle and both sides' values, so a run that publishes
//! both ways can stop before any write and say what to reconcile.

use std::fmt;

use super::release_model::{ChannelModel, Edges, ReleaseModel};

/// Which model holds something the other lacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The app registry's model: the package file and the CSVs of its highest release.
    AppRegistry,
    /// The catalog's model: its `olm.package` and `olm.channel` documents.
    Catalog,
}

impl Side {
    fn name(self) -> &'static str {
        match self {
            Side::AppRegistry => "the app registry",
            Side::Catalog => "the catalog",
        }
    }

    fn other(self) -> Side {
        match self {
            Side::AppRegistry => Side::Catalog,
            Side::Catalog => Side::AppRegistry,
        }
    }
}

/// One way the models differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Difference {
    /// The package names differ.
    Package {
        /// The app registry's package name (`packageName`).
        registry: String,
        /// The catalog's package name.
        catalog: String,
    },
    /// The default channels differ (an app-registry package with one channel defaults to it).
    DefaultChannel {
        /// The app registry's default channel; `None` when it has none.
        registry: Option<String>,
        /// The catalog's `defaultChannel`; `None` when it has none.
        catalog: Option<String>,
    },
    /// A channel only one model has.
    ChannelOnlyIn {
        /// The channel's name.
        channel: String,
        /// The model that has it.
        side: Side,
    },
    /// A channel's heads differ.
    Heads {
        /// The channel's name.
        channel: String,
        /// The app registry's head (its package file's `currentCSV`), as a one-item list.
        registry: Vec<String>,
        /// The catalog's heads (exactly one in a valid channel), sorted.
        catalog: Vec<String>,
    },
    /// A bundle is in a channel of only one model.
    EntryOnlyIn {
        /// The channel's name.
        channel: String,
        /// The bundle's name (its CSV's `metadata.name`).
        bundle: String,
        /// The model that has it.
        side: Side,
    },
    /// A bundle's upgrade edges in a channel differ.
    Edges {
        /// The channel's name.
        channel: String,
        /// The bundle's name (its CSV's `metadata.name`).
        bundle: String,
        /// Its edges in the app registry (from its CSV).
        registry: Edges,
        /// Its edges in the catalog (from its channel entry).
        catalog: Edges,
    },
}

impl Difference {
    /// The channel it is about, if any.
    pub(crate) fn channel(&self) -> Option<&str> {
        match self {
            Difference::Package { .. } | Difference::DefaultChannel { .. } => None,
            Difference::ChannelOnlyIn { channel, .. }
            | Difference::Heads { channel, .. }
            | Difference::EntryOnlyIn { channel, .. }
            | Difference::Edges { channel, .. } => Some(channel),
        }
    }
}

fn opt(v: &Option<String>) -> &str {
    v.as_deref().unwrap_or("(none)")
}

fn list(v: &[String]) -> String {
    if v.is_empty() {
        "(none)".into()
    } else {
        v.join(", ")
    }
}

fn edges(e: &Edges) -> String {
    let mut parts = vec![format!("replaces {}", opt(&e.replaces))];
    if !e.skips.is_empty() {
        let s: Vec<&str> = e.skips.iter().map(String::as_str).collect();
        parts.push(format!("skips [{}]", s.join(", ")));
    }
    if let Some(r) = &e.skip_range {
        parts.push(format!("skipRange {r:?}"));
    }
    parts.join(", ")
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Difference::Package { registry, catalog } => write!(
                f,
                "package: {registry} in the app registry, {catalog} in the catalog"
            ),
            Difference::DefaultChannel { registry, catalog } => write!(
                f,
                "defaultChannel: {} in the app registry, {} in the catalog",
                opt(registry),
                opt(catalog)
            ),
            Difference::ChannelOnlyIn { channel, side } => write!(
                f,
                "channel {channel} is in {} but not in {}",
                side.name(),
                side.other().name()
            ),
            Difference::Heads {
                channel,
                registry,
                catalog,
            } => write!(
                f,
                "channel {channel}: the head is {} in the app registry, {} in the catalog",
                list(registry),
                list(catalog)
            ),
            Difference::EntryOnlyIn {
                channel,
                bundle,
                side,
            } => write!(
                f,
                "channel {channel}: {bundle} is in {} but not in {}",
                side.name(),
                side.other().name()
            ),
            Difference::Edges {
                channel,
                bundle,
                registry,
                catalog,
            } => write!(
                f,
                "channel {channel}: {bundle} {} in the app registry, {} in the catalog",
                edges(registry),
                edges(catalog)
            ),
        }
    }
}

/// Every difference between the app registry's model and the catalog's, package first, then
/// channel by channel (sorted), entry by entry (sorted).
pub fn compare(registry: &ReleaseModel, catalog: &ReleaseModel) -> Vec<Difference> {
    let mut out = Vec::new();
    if registry.package != catalog.package {
        out.push(Difference::Package {
            registry: registry.package.clone(),
            catalog: catalog.package.clone(),
        });
    }
    if registry.default_channel != catalog.default_channel {
        out.push(Difference::DefaultChannel {
            registry: registry.default_channel.clone(),
            catalog: catalog.default_channel.clone(),
        });
    }
    let names: std::collections::BTreeSet<&String> = registry
        .channels
        .keys()
        .chain(catalog.channels.keys())
        .collect();
    for ch in names {
        match (registry.channels.get(ch), catalog.channels.get(ch)) {
            (Some(r), Some(c)) => channel(ch, r, c, &mut out),
            (Some(_), None) => out.push(Difference::ChannelOnlyIn {
                channel: ch.clone(),
                side: Side::AppRegistry,
            }),
            (None, _) => out.push(Difference::ChannelOnlyIn {
                channel: ch.clone(),
                side: Side::Catalog,
            }),
        }
    }
    out
}

/// The differences within one channel only (what fetch-previous must agree on).
pub fn compare_channel(
    registry: &ReleaseModel,
    catalog: &ReleaseModel,
    channel: &str,
) -> Vec<Difference> {
    compare(registry, catalog)
        .into_iter()
        .filter(|d| d.channel() == Some(channel))
        .collect()
}

fn channel(ch: &str, r: &ChannelModel, c: &ChannelModel, out: &mut Vec<Difference>) {
    let (mut rh, mut chs) = (r.heads.clone(), c.heads.clone());
    rh.sort();
    chs.sort();
    if rh != chs {
        out.push(Difference::Heads {
            channel: ch.into(),
            registry: rh,
            catalog: chs,
        });
    }
    let names: std::collections::BTreeSet<&String> =
        r.entries.keys().chain(c.entries.keys()).collect();
    for name in names {
        match (r.entries.get(name), c.entries.get(name)) {
            (Some(a), Some(b)) if a != b => out.push(Difference::Edges {
                channel: ch.into(),
                bundle: name.clone(),
                registry: a.clone(),
                catalog: b.clone(),
            }),
            (Some(_), Some(_)) => {}
            (Some(_), None) => out.push(Difference::EntryOnlyIn {
                channel: ch.into(),
                bundle: name.clone(),
                side: Side::AppRegistry,
            }),
            (None, _) => out.push(Difference::EntryOnlyIn {
                channel: ch.into(),
                bundle: name.clone(),
                side: Side::Catalog,
            }),
        }
    }
}
