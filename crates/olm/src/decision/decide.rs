//! The decision of fetch-previous, per channel, and the merge of the previous bundle.
//!
//! A CSV has one `spec.replaces`, while each channel has its own head. OLM's registry builds a
//! channel by walking from its head (`currentCSV`) through `replaces`, and for every CSV it
//! visits adds an edge "this CSV replaces each name in its `spec.skips`" (operator-registry
//! `AddPackageChannels`; OLM's upgrade docs, "skips"). So a CSV joining channels with
//! different heads `replaces` the head of the first of its channels (the pipeline's `channel`,
//! or the first of `channels`) and `skips` the heads of the others: subscribers on every
//! channel then have an upgrade edge from their installed head to the new CSV, and the old
//! heads stay in the bundle, so the graph stays whole. The file-based catalog path ([`crate::fbc`])
//! needs no `skips` for this: there each channel entry carries its own `replaces`; both give
//! every channel the same edge from its old head to the new CSV.
//!
//! Versions compare as SemVer on every channel: a version below any channel's head is refused
//! (or skipped by policy), since `replaces` or `skips` would point forward.

use std::cmp::Ordering;

use super::own::own_edges;
use super::{Decision, DecisionError, Older, OlderPolicy, join};
use crate::{Bundle, Manifest, PackageManifest};

fn csv_name(b: &Bundle) -> String {
    b.csvs
        .first()
        .and_then(Manifest::name)
        .unwrap_or("the new CSV")
        .to_string()
}

/// Points every channel of the release at `head`, adding the ones the package lacks.
pub fn set_heads(package: &mut PackageManifest, channels: &[String], head: &str) {
    for c in channels {
        package.set_head(c, head);
    }
}

/// The package of a first release: every channel of the release headed by `head`; a channel
/// the project's package file declares with another head is left out, and said so (its head
/// is not published, so OLM could not serve it).
pub fn first_package(
    package: &mut PackageManifest,
    channels: &[String],
    head: &str,
) -> Vec<String> {
    set_heads(package, channels, head);
    let mut notes = Vec::new();
    package.channels.retain(|c| {
        let keep = c.current_csv == head;
        if !keep {
            notes.push(format!(
                "the package file's channel {} (head {}) is left out of this release: {} is not published yet",
                c.name, c.current_csv, c.current_csv
            ));
        }
        keep
    });
    if let Some(d) = &package.default_channel
        && package.channel(d).is_none()
    {
        package.default_channel = channels.first().cloned();
    }
    notes
}

/// Clears the new CSV's `replaces` when it names no CSV that is published (`previous` is the
/// registry's current bundle; `None` when nothing is published), saying what it cleared. A
/// complete CSV copied from a project keeps its own `replaces`, which on a first release names
/// a CSV OLM would never find.
pub fn clear_dangling(bundle: &mut Bundle, previous: Option<&Bundle>) -> Option<String> {
    let name = csv_name(bundle);
    let csv = bundle.csvs.first_mut()?;
    let replaces = csv.replaces()?.to_string();
    if previous.is_some_and(|p| p.csv(&replaces).is_some()) {
        return None;
    }
    csv.set_replaces(None);
    Some(format!(
        "{name}: cleared spec.replaces '{replaces}': it names nothing published, so this is a first release"
    ))
}

/// One channel's head in the previous bundle, compared with the new version.
pub(super) struct Head {
    pub(super) channel: String,
    pub(super) name: String,
    pub(super) order: Ordering,
}

/// Where the previous heads were read, for the refusal of an older version.
#[derive(Debug, Clone, Copy)]
pub enum ReadFrom<'a> {
    /// The app registry's default release.
    Registry,
    /// A file-based catalog folder (shown as given).
    Catalog(&'a str),
}

impl ReadFrom<'_> {
    /// Where the head is, and why a version below it is refused, with the fix.
    fn refusal(self, release: &str) -> (String, &'static str) {
        match self {
            ReadFrom::Registry => (
                format!("release {release}"),
                "Publishing it would make replaces point forward, and OLM loads only the highest release of a package, so it would never be served. Publish z-stream releases of an older branch to their own package or channel, or set registry.older: skip to publish nothing.",
            ),
            ReadFrom::Catalog(dir) => (
                format!("the catalog {dir}"),
                "Publishing it would make replaces point forward, and the catalog refuses an entry below its channel head. Publish z-stream releases of an older branch to their own package or channel, or set catalog.older: skip to publish nothing.",
            ),
        }
    }
}

