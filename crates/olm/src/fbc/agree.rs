//! One release model, two sources of the channel head: when a pipeline publishes both to an
//! app registry and to a file-based catalog, the head each one names for the channel must be
//! the same, or the two upgrade graphs would fork. [`agree`] compares the app registry's
//! decision for the new CSV with the catalog's head of the channel ([`super::head`],
//! operator-registry's rule: the one entry nothing replaces or skips).
//!
//! A release that one side has and the other not yet is not a disagreement when it is this very
//! release: an earlier run that stopped between the push and the catalog write left the
//! registry one release ahead (its head is our CSV, the catalog's is what our CSV replaces), and
//! the reverse order leaves the catalog ahead. Both are completed by the run.

use super::error::CatalogError;
use super::head::head;
use super::model::Catalog;
use crate::Manifest;
use crate::decision::{Decision, edges};

/// How the app registry's decision and the catalog's head of the channel relate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Agreement {
    /// Both name `head` (`None`: nothing published on either side).
    Same {
        /// The head both name.
        head: Option<String>,
    },
    /// The release adds (or moves) the channel in the app registry, and the catalog lacks it,
    /// has it already, or heads it with a CSV the new one replaces or skips.
    Adds {
        /// The catalog's head of the channel.
        catalog_head: Option<String>,
    },
    /// One side already has this very release at the head, the other what it replaces.
    Ahead {
        /// The app registry is ahead (else the catalog is).
        registry: bool,
    },
    /// The heads differ: publishing would fork the upgrade graph.
    Differ {
        /// The head the app registry names (`None`: nothing published).
        registry_head: Option<String>,
        /// The release adds the channel in the app registry (whose head is then the new CSV).
        adds_channel: bool,
        /// The head the catalog names.
        catalog_head: Option<String>,
    },
}

