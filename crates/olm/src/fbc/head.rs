//! Channel heads: the entry of a channel that no other entry replaces or skips — what OLM
//! installs for a new subscription and what the next release replaces.
//!
//! The rule is operator-registry's (`alpha/model/model.go`, `Channel.Head`): count the incoming
//! `replaces` and `skips` edges of every entry; a head has none; a valid channel has exactly
//! one. [`head`] is fetch-previous's question ("what does this release replace?") asked of a
//! catalog instead of an app registry; [`channel_heads`] asks it for every channel of a release.

use std::collections::HashSet;

use super::error::CatalogError;
use super::model::{Catalog, ChannelDoc};

/// The entries of `channel` that nothing in it replaces or skips, in entry order.
pub(crate) fn heads(channel: &ChannelDoc) -> Vec<&str> {
    let incoming: HashSet<&str> = channel
        .entries
        .iter()
        .flat_map(|e| e.replaces.iter().chain(&e.skips))
        .map(String::as_str)
        .collect();
    channel
        .entries
        .iter()
        .map(|e| e.name.as_str())
        .filter(|n| !incoming.contains(n))
        .collect()
}

/// The edges of a channel as short phrases (`b replaces a`, `c skips a`), for messages.
pub fn edges(channel: &ChannelDoc) -> Vec<String> {
    let mut out = Vec::new();
    for e in &channel.entries {
        if let Some(r) = &e.replaces {
            out.push(format!("{} replaces {r}", e.name));
        }
        for s in &e.skips {
            out.push(format!("{} skips {s}", e.name));
        }
    }
    out
}

/// The head of a channel, with what the catalog says about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    /// The bundle (CSV) name.
    pub name: String,
    /// The version of its `olm.package` property, if the bundle is in the catalog.
    pub version: Option<semver::Version>,
    /// Its image, if the bundle is in the catalog.
    pub image: Option<String>,
    /// What it replaces in this channel.
    pub replaces: Option<String>,
}

/// The head of `channel` in `package`: `None` when the package, the channel or any entry is
/// missing (a first release there); an error when the channel has no head or several.
pub fn head(catalog: &Catalog, package: &str, channel: &str) -> Result<Option<Head>, CatalogError> {
    let Some(ch) = catalog.channel(package, channel) else {
        return Ok(None);
    };
    if ch.entries.is_empty() {
        return Ok(None);
    }
    let found = heads(ch);
    let [name] = found.as_slice() else {
        return Err(CatalogError::Heads {
            package: package.into(),
            channel: channel.into(),
            heads: found.iter().map(|s| s.to_string()).collect(),
            edges: edges(ch),
        });
    };
    let bundle = catalog.bundle(package, name);
    Ok(Some(Head {
        name: name.to_string(),
        version: bundle.and_then(|b| b.version()),
        image: bundle.map(|b| b.image.clone()),
        replaces: ch.entry(name).and_then(|e| e.replaces.clone()),
    }))
}

/// One channel's head in a catalog, with the `skips` of its entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChannelHead {
    /// The channel.
    pub channel: String,
    /// Its head.
    pub head: Head,
    /// The head entry's `skips`.
    pub skips: Vec<String>,
}

/// The head of each of `channels` that `package` has in the catalog, in the order of
/// `channels`; empty when the catalog has none of them (a first release there). A channel
/// without exactly one head is an error ([`head`]).
pub fn channel_heads(
    catalog: &Catalog,
    package: &str,
    channels: &[String],
) -> Result<Vec<ChannelHead>, CatalogError> {
    let mut found = Vec::new();
    for channel in channels {
        let Some(head) = head(catalog, package, channel)? else {
            continue;
        };
        let skips = catalog
            .channel(package, channel)
            .and_then(|c| c.entry(&head.name))
            .map(|e| e.skips.clone())
            .unwrap_or_default();
        found.push(ChannelHead {
            channel: channel.clone(),
            head,
            skips,
        });
    }
    Ok(found)
}