/// The published side of the decision: the bundle whose channel heads the new CSV is decided
/// against, and where it was read.
#[derive(Debug)]
pub struct Published<'a> {
    /// The previous bundle: the app registry's highest release, or a skeleton of the catalog's
    /// channel heads.
    pub bundle: Bundle,
    /// Its release name (the app registry's), shown in messages.
    pub release: &'a str,
    /// Every release name of the package, which a channel-join release must not take.
    pub releases: Vec<&'a str>,
    /// Where the heads were read.
    pub from: ReadFrom<'a>,
}

/// What [`decide`] returns: the bundle to publish (the new CSV first, then what the previous
/// bundle carried), the decision, and notes on what was decided beyond it (skips added, a
/// `replaces` cleared).
#[derive(Debug)]
pub struct Decided {
    /// The bundle to publish.
    pub bundle: Bundle,
    /// The decision.
    pub decision: Decision,
    /// Notes for the user.
    pub notes: Vec<String>,
}

/// Decides the rendered bundle (new CSV first) of a release to `channels` against the
/// published heads, and combines it with the previous bundle.
pub fn decide(
    mut rendered: Bundle,
    channels: &[String],
    published: Published<'_>,
    older: OlderPolicy,
) -> Result<Decided, DecisionError> {
    let Published {
        bundle: previous,
        release: previous_release,
        releases,
        from,
    } = published;
    let new_name = csv_name(&rendered);
    let new_version = rendered.csvs[0]
        .semver()
        .ok_or_else(|| DecisionError::NotSemver {
            csv: new_name.clone(),
        })?;
    let mut heads = Vec::new();
    for channel in channels {
        let Some(head) = previous.package.channel(channel) else {
            continue;
        };
        let head_csv =
            previous
                .csv(&head.current_csv)
                .ok_or_else(|| DecisionError::MissingHead {
                    release: previous_release.into(),
                    channel: channel.clone(),
                    head: head.current_csv.clone(),
                })?;
        let head_version = head_csv
            .semver()
            .ok_or_else(|| DecisionError::HeadVersion {
                release: previous_release.into(),
                head: head.current_csv.clone(),
            })?;
        let order = new_version.cmp(&head_version);
        if order == Ordering::Less {
            match older {
                OlderPolicy::Skip => {
                    let decision = Decision::SkipOlder {
                        head: head.current_csv.clone(),
                    };
                    return Ok(Decided {
                        bundle: rendered,
                        decision,
                        notes: Vec::new(),
                    });
                }
                OlderPolicy::Refuse => {
                    let (at, why) = from.refusal(previous_release);
                    return Err(DecisionError::Older(Box::new(Older {
                        csv: new_name,
                        version: new_version.to_string(),
                        head: head.current_csv.clone(),
                        head_version: head_version.to_string(),
                        channel: channel.clone(),
                        at,
                        why,
                    })));
                }
            }
        }
        heads.push(Head {
            channel: channel.clone(),
            name: head.current_csv.clone(),
            order,
        });
    }
    if let Some(published) = previous.csv(&new_name) {
        // Already published: the same CSV again, or joining more channels (`add`); its own
        // edges are kept, so identical inputs give an identical bundle.
        let (replaces, skips) = (
            published.replaces().map(str::to_string),
            skips_of(published),
        );
        rendered.csvs[0].set_replaces(replaces.as_deref());
        set_skips(&mut rendered.csvs[0], &skips);
        return join::decide(rendered, previous, channels, previous_release, &releases);
    }
    let mut notes = Vec::new();
    let above: Vec<&Head> = heads
        .iter()
        .filter(|h| h.order == Ordering::Greater)
        .collect();
    let decision = if let Some(first) = above.first() {
        let own = rendered.csvs[0].replaces().map(str::to_string);
        let registry = matches!(from, ReadFrom::Registry);
        let first = match own_edges(
            &rendered.csvs[0],
            own.as_deref(),
            &above,
            &previous,
            registry,
        )? {
            Some(covered) => {
                if own.as_deref() != Some(covered.name.as_str()) {
                    notes.push(format!(
                        "{new_name} keeps its own spec.replaces {} and skips {}, the head of channel {}",
                        own.as_deref().unwrap_or_default(),
                        covered.name,
                        covered.channel
                    ));
                }
                covered
            }
            None => {
                rendered.csvs[0].set_replaces(Some(&first.name));
                first
            }
        };
        let mut skips = skips_of(&rendered.csvs[0]);
        for h in above.iter().filter(|h| h.channel != first.channel) {
            if h.name != first.name && !skips.contains(&h.name) {
                skips.push(h.name.clone());
                notes.push(format!(
                    "{new_name} skips {}, head of channel {}: a CSV has one replaces (the head of {}), so subscribers on {} upgrade through spec.skips",
                    h.name, h.channel, first.channel, h.channel
                ));
            }
        }
        set_skips(&mut rendered.csvs[0], &skips);
        Decision::Replaces {
            head: first.name.clone(),
            head_release: previous_release.to_string(),
        }
    } else if let Some(same) = heads.iter().find(|h| h.order == Ordering::Equal) {
        // Same release again: keep the published CSV's own edges so that identical inputs
        // give an identical bundle.
        if let Some(published) = previous.csv(&same.name) {
            rendered.csvs[0].set_replaces(published.replaces());
            set_skips(&mut rendered.csvs[0], &skips_of(published));
        }
        Decision::SameVersion {
            release: previous_release.to_string(),
        }
    } else {
        notes.extend(clear_dangling(&mut rendered, Some(&previous)));
        Decision::First {
            reason: format!(
                "release {previous_release} has no channel '{}'",
                channels.join("', '")
            ),
        }
    };
    Ok(Decided {
        bundle: merge(rendered, previous, channels, &new_name),
        decision,
        notes,
    })
}

