//! An already-published CSV joining more channels: the same CSV, a new release of the package
//! whose package file adds the channels. Not a conflict, and never an edit of the
//! published CSV: its `replaces` and `skips` are fixed, since OLM's graph and every cluster
//! that installed it rely on them.
//!
//! The rules, for the new CSV's name found in the previous (highest) release's bundle:
//! - the rendered CSV must be the published one, compared as data after taking the published
//!   CSV's own `replaces` and `skips`; `metadata.annotations.createdAt` is left out of the
//!   comparison (the pipeline writes the release time there, and OLM does not read it), and the
//!   published CSV is what the new release carries. Anything else that differs is refused,
//!   naming the fields ([`semdiff`]);
//! - each channel of the release must be absent from the published package (it is added), or
//!   headed by this CSV already, or headed by a CSV this one `replaces` or `skips` (the head
//!   moves forward along an edge OLM already has). A channel headed by anything else is
//!   refused: the CSV cannot replace that head without being changed;
//! - nothing to add → [`Decision::SameVersion`] with the previous release, so a rerun of the
//!   command that added the channels finds its own release and writes nothing.
//!
//! The release is named by [`super::channel_release`].

use super::decide::{Decided, merge, skips_of};
use super::name::channel_release;
use super::{Decision, DecisionError};
use crate::semdiff::{self, ChangeKind};
use crate::{Bundle, Manifest};

/// The CSVs `csv` replaces or skips: the heads it may move a channel from.
pub fn edges(csv: &Manifest) -> Vec<String> {
    csv.replaces()
        .map(str::to_string)
        .into_iter()
        .chain(skips_of(csv))
        .collect()
}

/// The most field changes a refusal lists.
const SHOWN: usize = 8;

/// The channels of the release that the published CSV `name` joins, or moves to, in
/// `previous`; notes on each head that moves. Refuses a channel headed by a CSV it cannot
/// replace.
fn joined(
    previous: &Bundle,
    published: &Manifest,
    channels: &[String],
    release: &str,
) -> Result<(Vec<String>, Vec<String>), DecisionError> {
    let name = published.name().unwrap_or_default();
    let edges = edges(published);
    let (mut added, mut notes) = (Vec::new(), Vec::new());
    for channel in channels {
        match previous.package.channel(channel) {
            None => added.push(channel.clone()),
            Some(c) if c.current_csv == name => {}
            Some(c) if edges.contains(&c.current_csv) => {
                notes.push(format!(
                    "channel {channel}: its head moves from {} to {name}, which already {} it, so subscribers on {channel} upgrade along an edge OLM has",
                    c.current_csv,
                    if published.replaces() == Some(c.current_csv.as_str()) {
                        "replaces"
                    } else {
                        "skips"
                    }
                ));
                added.push(channel.clone());
            }
            Some(c) => {
                return Err(DecisionError::ChannelHeaded {
                    channel: channel.clone(),
                    head: c.current_csv.clone(),
                    csv: name.to_string(),
                    release: release.to_string(),
                });
            }
        }
    }
    Ok((added, notes))
}

/// The CSV without what the comparison leaves out.
fn compared(csv: &Manifest) -> Manifest {
    let mut csv = csv.clone();
    if let Some(a) = csv
        .doc
        .get_mut("metadata")
        .and_then(|m| m.get_mut("annotations"))
        .and_then(serde_yaml_ng::Value::as_mapping_mut)
    {
        a.remove("createdAt");
    }
    csv
}

