//! The decision's data: what is decided ([`Decision`]), the policy for a version below the
//! channel head ([`OlderPolicy`]), and why a release is refused ([`DecisionError`]).

use serde::{Deserialize, Serialize};

/// What to do with a version below the channel head.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OlderPolicy {
    #[default]
    /// Refuse it (exit 1) with an explanation.
    Refuse,
    /// Publish nothing (exit 0).
    Skip,
}

/// What the decision is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Decision {
    /// Nothing published for the channel yet: no `replaces`.
    First {
        /// Why nothing is published for it (`release 0.2.0 has no channel 'fast'`, `… has no
        /// releases yet`, `the catalog DIR does not exist yet`).
        reason: String,
    },
    /// The new CSV replaces the channel head of the previous release.
    Replaces {
        /// The `metadata.name` of the head the new CSV replaces: the first channel's whose head is
        /// older (the other channels' older heads go to `spec.skips`).
        head: String,
        /// The release the head was read from: the app registry's highest release, or, from a
        /// catalog, the version of its highest channel head.
        head_release: String,
    },
    /// This version is already the channel head: re-publishing the same release.
    SameVersion {
        /// The published release that serves this version.
        release: String,
    },
    /// The version is below the channel head; the policy says publish nothing.
    SkipOlder {
        /// The `metadata.name` of the channel head above the version.
        head: String,
    },
    /// This CSV is already published (in release `base_release`) and joins more `channels`:
    /// the same bundle, its package file gaining the channels, published as a new release
    /// named `release` ([`channel_release`](super::channel_release)).
    AddChannels {
        /// The name of the new release ([`channel_release`](super::channel_release):
        /// `0.2.1-0.1` after `0.2.0`).
        release: String,
        /// The channels the CSV joins, which the published release lacks.
        channels: Vec<String>,
        /// The published release the CSV and its bundle are taken from unchanged.
        base_release: String,
    },
}

impl Decision {
    /// The release the push step writes when the decision names one (re-publishing or adding
    /// channels to a published CSV: the release that serves it), else `None` (the version).
    pub fn release(&self) -> Option<&str> {
        match self {
            Decision::SameVersion { release } | Decision::AddChannels { release, .. } => {
                Some(release)
            }
            _ => None,
        }
    }
}

/// Why the decision refuses the release (a stage failure: the published state forces it).
#[derive(Debug, thiserror::Error)]
pub enum DecisionError {
    /// The new CSV's version is not SemVer.
    #[error("{csv}: spec.version is not SemVer")]
    NotSemver {
        /// The CSV.
        csv: String,
    },
    /// A channel's head is not in the bundle that names it.
    #[error(
        "release {release} is broken: channel {channel} names head {head}, which is not in its bundle"
    )]
    MissingHead {
        /// The release (or catalog) read.
        release: String,
        /// The channel.
        channel: String,
        /// The head it names.
        head: String,
    },
    /// A head has no SemVer version.
    #[error("release {release}: {head} has no SemVer spec.version")]
    HeadVersion {
        /// The release (or catalog) read.
        release: String,
        /// The head.
        head: String,
    },
    /// The new version is below a channel's head.
    #[error(transparent)]
    Older(Box<Older>),
    /// A published CSV was rendered differently.
    #[error(
        "{csv} is already published (release {release}) and differs from what this run rendered: {changes}. \
         A published CSV is immutable, so it can join another channel only unchanged: publish these changes \
         as a new version, or render the published CSV to add it to the channel"
    )]
    PublishedChanged {
        /// The CSV.
        csv: String,
        /// The release that publishes it.
        release: String,
        /// The field changes, on one line.
        changes: String,
    },
    /// A published CSV cannot head a channel another CSV heads.
    #[error(
        "channel {channel} has head {head} in release {release}; {csv} is already published and cannot become \
         its head because its replaces is fixed (it neither replaces nor skips {head}); publish a new version \
         that replaces {head}"
    )]
    ChannelHeaded {
        /// The channel.
        channel: String,
        /// Its head.
        head: String,
        /// The published CSV.
        csv: String,
        /// The release read.
        release: String,
    },
}

/// The details of [`DecisionError::Older`].
#[derive(Debug, thiserror::Error)]
#[error(
    "{csv} (version {version}) is older than {head} (version {head_version}), the head of channel \
     {channel} in {at}. {why}"
)]
pub struct Older {
    /// The new CSV.
    pub(crate) csv: String,
    /// Its version.
    pub(crate) version: String,
    /// The head.
    pub(crate) head: String,
    /// The head's version.
    pub(crate) head_version: String,
    /// The channel.
    pub(crate) channel: String,
    /// Where the head is (`release 0.3.0` of the app registry, or `the catalog DIR`).
    pub(crate) at: String,
    /// Why that refuses it, and the fix.
    pub(crate) why: &'static str,
}

impl olm_release_base::Classified for DecisionError {
    /// The published state refuses the release: the stage fails.
    fn class(&self) -> olm_release_base::Class {
        olm_release_base::Class::Stage
    }
}