/// The CSV names in `spec.skips` (string entries only).
pub fn skips_of(csv: &Manifest) -> Vec<String> {
    crate::value_at(&csv.doc, "spec.skips")
        .and_then(serde_yaml_ng::Value::as_sequence)
        .map(|s| {
            s.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Sets `spec.skips` (removed when empty), keeping the key order of `spec`.
pub fn set_skips(csv: &mut Manifest, skips: &[String]) {
    let Some(spec) = csv
        .doc
        .get_mut("spec")
        .and_then(serde_yaml_ng::Value::as_mapping_mut)
    else {
        return;
    };
    if skips.is_empty() {
        spec.remove("skips");
    } else {
        let list = skips.iter().cloned().map(Into::into).collect();
        spec.insert("skips".into(), serde_yaml_ng::Value::Sequence(list));
    }
}

/// The new bundle: the new CSV, every other CSV of the previous bundle, the new CRDs plus the
/// previous CRDs of other names, and the previous package with every channel of the release
/// pointing at the new CSV. Channels the project's package file declares are kept too when
/// their head is in the bundle (never silently dropped: one whose head is missing stays out,
/// and verify would name it if it were kept).
pub(super) fn merge(
    rendered: Bundle,
    previous: Bundle,
    channels: &[String],
    new_name: &str,
) -> Bundle {
    let mut csvs = rendered.csvs;
    csvs.extend(
        previous
            .csvs
            .into_iter()
            .filter(|c| c.name() != Some(new_name)),
    );
    let mut crds = rendered.crds;
    let new_crds: Vec<String> = crds
        .iter()
        .filter_map(|c| c.name().map(str::to_string))
        .collect();
    crds.extend(
        previous
            .crds
            .into_iter()
            .filter(|c| !c.name().is_some_and(|n| new_crds.iter().any(|x| x == n))),
    );
    let mut package = previous.package;
    package.package_name = rendered.package.package_name;
    if rendered.package.default_channel.is_some() {
        package.default_channel = rendered.package.default_channel;
    }
    // A package with several channels needs a default (registry ≥ v1.1.1 refuses to load it
    // otherwise). When this release adds a channel to a package that had one, the channel that
    // was the implicit default stays the default, so existing subscribers see no change; a
    // `defaultChannel` in the rendered package file decides otherwise.
    let implicit = (package.channels.len() == 1 && package.default_channel.is_none())
        .then(|| package.channels[0].name.clone());
    for declared in &rendered.package.channels {
        if package.channel(&declared.name).is_none()
            && !channels.contains(&declared.name)
            && csvs
                .iter()
                .any(|c| c.name() == Some(declared.current_csv.as_str()))
        {
            package.channels.push(declared.clone());
        }
    }
    set_heads(&mut package, channels, new_name);
    if package.default_channel.is_none() && package.channels.len() > 1 {
        package.default_channel =
            Some(implicit.unwrap_or_else(|| channels.first().cloned().unwrap_or_default()));
    }
    Bundle {
        package,
        csvs,
        crds,
    }
}