/// The field changes between the published CSV and the rendered one (given the published
/// `replaces` and `skips`), as one line; `None` when they are the same.
pub(super) fn changes(published: &Manifest, rendered: &Manifest) -> Option<String> {
    let (old, new) = (compared(published), compared(rendered));
    let side = |csv| semdiff::Side {
        csv: Some(csv),
        crds: &[],
        package: None,
    };
    let diff = semdiff::diff(&side(&old), &side(&new), "published", "rendered");
    let changes: Vec<String> = diff
        .objects
        .iter()
        .flat_map(|o| o.changes.iter())
        .map(|c| match &c.kind {
            ChangeKind::Added { new } => format!("{} added ({new})", c.path),
            ChangeKind::Removed { old } => format!("{} removed (was {old})", c.path),
            ChangeKind::Changed { old, new } => format!("{}: {old} → {new}", c.path),
            ChangeKind::Reordered => format!("{} reordered", c.path),
            ChangeKind::Whitespace => format!("{}: white space", c.path),
        })
        .collect();
    if changes.is_empty() {
        return None;
    }
    let more = changes.len().saturating_sub(SHOWN);
    let mut text = changes[..changes.len().min(SHOWN)].join("; ");
    if more > 0 {
        text.push_str(&format!("; and {more} more (-v shows the diff)"));
    }
    Some(text)
}

