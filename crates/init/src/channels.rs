//! The channels a release goes to and the package's default channel, from the project: what
//! `init --channel a,b --default-channel a` asks, else the Makefile's `CHANNELS` and
//! `DEFAULT_CHANNEL` (the variables operator-sdk's scaffolded Makefile passes to
//! `operator-sdk generate bundle` as `--channels` and `--default-channel`:
//! <https://sdk.operatorframework.io/docs/olm-integration/generation/#channels>), else what the
//! repository's bundle or package file says (its annotations, read by [`super::bundles`]), else
//! `alpha` (operator-sdk's own default channel).
//!
//! A Makefile variable counts when it is assigned outside a comment (`CHANNELS ?= stable`,
//! `CHANNELS := "stable,fast"`, `DEFAULT_CHANNEL = stable`); the scaffold's commented examples
//! (`# - use … (e.g make bundle CHANNELS=candidate,fast,stable)`) and a value made of other
//! variables (`$(…)`) do not.

use std::path::Path;

/// The channels and default channel, and where they came from (for `init`'s report).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ChannelChoice {
    /// The first is the channel whose head a release replaces.
    pub channels: Vec<String>,
    pub default_channel: Option<String>,
    /// Where they were read: `--channel`, `Makefile`, the bundle's annotations… (None: the
    /// default, alpha).
    pub from: Option<String>,
    /// What disagreed and was not taken.
    pub notes: Vec<String>,
}

/// A comma-separated channel list (`stable, stable-v1.5`), quotes and blanks dropped.
pub(crate) fn split(list: &str) -> Vec<String> {
    list.trim()
        .trim_matches(['"', '\''])
        .split(',')
        .map(|c| c.trim().trim_matches(['"', '\'']).to_string())
        .filter(|c| !c.is_empty())
        .collect()
}

/// The value a Makefile assigns to `name` (`NAME ?= v`, `NAME := v`, `NAME = v`, `NAME ::= v`,
/// `override`/`export` prefixes allowed), the last assignment winning as make reads it; None
/// when unassigned, empty or computed from other variables.
pub(crate) fn makefile_var(text: &str, name: &str) -> Option<String> {
    let mut value = None;
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        let line = line
            .strip_prefix("export ")
            .or_else(|| line.strip_prefix("override "))
            .unwrap_or(line)
            .trim_start();
        let Some(rest) = line.strip_prefix(name) else {
            continue;
        };
        let rest = rest.trim_start();
        let assigned = ["::=", ":=", "?=", "="]
            .iter()
            .find_map(|op| rest.strip_prefix(op));
        if let Some(v) = assigned {
            let v = v.trim().trim_matches(['"', '\'']).trim();
            value =
                (!v.is_empty() && !v.contains("$(") && !v.contains("${")).then(|| v.to_string());
        }
    }
    value
}

/// The channels of the repository at `source`: `asked` (and `asked_default`) first, then its
/// Makefile, then `found` (the bundle's or package file's, read as `found_from`).
pub(crate) fn choose(
    source: &Path,
    asked: &[String],
    asked_default: Option<&str>,
    found: (&[String], Option<&str>, Option<&str>),
) -> ChannelChoice {
    let (found_channels, found_default, found_from) = found;
    let makefile = std::fs::read_to_string(source.join("Makefile")).unwrap_or_default();
    let make_channels = makefile_var(&makefile, "CHANNELS").map(|v| split(&v));
    let make_default = makefile_var(&makefile, "DEFAULT_CHANNEL");
    let mut notes = Vec::new();
    let (channels, mut default, from) = if !asked.is_empty() {
        (asked.to_vec(), None, Some("--channel".to_string()))
    } else if let Some(c) = make_channels.filter(|c| !c.is_empty()) {
        if !found_channels.is_empty() && found_channels != c.as_slice() {
            notes.push(format!(
                "channels {} from the Makefile's CHANNELS, not {} ({})",
                c.join(", "),
                found_channels.join(", "),
                found_from.unwrap_or("the bundle")
            ));
        }
        (c, None, Some("the Makefile's CHANNELS".to_string()))
    } else if !found_channels.is_empty() {
        (
            found_channels.to_vec(),
            found_default.map(str::to_string),
            found_from.map(str::to_string),
        )
    } else {
        (vec!["alpha".to_string()], None, None)
    };
    if let Some(d) = asked_default {
        default = Some(d.to_string());
    } else if let Some(d) = make_default {
        default = Some(d);
    } else if default.is_none() {
        default = found_default.map(str::to_string);
    }
    let mut channels = channels;
    if let Some(d) = &default
        && !channels.contains(d)
    {
        // OLM's default channel must be one the package has: the release joins it too.
        notes.push(format!(
            "default channel {d} is not among the channels {}: the release joins it too",
            channels.join(", ")
        ));
        channels.push(d.clone());
    }
    ChannelChoice {
        channels,
        default_channel: default,
        from,
        notes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn makefile_assignments_count_and_comments_do_not() {
        let text = "# - use the CHANNELS as arg of the bundle target (e.g make bundle CHANNELS=candidate,fast,stable)\n\
                    # CHANNELS = commented\n\
                    CHANNELS ?= \"stable,stable-v1.5\"\n\
                    DEFAULT_CHANNEL := stable # the one users get\n\
                    BUNDLE_CHANNELS := --channels=$(CHANNELS)\n";
        assert_eq!(
            makefile_var(text, "CHANNELS").map(|v| split(&v)),
            Some(vec!["stable".to_string(), "stable-v1.5".to_string()])
        );
        assert_eq!(
            makefile_var(text, "DEFAULT_CHANNEL").as_deref(),
            Some("stable")
        );
        assert_eq!(makefile_var(text, "BUNDLE_CHANNELS"), None, "computed");
        assert_eq!(makefile_var("CHANNELSX = a\n", "CHANNELS"), None);
        assert_eq!(
            makefile_var("CHANNELS = a\nCHANNELS = b\n", "CHANNELS").as_deref(),
            Some("b"),
            "the last assignment wins"
        );
    }

    #[test]
    fn asked_beats_makefile_beats_bundle() {
        let dir = tempfile::tempdir().unwrap();
        let found: &[String] = &["alpha".into()];
        let none = choose(
            dir.path(),
            &[],
            None,
            (found, Some("alpha"), Some("a.yaml")),
        );
        assert_eq!(none.channels, vec!["alpha"]);
        assert_eq!(none.from.as_deref(), Some("a.yaml"));
        std::fs::write(
            dir.path().join("Makefile"),
            "CHANNELS = stable,fast\nDEFAULT_CHANNEL = stable\n",
        )
        .unwrap();
        let make = choose(
            dir.path(),
            &[],
            None,
            (found, Some("alpha"), Some("a.yaml")),
        );
        assert_eq!(make.channels, vec!["stable", "fast"]);
        assert_eq!(make.default_channel.as_deref(), Some("stable"));
        assert!(
            make.notes[0].contains("not alpha (a.yaml)"),
            "{:?}",
            make.notes
        );
        let asked = choose(
            dir.path(),
            &["candidate".into()],
            Some("fast"),
            (found, None, None),
        );
        assert_eq!(
            asked.channels,
            vec!["candidate", "fast"],
            "the default joins"
        );
        assert_eq!(asked.default_channel.as_deref(), Some("fast"));
    }
}
