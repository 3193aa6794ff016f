//! What a decision says, as text: the one line a run reports for it, read from an app registry
//! ([`from_registry`]) or from a file-based catalog ([`from_catalog`]), and the release notes'
//! summary (`release.notes: summary`) each decision gives ([`notes`]: a first release's line, or
//! the one-screen summary against the channel's published head, or none when nothing new is
//! published). Fetch-previous reads, decides and reports; the words are here so that both
//! sources say the same thing the same way.

use super::model::Decision;
use crate::semdiff;
use crate::{Bundle, Manifest};

/// The new CSV's `metadata.name`, or "the new CSV".
pub fn csv_name(b: &Bundle) -> &str {
    b.csvs
        .first()
        .and_then(Manifest::name)
        .unwrap_or("the new CSV")
}

/// "s" for more than one.
fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The line a run reports for `decision`, taken against the app registry's highest release on
/// `channel`; `bundle` is the decided bundle.
pub fn from_registry(decision: &Decision, bundle: &Bundle, channel: &str) -> String {
    let name = csv_name(bundle);
    match decision {
        Decision::First { reason } => {
            format!("first release on channel {channel}: {name} has no replaces ({reason})")
        }
        Decision::Replaces { head, head_release } => format!(
            "{name} replaces {head}, head of {channel} in release {head_release}; bundle carries {}",
            olm_release_base::words::count(bundle.csvs.len(), "CSV")
        ),
        Decision::SameVersion { release } => format!(
            "{name} is already the head of {channel} in release {release}: re-publishing the same version (push compares digests)"
        ),
        Decision::SkipOlder { head } => format!(
            "{name} is older than {head}, the head of {channel}; policy 'skip': nothing to publish"
        ),
        Decision::AddChannels {
            release,
            channels,
            base_release,
        } => format!(
            "{name} (published in release {base_release}) joins channel{} {}: pushing release {release}, the same bundle with the channel{} added",
            plural(channels.len()),
            channels.join(", "),
            plural(channels.len()),
        ),
    }
}

/// Where a decision against a catalog was taken, for its line.
pub struct CatalogShown<'a> {
    /// The catalog as shown (`dir: …`, a git branch, an image tag).
    pub shown: &'a str,
    /// The pipeline's package.
    pub package: &'a str,
    /// The release's first channel.
    pub channel: &'a str,
    /// Every channel of the release.
    pub channels: &'a [String],
    /// Whether the catalog has a head on any of them.
    pub has_heads: bool,
}

/// The line a run reports for `decision`, taken against a catalog's channel heads, and the
/// release notes' summary it gives (a first release's, or the replaced head's).
pub fn from_catalog(
    decision: &Decision,
    bundle: &Bundle,
    at: &CatalogShown<'_>,
) -> (String, Option<String>) {
    let (name, channel, shown) = (csv_name(bundle), at.channel, at.shown);
    let replaces = bundle
        .csvs
        .first()
        .and_then(Manifest::replaces)
        .unwrap_or("nothing");
    match decision {
        Decision::First { reason } if !at.has_heads => (
            format!("first release: {name} has no replaces ({reason})"),
            Some(first_notes(at.package, at.channels, bundle)),
        ),
        Decision::Replaces { head, .. } => (
            format!(
                "{name} replaces {head}, head of {channel} in the catalog {shown}; spec.replaces is what the catalog entry will replace"
            ),
            Some(format!(
                "{name} replaces {head}, the previous head of channel {channel}.\n"
            )),
        ),
        Decision::SameVersion { .. } => (
            format!(
                "{name} is already the head of {channel} in the catalog {shown}: re-publishing the same version (replaces {replaces}, as its catalog entry; the bundle image and catalog stages compare digests)"
            ),
            None,
        ),
        Decision::SkipOlder { head } => (
            format!(
                "{name} is older than {head}, the head of {channel} in the catalog {shown}; policy 'skip': nothing to publish"
            ),
            None,
        ),
        Decision::AddChannels { channels, .. } => (
            format!(
                "{name} is already in the catalog {shown} and joins channel{} {} (replaces {replaces}, as its catalog entry)",
                plural(channels.len()),
                channels.join(", ")
            ),
            None,
        ),
        Decision::First { reason } => (
            format!("first release on channel {channel}: {name} has no replaces ({reason})"),
            Some(first_notes(at.package, at.channels, bundle)),
        ),
    }
}

/// The release notes' summary `decision` gives, from an app registry: the summary against the
/// replaced head (`against_head`, when the head was read), a first release's line, or none
/// (re-publishing the head or adding it to more channels has nothing new to summarise, so the
/// notes a first run wrote stay as they are; nothing is published below the head).
pub fn notes(
    decision: &Decision,
    against_head: Option<String>,
    package: &str,
    channels: &[String],
    bundle: &Bundle,
) -> Option<String> {
    match decision {
        Decision::Replaces { .. } => against_head,
        Decision::First { .. } => Some(first_notes(package, channels, bundle)),
        Decision::SameVersion { .. }
        | Decision::SkipOlder { .. }
        | Decision::AddChannels { .. } => None,
    }
}