/// How the app registry's `decision` for the new CSV `ours` and the head of `channel` of
/// `package` in `catalog` relate.
pub fn agree(
    catalog: &Catalog,
    package: &str,
    channel: &str,
    ours: &Manifest,
    decision: &Decision,
) -> Result<Agreement, CatalogError> {
    let ours_name = ours.name().unwrap_or_default().to_string();
    let from_registry: Option<String> = match decision {
        Decision::First { .. } => None,
        Decision::Replaces { head, .. } | Decision::SkipOlder { head } => Some(head.clone()),
        Decision::SameVersion { .. } => Some(ours_name.clone()),
        Decision::AddChannels { channels, .. } if !channels.iter().any(|c| c == channel) => {
            Some(ours_name.clone())
        }
        // The registry's channel is absent or headed by a CSV ours replaces or skips.
        Decision::AddChannels { .. } => None,
    };
    let from_catalog = head(catalog, package, channel)?;
    let catalog_head = from_catalog.as_ref().map(|h| h.name.clone());
    if let Decision::AddChannels { channels, .. } = decision
        && channels.iter().any(|c| c == channel)
    {
        let edges = edges(ours);
        let fine = catalog_head
            .as_ref()
            .is_none_or(|c| *c == ours_name || edges.contains(c));
        return Ok(if fine {
            Agreement::Adds { catalog_head }
        } else {
            Agreement::Differ {
                registry_head: Some(ours_name),
                adds_channel: true,
                catalog_head,
            }
        });
    }
    if from_registry == catalog_head {
        return Ok(Agreement::Same {
            head: from_registry,
        });
    }
    // The behind side's head is one our CSV replaces or skips (its own edges, kept as written).
    let ours_edges = edges(ours);
    let edge = |head: &Option<String>| head.as_ref().is_some_and(|h| ours_edges.contains(h));
    let registry_ahead = from_registry.as_deref() == Some(ours_name.as_str())
        && (catalog_head.as_deref() == ours.replaces() || edge(&catalog_head));
    let catalog_ahead = catalog_head.as_deref() == Some(ours_name.as_str())
        && (from_catalog.as_ref().and_then(|h| h.replaces.clone()) == from_registry
            || edge(&from_registry));
    Ok(if registry_ahead || catalog_ahead {
        Agreement::Ahead {
            registry: registry_ahead,
        }
    } else {
        Agreement::Differ {
            registry_head: from_registry,
            adds_channel: false,
            catalog_head,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fbc::{AddBundle, add};
    use crate::testing::csv;

    fn image(n: u8) -> String {
        format!("quay.io/op/bundle@sha256:{}", format!("{n:x}").repeat(64))
    }

    /// A catalog whose channel `alpha` holds `versions` in order, each replacing the one before.
    fn catalog(versions: &[&str]) -> Catalog {
        let mut c = Catalog::default();
        let mut before: Option<String> = None;
        for (i, v) in versions.iter().enumerate() {
            let m = csv(v, before.as_deref());
            let req =
                AddBundle::from_csv("op", &m, &[], &image(i as u8 + 1), &["alpha".to_string()])
                    .unwrap();
            add(&mut c, &req).unwrap();
            before = m.name().map(str::to_string);
        }
        c
    }

    fn replaces(head: &str) -> Decision {
        Decision::Replaces {
            head: head.into(),
            head_release: "0.1.0".into(),
        }
    }

    #[test]
    fn the_same_head_agrees() {
        let ours = csv("0.2.0", Some("op.v0.1.0"));
        let a = agree(
            &catalog(&["0.1.0"]),
            "op",
            "alpha",
            &ours,
            &replaces("op.v0.1.0"),
        );
        assert_eq!(
            a.unwrap(),
            Agreement::Same {
                head: Some("op.v0.1.0".into())
            }
        );
        let first = Decision::First {
            reason: "nothing".into(),
        };
        let a = agree(&Catalog::default(), "op", "alpha", &ours, &first).unwrap();
        assert_eq!(a, Agreement::Same { head: None });
    }

    #[test]
    fn another_head_differs() {
        let ours = csv("0.3.0", Some("op.v0.2.0"));
        let a = agree(
            &catalog(&["0.1.0"]),
            "op",
            "alpha",
            &ours,
            &replaces("op.v0.2.0"),
        );
        assert_eq!(
            a.unwrap(),
            Agreement::Differ {
                registry_head: Some("op.v0.2.0".into()),
                adds_channel: false,
                catalog_head: Some("op.v0.1.0".into()),
            }
        );
    }

    #[test]
    fn this_release_on_one_side_only_is_ahead_not_a_difference() {
        let ours = csv("0.2.0", Some("op.v0.1.0"));
        let same = Decision::SameVersion {
            release: "0.2.0".into(),
        };
        let a = agree(&catalog(&["0.1.0"]), "op", "alpha", &ours, &same).unwrap();
        assert_eq!(a, Agreement::Ahead { registry: true });
        let a = agree(
            &catalog(&["0.1.0", "0.2.0"]),
            "op",
            "alpha",
            &ours,
            &replaces("op.v0.1.0"),
        )
        .unwrap();
        assert_eq!(a, Agreement::Ahead { registry: false });
    }

    #[test]
    fn adding_the_channel_agrees_with_a_head_ours_replaces_and_not_with_another() {
        let ours = csv("0.2.0", Some("op.v0.1.0"));
        let adds = Decision::AddChannels {
            release: "0.2.1-0.1".into(),
            channels: vec!["alpha".into()],
            base_release: "0.2.0".into(),
        };
        let a = agree(&catalog(&["0.1.0"]), "op", "alpha", &ours, &adds).unwrap();
        assert_eq!(
            a,
            Agreement::Adds {
                catalog_head: Some("op.v0.1.0".into())
            }
        );
        let a = agree(&catalog(&["0.0.1"]), "op", "alpha", &ours, &adds).unwrap();
        assert!(
            matches!(
                a,
                Agreement::Differ {
                    adds_channel: true,
                    ..
                }
            ),
            "{a:?}"
        );
    }
}
