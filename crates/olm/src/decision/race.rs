//! The merge rules for racing releases on an app registry, as plain data. The app registry has
//! no locks and no transactions: two jobs can both read the same head and push two releases
//! that both `replace` it, and the highest one (the only one OLM consumers load) then lacks the
//! other's CSV. After its push, a job reads the release list again ([`read`]):
//!
//! - a higher release that landed while it ran must take ours in ([`takes_in`]), or ours is
//!   withdrawn;
//! - when ours is the highest, every lower release it does not carry is a candidate; those
//!   [`is_missing`] says must be taken in are, by re-deciding against the highest release below
//!   ours ([`super::decide`]) and taking the others in, lowest first ([`lower_releases`],
//!   [`carries`], [`take_in`]), as a sequential publication would have placed them.
//!
//! The executor does the reading, pulling, pushing and waiting; these functions decide.

use semver::Version;

use super::{Decision, splice};
use crate::Bundle;

/// A release as a registry lists it. Two listings are equal when they name the same release
/// with the same content (a release re-pushed with other content has landed anew).
pub trait Listed: PartialEq {
    /// The release name.
    fn name(&self) -> &str;
    /// The release name as SemVer; `None` when it is not SemVer.
    fn version(&self) -> Option<Version> {
        Version::parse(self.name()).ok()
    }
}

/// What the release list read after our push says.
#[derive(Debug, PartialEq, Eq)]
pub enum Reading<'a, R> {
    /// The highest release is another one that this job's decision already saw: nothing to do.
    Seen,
    /// A release above ours landed while this job ran: its job is the one that takes ours in.
    Above(&'a R),
    /// Ours is the highest. `candidates`: the lower releases whose version our bundle does not
    /// carry (each to be pulled and checked with [`is_missing`]), highest first; `base`: the
    /// highest release below ours, which a re-decision is taken against.
    Highest {
        /// The lower releases our bundle does not carry.
        candidates: Vec<&'a R>,
        /// The highest release below ours.
        base: Option<&'a R>,
    },
}

/// Reads the release list `now` (highest first, as registries list it) after our release
/// `ours` (at version `version`) was pushed: `seen` is the list the decision was taken on,
/// `carried` the CSV versions our bundle carries. `None` when `now` is empty.
pub fn read<'a, R: Listed>(
    now: &'a [R],
    seen: &[R],
    (ours, version): (&str, &Version),
    carried: &[Version],
) -> Option<Reading<'a, R>> {
    let top = now.first()?;
    if top.name() != ours {
        return Some(if landed(top, seen, ours) {
            Reading::Above(top)
        } else {
            Reading::Seen
        });
    }
    let others = || now.iter().filter(|r| r.name() != ours);
    let candidates = others()
        .filter(|r| {
            r.version()
                .is_some_and(|x| x < *version && !carried.contains(&x))
        })
        .collect();
    Some(Reading::Highest {
        candidates,
        base: others().next(),
    })
}

/// Whether release `r` landed while this job ran: it is not ours and the decision did not see
/// it (as it is now).
pub fn landed<R: Listed>(r: &R, seen: &[R], ours: &str) -> bool {
    r.name() != ours && !seen.contains(r)
}

/// Whether a higher release's `bundle` that landed concurrently takes ours in: it carries our
/// CSV `csv` and, when ours added it to channels ([`Decision::AddChannels`]), has those
/// channels too.
pub fn takes_in(bundle: &Bundle, csv: &str, decision: Option<&Decision>) -> bool {
    let channels: &[String] = match decision {
        Some(Decision::AddChannels { channels, .. }) => channels,
        _ => &[],
    };
    bundle.csv(csv).is_some() && channels.iter().all(|c| bundle.package.channel(c).is_some())
}

/// Whether the bundle of `release`, below ours and not carried by it, must be taken in: its CSV
/// heads one of the pipeline's `channels` (a release of other channels only, or with a CSV of
/// another version, is not ours to chain; one that headed only a second channel is, since ours
/// must skip it there), or its package declares a channel that `ours` lacks and whose head
/// ours carries (a release that added a published CSV to a channel, which ours would otherwise
/// drop). `carried`: the CSV versions our bundle carries.
pub fn is_missing(
    bundle: &Bundle,
    release: Option<Version>,
    channels: &[String],
    ours: &crate::PackageManifest,
    carried: &[Version],
) -> bool {
    let version = |name: &str| bundle.csv(name).and_then(|c| c.semver());
    let heads = |channel: &String| {
        bundle
            .package
            .channel(channel)
            .and_then(|c| version(&c.current_csv))
    };
    release.is_some() && channels.iter().any(|c| heads(c) == release)
        || bundle.package.channels.iter().any(|c| {
            ours.channel(&c.name).is_none()
                && version(&c.current_csv).is_some_and(|v| carried.contains(&v))
        })
}

/// The releases of `now` below ours (`ours` at `version`) other than `base`, lowest first: the
/// order a re-based bundle takes them in. A release whose name is not SemVer counts as below.
pub fn lower_releases<'a, R: Listed>(
    now: &'a [R],
    base: &R,
    (ours, version): (&str, &Version),
) -> Vec<&'a R> {
    let mut below: Vec<&R> = now
        .iter()
        .filter(|r| *r != base && r.name() != ours)
        .filter(|r| r.version().is_none_or(|v| v < *version))
        .collect();
    below.reverse();
    below
}

/// Whether `bundle` has a CSV at `version` (a release already taken in).
pub fn carries(bundle: &Bundle, version: Option<&Version>) -> bool {
    bundle.csvs.iter().any(|c| c.semver().as_ref() == version)
}

/// The CSV versions `bundle` carries.
pub fn carried(bundle: &Bundle) -> Vec<Version> {
    bundle.csvs.iter().filter_map(|c| c.semver()).collect()
}

/// What [`take_in`] took from a lower release.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct TakenIn {
    /// Its channels the bundle gained.
    pub channels: Vec<String>,
    /// Whether its CSV went into the bundle's chain.
    pub csv: bool,
}

/// Takes the lower release `other` (at `version`) into `bundle`: its channels the bundle lacks
/// where the bundle has their head (a release that added a published CSV to a channel), and
/// the head of `channel` when it is the release's own CSV, spliced in at its SemVer place with
/// its CRDs ([`splice`]).
pub fn take_in(
    bundle: &mut Bundle,
    channel: &str,
    other: &Bundle,
    version: Option<&Version>,
) -> TakenIn {
    let mut taken = TakenIn::default();
    for c in &other.package.channels {
        if bundle.package.channel(&c.name).is_none() && bundle.csv(&c.current_csv).is_some() {
            bundle.package.channels.push(c.clone());
            taken.channels.push(c.name.clone());
        }
    }
    let head = other
        .package
        .channel(channel)
        .map(|c| c.current_csv.clone());
    if let Some(csv) = head.and_then(|h| other.csv(&h).cloned())
        && csv.semver().as_ref() == version
    {
        taken.csv = splice(bundle, channel, csv, &other.crds);
    }
    taken
}

#[cfg(test)]
mod tests;