/// What changes between the channel's published head (`published`: its CSV, with the CRDs and
/// the package file of release `release`) and `bundle`, compared as data ([`semdiff`]), with the
/// heading a run shows it under.
pub fn against_head(
    published: &semdiff::Side<'_>,
    bundle: &Bundle,
    release: &str,
) -> (String, semdiff::BundleDiff) {
    let new = semdiff::Side {
        csv: bundle.csvs.first(),
        crds: &bundle.crds,
        package: Some(&bundle.package),
    };
    let old_name = published.csv.and_then(Manifest::name).unwrap_or("previous");
    let diff = semdiff::diff(
        published,
        &new,
        &format!("{old_name} (published in release {release})"),
        &format!("{} (this release)", csv_name(bundle)),
    );
    let heading =
        format!("changes from {old_name}, the published head of the channel (release {release}):");
    (heading, diff)
}

/// The release notes' summary: the one-screen summary against the channel's published head,
/// as a Markdown code block (its columns line up).
pub fn summary_notes(
    channel: &str,
    old_name: &str,
    release: &str,
    summary: &semdiff::Summary,
) -> String {
    if summary.is_empty() {
        return format!(
            "No change to the CSV's version, replaces, images or permissions, the CRDs or the channels since {old_name} (release {release}).\n"
        );
    }
    format!(
        "Changes since {old_name}, the previous head of channel {channel} (release {release}):\n\n```\n{summary}```\n"
    )
}

/// The release notes' summary of a first release.
pub fn first_notes(package: &str, channels: &[String], bundle: &Bundle) -> String {
    format!(
        "First release of {package}: {} starts channel{} {}.\n",
        csv_name(bundle),
        plural(channels.len()),
        channels.join(", ")
    )
}

/// The line naming the heads read from the catalog `shown` (channel, head, its version); none
/// when it has none of the release's channels.
pub fn catalog_heads(shown: &str, heads: &[crate::fbc::ChannelHead]) -> Option<String> {
    if heads.is_empty() {
        return None;
    }
    let each: Vec<String> = heads
        .iter()
        .map(|f| {
            let version = f.head.version.as_ref().map(|v| format!(" ({v})"));
            format!(
                "channel {} head {}{}",
                f.channel,
                f.head.name,
                version.unwrap_or_default()
            )
        })
        .collect();
    Some(format!(
        "previous: read from the catalog {shown} (no registry: section): {}",
        each.join(", ")
    ))
}

/// The warning for a first release of `ns`/`package` at `version`, past a package's usual
/// first: probably the wrong namespace or package (a typo such as `kubvirt`). `packages` are
/// the namespace's packages (`None` when they could not be listed); a few are named, those
/// sharing the longest start with `package` first, since a namespace may hold hundreds.
pub fn first_release_warning(
    ns: &str,
    package: &str,
    version: &semver::Version,
    packages: Option<Vec<&str>>,
) -> String {
    let others = match packages {
        None => format!("the packages of namespace {ns} could not be listed"),
        Some(list) if list.is_empty() => format!("namespace {ns} has no packages"),
        Some(list) => {
            let count = olm_release_base::words::count(list.len(), "package");
            let names = likely_names(package, list);
            format!(
                "namespace {ns} has {count}: {}",
                olm_release_base::words::some(&names, 5)
            )
        }
    };
    format!(
        "first release of {ns}/{package} at version {version}: no earlier release was found at {ns}/{package} ({others}); check registry.namespace and package if this is not the package's first release"
    )
}

