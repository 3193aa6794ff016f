//! The decision against an app registry: the package's highest release (the one OLM consumers
//! load, OLM's appregistry docs) is the published side; a package without releases is a first
//! release.

use super::{Decided, DecisionError, OlderPolicy, Published, decide, first};
use crate::Bundle;

/// Decides the rendered bundle (new CSV first) of a release to `channels` against the app
/// registry: `highest` is the package's highest release as read ([`Published`]), `None` when
/// `at` (the registry and package, as messages name them) has no releases yet.
pub fn decide_from_registry(
    rendered: Bundle,
    channels: &[String],
    at: &str,
    highest: Option<Published<'_>>,
    older: OlderPolicy,
) -> Result<Decided, DecisionError> {
    match highest {
        None => Ok(first(
            rendered,
            channels,
            format!("{at} has no releases yet"),
        )),
        Some(published) => decide(rendered, channels, published, older),
    }
}

/// The note that a package now on several channels has the default channel the decision kept
/// (the package template set none: `rendered_default` is false); `None` otherwise.
pub fn default_channel_note(rendered_default: bool, decided: &Bundle) -> Option<String> {
    let package = &decided.package;
    let default = package.default_channel.as_ref()?;
    if package.channels.len() < 2 || rendered_default {
        return None;
    }
    let names: Vec<&str> = package.channels.iter().map(|c| c.name.as_str()).collect();
    Some(format!(
        "the package now has channels {}; defaultChannel is {default} (set defaultChannel in the package template to choose another)",
        names.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decision::{Decision, ReadFrom};
    use crate::testing::{bundle, csv};

    fn stable() -> Vec<String> {
        vec!["stable".into()]
    }

    #[test]
    fn no_release_is_a_first_release_naming_where() {
        let rendered = bundle(&[("stable", "op.v0.1.0")], vec![csv("0.1.0", None)]);
        let d = decide_from_registry(
            rendered,
            &stable(),
            "quay.io ns/op",
            None,
            OlderPolicy::Refuse,
        )
        .unwrap();
        assert_eq!(
            d.decision,
            Decision::First {
                reason: "quay.io ns/op has no releases yet".into()
            }
        );
    }

    #[test]
    fn the_highest_release_is_decided_against() {
        let rendered = bundle(&[("stable", "op.v0.2.0")], vec![csv("0.2.0", None)]);
        let previous = bundle(&[("stable", "op.v0.1.0")], vec![csv("0.1.0", None)]);
        let published = Published {
            bundle: previous,
            release: "0.1.0",
            releases: vec!["0.1.0"],
            from: ReadFrom::Registry,
        };
        let d = decide_from_registry(
            rendered,
            &stable(),
            "at",
            Some(published),
            OlderPolicy::Refuse,
        )
        .unwrap();
        assert_eq!(
            d.decision,
            Decision::Replaces {
                head: "op.v0.1.0".into(),
                head_release: "0.1.0".into()
            }
        );
        assert_eq!(d.bundle.csvs.len(), 2);
        assert_eq!(d.bundle.csvs[0].replaces(), Some("op.v0.1.0"));
    }

    #[test]
    fn a_kept_default_channel_is_noted_unless_the_template_chose_it() {
        let mut b = bundle(
            &[("stable", "op.v0.2.0"), ("fast", "op.v0.2.0")],
            vec![csv("0.2.0", None)],
        );
        assert_eq!(default_channel_note(false, &b), None);
        b.package.default_channel = Some("stable".into());
        let note = default_channel_note(false, &b).unwrap();
        assert!(
            note.starts_with("the package now has channels stable, fast; defaultChannel is stable")
        );
        assert_eq!(default_channel_note(true, &b), None);
        b.package.channels.pop();
        assert_eq!(default_channel_note(false, &b), None);
    }
}
