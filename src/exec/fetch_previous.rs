//! The fetch-previous step: read what the registry already serves for this package, decide
//! what the new CSV `replaces`, and carry the previous bundle's CSVs and CRDs into the new one.
//!
//! This is where KubeVirt's 2019 release flow went wrong most often, so each rule is explicit
//! here:
//! - only the pipeline's own package is read, by name, never "the first in the namespace";
//! - the previous bundle is the package's `default` release (highest SemVer: the one OLM
//!   consumers load), its digest checked against what the registry reported;
//! - the predecessor is the head of the pipeline's *channel* in that bundle, found by name;
//! - versions are compared as SemVer: above the head replaces it; equal re-publishes the same
//!   release (the push step decides by digest); below the head is refused (or skipped by
//!   policy) because it would make `replaces` point forward;
//! - every failure is an error; nothing is silently published without its predecessor.

use std::cmp::Ordering;

use super::errors::FetchError;
use super::{Assembled, Decision, Rendered};
use crate::error::Result;
use crate::olm::archive;
use crate::olm::{Bundle, Manifest};
use crate::pipeline::OlderPolicy;
use crate::plan::FetchStep;
use crate::registry::Registry;
use crate::report::Reporter;

/// The fetch-previous step.
pub(crate) async fn run(
    step: &FetchStep,
    registry: &Registry,
    report: &Reporter,
    rendered: Rendered,
) -> Result<Assembled> {
    let (ns, pkg, channel) = (&step.namespace, &step.package, &step.channel);
    let (files, rendered) = rendered.split();
    let where_ = format!("{} {ns}/{pkg}", registry.describe());
    let releases = registry
        .releases(ns, pkg)
        .await
        .map_err(|source| FetchError::Read {
            at: where_.clone(),
            source,
        })?;
    let Some(default) = releases.first() else {
        let decision = Decision::First {
            reason: format!("{where_} has no releases yet"),
        };
        report.decided(
            &decision,
            &format!(
                "first release: {} has no replaces ({where_} has no releases yet)",
                csv_name(&rendered)
            ),
        );
        return Ok(Assembled {
            files,
            bundle: rendered,
            decision,
        });
    };
    report.info(&format!(
        "previous: release {} of {where_} (the highest of {}: what OLM consumers load), sha256:{}",
        default.release,
        releases.len(),
        default.digest
    ));
    let gz = registry
        .pull(ns, pkg, &default.digest)
        .await
        .map_err(|source| FetchError::Pull {
            release: default.release.clone(),
            at: where_.clone(),
            source,
        })?;
    let previous =
        archive::unpack_release(&gz, &default.digest, &step.limits).map_err(|source| {
            FetchError::Unpack {
                release: default.release.clone(),
                at: where_.clone(),
                source,
            }
        })?;
    if previous.package.package_name != *pkg {
        return Err(FetchError::OtherPackage {
            release: default.release.clone(),
            at: where_,
            found: previous.package.package_name,
            package: pkg.clone(),
        }
        .into());
    }
    let rendered_default = rendered.package.default_channel.is_some();
    let previous_head = previous
        .package
        .channel(channel)
        .and_then(|c| previous.csv(&c.current_csv))
        .cloned();
    let (bundle, decision) = decide(rendered, previous, channel, &default.release, step.older)?;
    let text = match &decision {
        Decision::First { reason } => format!(
            "first release on channel {channel}: {} has no replaces ({reason})",
            csv_name(&bundle)
        ),
        Decision::Replaces { head, head_release } => format!(
            "{} replaces {head}, head of {channel} in release {head_release}; bundle carries {} CSVs",
            csv_name(&bundle),
            bundle.csvs.len()
        ),
        Decision::SameVersion { release } => format!(
            "{} is already the head of {channel} in release {release}: re-publishing the same version (push compares digests)",
            csv_name(&bundle)
        ),
        Decision::SkipOlder { head } => format!(
            "{} is older than {head}, the head of {channel}; policy 'skip': nothing to publish",
            csv_name(&bundle)
        ),
    };
    report.decided(&decision, &text);
    if let Some(default) = &bundle.package.default_channel
        && bundle.package.channels.len() > 1
        && !rendered_default
    {
        report.note(&format!(
            "the package now has channels {}; defaultChannel is {default} (set defaultChannel in the package template to choose another)",
            bundle
                .package
                .channels
                .iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if let (Some(old), Some(new)) = (&previous_head, bundle.csvs.first()) {
        show_diff(report, old, new, step.show_diff);
    }
    Ok(Assembled {
        files,
        bundle,
        decision,
    })
}

fn csv_name(b: &Bundle) -> &str {
    b.csvs
        .first()
        .and_then(Manifest::name)
        .unwrap_or("the new CSV")
}

/// Combines the rendered bundle (new CSV first) with the previous one.
pub(crate) fn decide(
    mut rendered: Bundle,
    previous: Bundle,
    channel: &str,
    previous_release: &str,
    older: OlderPolicy,
) -> Result<(Bundle, Decision)> {
    let new_name = csv_name(&rendered).to_string();
    let new_version = rendered.csvs[0]
        .semver()
        .ok_or_else(|| FetchError::NotSemver {
            csv: new_name.clone(),
        })?;
    let decision = match previous.package.channel(channel) {
        None => Decision::First {
            reason: format!("release {previous_release} has no channel '{channel}'"),
        },
        Some(head) => {
            let head_csv =
                previous
                    .csv(&head.current_csv)
                    .ok_or_else(|| FetchError::MissingHead {
                        release: previous_release.into(),
                        channel: channel.into(),
                        head: head.current_csv.clone(),
                    })?;
            let head_version = head_csv.semver().ok_or_else(|| FetchError::HeadVersion {
                release: previous_release.into(),
                head: head.current_csv.clone(),
            })?;
            match new_version.cmp(&head_version) {
                Ordering::Greater => Decision::Replaces {
                    head: head.current_csv.clone(),
                    head_release: previous_release.to_string(),
                },
                Ordering::Equal => {
                    // Same release again: keep the head's own predecessor so that identical
                    // inputs give an identical bundle.
                    let replaces = head_csv.replaces().map(str::to_string);
                    rendered.csvs[0].set_replaces(replaces.as_deref());
                    Decision::SameVersion {
                        release: previous_release.to_string(),
                    }
                }
                Ordering::Less => match older {
                    OlderPolicy::Skip => Decision::SkipOlder {
                        head: head.current_csv.clone(),
                    },
                    OlderPolicy::Refuse => {
                        return Err(FetchError::Older {
                            csv: new_name,
                            version: new_version.to_string(),
                            head: head.current_csv.clone(),
                            head_version: head_version.to_string(),
                            channel: channel.into(),
                            release: previous_release.into(),
                        }
                        .into());
                    }
                },
            }
        }
    };
    if let Decision::Replaces { head, .. } = &decision {
        rendered.csvs[0].set_replaces(Some(head));
    }
    if matches!(decision, Decision::SkipOlder { .. }) {
        return Ok((rendered, decision));
    }
    Ok((merge(rendered, previous, channel, &new_name), decision))
}

/// The new bundle: the new CSV, every other CSV of the previous bundle, the new CRDs plus the
/// previous CRDs of other names, and the previous package with this channel's head moved.
fn merge(rendered: Bundle, previous: Bundle, channel: &str, new_name: &str) -> Bundle {
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
    package.set_head(channel, new_name);
    if package.default_channel.is_none() && package.channels.len() > 1 {
        package.default_channel = Some(implicit.unwrap_or_else(|| channel.to_string()));
    }
    Bundle {
        package,
        csvs,
        crds,
    }
}

/// Shows what changes between the channel's published head CSV and the new one: always in a
/// dry-run (so maintainers review it before publishing), with `-v` otherwise.
fn show_diff(report: &Reporter, old: &Manifest, new: &Manifest, always: bool) {
    let yaml = |m: &Manifest| crate::olm::yaml::to_string(&m.doc);
    let (old_name, new_name) = (
        old.name().unwrap_or("previous"),
        new.name().unwrap_or("new"),
    );
    let diff = crate::diff::unified(
        &format!("{old_name} (published)"),
        &format!("{new_name} (this release)"),
        &yaml(old),
        &yaml(new),
        3,
    );
    let text = if diff.is_empty() {
        format!("the new CSV is identical to the published {old_name}")
    } else {
        format!("changes from the published head of the channel:\n{diff}")
    };
    report.block(&text, always);
}