/// The decision for a CSV that `previous` (release `previous_release`, the highest of
/// `releases`) already carries: its rendered form (`rendered.csvs[0]`, already given the
/// published `replaces` and `skips`) and the channels of the release. `SameVersion` when every
/// channel is headed by it already.
pub(super) fn decide(
    mut rendered: Bundle,
    previous: Bundle,
    channels: &[String],
    previous_release: &str,
    releases: &[&str],
) -> Result<Decided, DecisionError> {
    let name = rendered.csvs[0].name().unwrap_or_default().to_string();
    let published = previous
        .csv(&name)
        .cloned()
        .expect("join::decide runs for a CSV the previous bundle carries");
    let (added, mut notes) = joined(&previous, &published, channels, previous_release)?;
    let differs = changes(&published, &rendered.csvs[0]);
    if added.is_empty() {
        // Every channel is headed by it: the same release again. An unchanged CSV is carried as
        // published (so a rerun builds the published bytes); a changed one is left for the push
        // to compare, which refuses it unless --force.
        if differs.is_none() {
            rendered.csvs[0] = published;
        }
        let decision = Decision::SameVersion {
            release: previous_release.to_string(),
        };
        return Ok(Decided {
            bundle: merge(rendered, previous, channels, &name),
            decision,
            notes,
        });
    }
    if let Some(changes) = differs {
        return Err(DecisionError::PublishedChanged {
            csv: name,
            release: previous_release.to_string(),
            changes,
        });
    }
    let release = channel_release(previous_release, releases.iter().copied()).ok_or_else(|| {
        DecisionError::HeadVersion {
            release: previous_release.to_string(),
            head: name.clone(),
        }
    })?;
    notes.push(format!(
        "{name} is already published (release {previous_release}); release {release} adds it to channel{} {} with the same CSVs and CRDs",
        if added.len() == 1 { "" } else { "s" },
        added.join(", ")
    ));
    let crds = semdiff::diff(
        &semdiff::Side {
            csv: None,
            crds: &previous.crds,
            package: None,
        },
        &semdiff::Side {
            csv: None,
            crds: &rendered.crds,
            package: None,
        },
        "published",
        "rendered",
    );
    if crds
        .objects
        .iter()
        .any(|o| o.status != semdiff::Status::Removed)
    {
        notes.push(format!(
            "the rendered CRDs differ from release {previous_release}'s; release {release} carries the published ones (publish CRD changes with a new version)"
        ));
    }
    // The previous bundle unchanged but for its package file, which gains the channels.
    rendered.csvs = vec![published];
    rendered.crds = Vec::new();
    let decision = Decision::AddChannels {
        release,
        channels: added,
        base_release: previous_release.to_string(),
    };
    Ok(Decided {
        bundle: merge(rendered, previous, channels, &name),
        decision,
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decision::{OlderPolicy, Published, ReadFrom};

    use crate::testing::bundle;

    /// `op.v{v}` with `spec.image` and a `createdAt` that differs with it.
    fn csv(v: &str, replaces: Option<&str>, image: &str) -> Manifest {
        let mut m = crate::testing::csv(v, replaces);
        m.doc["metadata"]["annotations"] =
            serde_yaml_ng::from_str(&format!("createdAt: '{image}-time'")).unwrap();
        m.doc["spec"]["image"] = image.into();
        m
    }

    /// 0.1.0 then 0.2.0 on stable; `extra` channels on top.
    fn published(extra: &[(&str, &str)]) -> Bundle {
        let mut channels = vec![("stable", "op.v0.2.0")];
        channels.extend_from_slice(extra);
        bundle(
            &channels,
            vec![
                csv("0.2.0", Some("op.v0.1.0"), "a"),
                csv("0.1.0", None, "a"),
            ],
        )
    }

    /// The rendered 0.2.0 (no replaces: the decision takes the published one's).
    fn rendered(image: &str) -> Bundle {
        bundle(&[("stable", "op.v0.2.0")], vec![csv("0.2.0", None, image)])
    }

    fn channels(names: &[&str]) -> Vec<String> {
        names.iter().map(|c| c.to_string()).collect()
    }

    fn run(
        rendered: Bundle,
        previous: Bundle,
        names: &[&str],
    ) -> Result<(Bundle, Decision, Vec<String>), DecisionError> {
        let published = Published {
            bundle: previous,
            release: "0.2.0",
            releases: vec!["0.2.0", "0.1.0"],
            from: ReadFrom::Registry,
        };
        let d = super::super::decide(rendered, &channels(names), published, OlderPolicy::Refuse)?;
        Ok((d.bundle, d.decision, d.notes))
    }

    #[test]
    fn a_published_csv_joins_a_channel_unchanged_under_a_new_release() {
        // createdAt differs (the pipeline writes the release time): not a change.
        let (b, d, _) = run(rendered("a"), published(&[]), &["stable", "fast"]).unwrap();
        assert_eq!(
            d,
            Decision::AddChannels {
                release: "0.2.1-0.1".into(),
                channels: channels(&["fast"]),
                base_release: "0.2.0".into(),
            }
        );
        assert_eq!(b.package.channel("fast").unwrap().current_csv, "op.v0.2.0");
        let prev = published(&[]);
        assert_eq!(
            b.csv("op.v0.2.0"),
            prev.csv("op.v0.2.0"),
            "the published CSV, as published"
        );
        assert_eq!(b.csvs.len(), 2);
        // Every channel headed by it already: the same release again, the published bytes.
        let (again, d, _) = run(rendered("a"), b.clone(), &["stable", "fast"]).unwrap();
        assert_eq!(
            d,
            Decision::SameVersion {
                release: "0.2.0".into()
            }
        );
        assert_eq!(again.package, b.package);
        assert_eq!(again.csv("op.v0.2.0"), b.csv("op.v0.2.0"));
    }

    #[test]
    fn a_changed_published_csv_or_a_foreign_head_is_refused_and_a_replaced_head_moves() {
        let e = run(rendered("b"), published(&[]), &["stable", "fast"]).unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("op.v0.2.0 is already published") && text.contains("spec.image"),
            "{text}"
        );
        // fast is headed by 0.1.0, which 0.2.0 replaces: the head moves.
        let (b, d, notes) = run(
            rendered("a"),
            published(&[("fast", "op.v0.1.0")]),
            &["stable", "fast"],
        )
        .unwrap();
        assert!(matches!(d, Decision::AddChannels { .. }));
        assert_eq!(b.package.channel("fast").unwrap().current_csv, "op.v0.2.0");
        assert!(
            notes.iter().any(|n| n.contains("moves from op.v0.1.0")),
            "{notes:?}"
        );
        // edge is headed by 0.1.5, which 0.2.0 neither replaces nor skips: refused.
        let mut prev = published(&[("edge", "op.v0.1.5")]);
        prev.csvs.push(csv("0.1.5", None, "a"));
        let text = run(rendered("a"), prev, &["stable", "edge"])
            .unwrap_err()
            .to_string();
        assert!(
            text.contains("channel edge has head op.v0.1.5")
                && text.contains("publish a new version that replaces op.v0.1.5"),
            "{text}"
        );
    }
}