/// `names` ordered for a message about a package name that may be mistyped: those sharing the
/// longest start with `package` first (a typo's intended name), then by name.
pub fn likely_names<'a>(package: &str, mut names: Vec<&'a str>) -> Vec<&'a str> {
    let shared = |n: &str| {
        n.chars()
            .zip(package.chars())
            .take_while(|(a, b)| a == b)
            .count()
    };
    names.sort_by_key(|n| (std::cmp::Reverse(shared(n)), *n));
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{bundle, csv};

    fn channels(all: &[&str]) -> Vec<String> {
        all.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn each_decision_from_a_registry_has_its_line() {
        let b = bundle(
            &[("stable", "op.v2.0.0")],
            vec![csv("2.0.0", Some("op.v1.0.0")), csv("1.0.0", None)],
        );
        let replaces = Decision::Replaces {
            head: "op.v1.0.0".into(),
            head_release: "1.0.0".into(),
        };
        assert_eq!(
            from_registry(&replaces, &b, "stable"),
            "op.v2.0.0 replaces op.v1.0.0, head of stable in release 1.0.0; bundle carries 2 CSVs"
        );
        let joins = Decision::AddChannels {
            release: "2.0.0-0.1".into(),
            channels: channels(&["fast"]),
            base_release: "2.0.0".into(),
        };
        assert_eq!(
            from_registry(&joins, &b, "stable"),
            "op.v2.0.0 (published in release 2.0.0) joins channel fast: pushing release 2.0.0-0.1, the same bundle with the channel added"
        );
        assert_eq!(csv_name(&bundle(&[], Vec::new())), "the new CSV");
    }

    #[test]
    fn a_catalog_decision_gives_its_line_and_notes() {
        let b = bundle(
            &[("stable", "op.v2.0.0")],
            vec![csv("2.0.0", Some("op.v1.0.0"))],
        );
        let release_channels = channels(&["stable", "fast"]);
        let at = CatalogShown {
            shown: "dir:catalog",
            package: "op",
            channel: "stable",
            channels: &release_channels,
            has_heads: false,
        };
        let first = Decision::First {
            reason: "the catalog dir:catalog does not exist yet".into(),
        };
        let (line, notes) = from_catalog(&first, &b, &at);
        assert_eq!(
            line,
            "first release: op.v2.0.0 has no replaces (the catalog dir:catalog does not exist yet)"
        );
        assert_eq!(
            notes.as_deref(),
            Some("First release of op: op.v2.0.0 starts channels stable, fast.\n")
        );
        let with_heads = CatalogShown {
            has_heads: true,
            ..at
        };
        let (line, _) = from_catalog(&first, &b, &with_heads);
        assert!(
            line.starts_with("first release on channel stable: "),
            "{line}"
        );
        let same = Decision::SameVersion {
            release: "2.0.0".into(),
        };
        let (line, notes) = from_catalog(&same, &b, &with_heads);
        assert!(
            line.contains("(replaces op.v1.0.0, as its catalog entry;"),
            "{line}"
        );
        assert_eq!(notes, None);
    }

    #[test]
    fn only_a_replacement_or_a_first_release_has_notes() {
        let b = bundle(&[("stable", "op.v2.0.0")], vec![csv("2.0.0", None)]);
        let c = channels(&["stable"]);
        let replaces = Decision::Replaces {
            head: "op.v1.0.0".into(),
            head_release: "1.0.0".into(),
        };
        assert_eq!(
            notes(&replaces, Some("diff".into()), "op", &c, &b).as_deref(),
            Some("diff")
        );
        let skip = Decision::SkipOlder {
            head: "op.v3.0.0".into(),
        };
        assert_eq!(notes(&skip, Some("diff".into()), "op", &c, &b), None);
        let first = Decision::First {
            reason: "none".into(),
        };
        assert_eq!(
            notes(&first, None, "op", &c, &b).as_deref(),
            Some("First release of op: op.v2.0.0 starts channel stable.\n")
        );
        assert!(
            summary_notes("stable", "op.v1.0.0", "1.0.0", &semdiff::Summary::default())
                .starts_with("No change to the CSV's version")
        );
    }

    #[test]
    fn the_diff_against_the_head_is_headed_by_it_and_its_release() {
        let b = bundle(
            &[("stable", "op.v2.0.0")],
            vec![csv("2.0.0", Some("op.v1.0.0"))],
        );
        let head = csv("1.0.0", None);
        let package = crate::testing::package(&[("stable", "op.v1.0.0")]);
        let published = semdiff::Side {
            csv: Some(&head),
            crds: &[],
            package: Some(&package),
        };
        let (heading, diff) = against_head(&published, &b, "1.0.0");
        assert_eq!(
            heading,
            "changes from op.v1.0.0, the published head of the channel (release 1.0.0):"
        );
        assert!(!diff.summary.is_empty());
        assert!(
            diff.text.contains("op.v1.0.0 (published in release 1.0.0)"),
            "{}",
            diff.text
        );
    }

    #[test]
    fn a_first_release_past_the_usual_first_names_the_namespace_packages() {
        let v = semver::Version::new(2, 3, 0);
        let w = first_release_warning("kubevirt", "kubevrt", &v, Some(vec!["cdi", "kubevirt"]));
        assert!(
            w.starts_with("first release of kubevirt/kubevrt at version 2.3.0: "),
            "{w}"
        );
        assert!(
            w.contains("(namespace kubevirt has 2 packages: kubevirt, cdi)"),
            "{w}"
        );
        let w = first_release_warning("ns", "op", &v, None);
        assert!(
            w.contains("(the packages of namespace ns could not be listed)"),
            "{w}"
        );
        let w = first_release_warning("ns", "op", &v, Some(Vec::new()));
        assert!(w.contains("(namespace ns has no packages)"), "{w}");
    }

    #[test]
    fn a_mistyped_package_finds_its_intended_name_first() {
        assert_eq!(
            likely_names("kubevrt", vec!["cdi", "kubevirt", "hco", "kubernetes"]),
            ["kubevirt", "kubernetes", "cdi", "hco"]
        );
    }
}
