//! The upgrade edges of a release's entry in one channel: the CSV's own `replaces`, `skips` and
//! `skipRange` as its maintainer wrote them wherever they fit the channel, and the channel's head
//! where the CSV names no `replaces` (filling it is the tool's job, as `opm` users do by hand).
//!
//! In a channel that has entries, with `R` the CSV's `spec.replaces`, `S` its `spec.skips` and
//! `H` the channel's head (operator-registry's rule, [`super::heads`]), which must be older:
//! - no `R`: the entry replaces `H`; `S` is kept but for `H`;
//! - `R` is `H`, or an entry of the channel while `S` holds `H`: the entry is the CSV's, as
//!   written (`opm render` writes the CSV's edges unchanged);
//! - `R` is not in the channel and `S` holds `H`: the release joins several channels, `R` is
//!   another channel's head and the CSV skips this one's (the decision's rule,
//!   [`crate::decision`]), so here the entry replaces `H` and leaves it out of its skips;
//! - otherwise `H` would be left behind, reached by nothing (`opm validate` calls it stranded):
//!   refused, naming `R` and `H` ([`CatalogError::ReplacesConflict`]), never rewritten silently.
//!
//! In a channel with no entries the entry is the CSV's as written (the tail of a channel may
//! replace a bundle the channel does not hold).

use super::AddBundle;
use crate::fbc::error::{CatalogError, OlderThanHead, StrandedHead};
use crate::fbc::head::{edges, heads};
use crate::fbc::model::{BundleDoc, Catalog, ChannelDoc, Entry};

/// The entry `req` asks for in `channel` (the channel as it is without the bundle's own entry).
pub(super) fn entry_in(
    catalog: &Catalog,
    channel: &ChannelDoc,
    req: &AddBundle,
    version: &semver::Version,
) -> Result<Entry, CatalogError> {
    let entry = |replaces: Option<&str>, drop: Option<&str>| Entry {
        name: req.name.clone(),
        replaces: replaces.map(str::to_string),
        skips: req
            .skips
            .iter()
            .filter(|s| Some(s.as_str()) != drop)
            .cloned()
            .collect(),
        skip_range: req.skip_range.clone(),
        ..Entry::default()
    };
    let Some(head) = head(catalog, channel, &req.name, version)? else {
        return Ok(entry(req.replaces.as_deref(), None));
    };
    let skips_head = req.skips.contains(&head);
    let conflict = |replaces: &str, why: String| {
        CatalogError::ReplacesConflict(Box::new(StrandedHead {
            package: channel.package.clone(),
            channel: channel.name.clone(),
            bundle: req.name.clone(),
            replaces: replaces.into(),
            head: head.clone(),
            why,
        }))
    };
    match req.replaces.as_deref() {
        None => Ok(entry(Some(&head), Some(&head))),
        Some(r) if r == head => Ok(entry(Some(r), None)),
        Some(r) if channel.entry(r).is_some() => {
            if skips_head {
                Ok(entry(Some(r), None))
            } else {
                Err(conflict(r, "which it neither replaces nor skips".into()))
            }
        }
        Some(r) => {
            if skips_head {
                Ok(entry(Some(&head), Some(&head)))
            } else {
                Err(conflict(
                    r,
                    format!("and the channel has no entry {r} (nor does the CSV skip {head})"),
                ))
            }
        }
    }
}

/// The head of `channel`, which must be older than `version`; `None` when it has no entries.
fn head(
    catalog: &Catalog,
    channel: &ChannelDoc,
    name: &str,
    version: &semver::Version,
) -> Result<Option<String>, CatalogError> {
    if channel.entries.is_empty() {
        return Ok(None);
    }
    let found = heads(channel);
    let [head] = found.as_slice() else {
        return Err(CatalogError::Heads {
            package: channel.package.clone(),
            channel: channel.name.clone(),
            heads: found.iter().map(|s| s.to_string()).collect(),
            edges: edges(channel),
        });
    };
    if let Some(head_version) = catalog
        .bundle(&channel.package, head)
        .and_then(BundleDoc::version)
        && head_version >= *version
    {
        return Err(CatalogError::OlderThanHead(Box::new(OlderThanHead {
            package: channel.package.clone(),
            channel: channel.name.clone(),
            bundle: name.into(),
            version: version.to_string(),
            head: head.to_string(),
            head_version: head_version.to_string(),
        })));
    }
    Ok(Some(head.to_string()))
}

#[cfg(test)]
mod tests {
    use crate::fbc::add::{AddBundle, DefaultChange, EntryChange, add};
    use crate::fbc::error::CatalogError;
    use crate::fbc::model::{Catalog, Icon};

    fn req(v: &str, replaces: Option<&str>, skips: &[&str], channels: &[&str]) -> AddBundle {
        AddBundle {
            package: "op".into(),
            name: format!("op.v{v}"),
            version: v.into(),
            image: format!("quay.io/op/b@sha256:{}", "a".repeat(64)),
            channels: channels.iter().map(|c| c.to_string()).collect(),
            replaces: replaces.map(str::to_string),
            skips: skips.iter().map(|s| s.to_string()).collect(),
            ..AddBundle::default()
        }
    }

    /// 0.1.0 → 0.2.0 on stable.
    fn two() -> Catalog {
        let mut c = Catalog::default();
        add(&mut c, &req("0.1.0", None, &[], &["stable"])).unwrap();
        add(&mut c, &req("0.2.0", None, &[], &["stable"])).unwrap();
        c
    }

    fn entry(c: &Catalog, ch: &str, name: &str) -> crate::fbc::model::Entry {
        c.channel("op", ch).unwrap().entry(name).unwrap().clone()
    }

    #[test]
    fn the_csvs_own_replaces_and_skips_are_written_as_they_are() {
        let mut c = two();
        let r = req("0.3.0", Some("op.v0.1.0"), &["op.v0.2.0"], &["stable"]);
        add(&mut c, &r).unwrap();
        let e = entry(&c, "stable", "op.v0.3.0");
        assert_eq!(e.replaces.as_deref(), Some("op.v0.1.0"), "not the head");
        assert_eq!(e.skips, ["op.v0.2.0"], "the skipped head is kept");
        assert!(crate::fbc::validate(&c).is_empty());
        // A rerun is a no-op.
        assert!(add(&mut c, &r).unwrap().is_noop());
        // Replacing the head and skipping it too: both kept, as opm renders the CSV.
        let mut c = two();
        add(
            &mut c,
            &req("0.3.0", Some("op.v0.2.0"), &["op.v0.2.0"], &["stable"]),
        )
        .unwrap();
        assert_eq!(entry(&c, "stable", "op.v0.3.0").skips, ["op.v0.2.0"]);
    }

    #[test]
    fn an_own_replaces_that_strands_the_head_is_refused_naming_both() {
        let mut c = two();
        let before = c.clone();
        let err = add(&mut c, &req("0.3.0", Some("op.v0.1.0"), &[], &["stable"])).unwrap_err();
        assert!(matches!(err, CatalogError::ReplacesConflict(_)));
        assert_eq!(
            err.to_string(),
            "op.v0.3.0 replaces op.v0.1.0 (its spec.replaces), but the head of channel stable of package op is op.v0.2.0, which it neither replaces nor skips: publishing it would strand op.v0.2.0. Replace op.v0.2.0 instead, or add it to spec.skips"
        );
        let err = add(&mut c, &req("0.3.0", Some("op.v0.0.1"), &[], &["stable"])).unwrap_err();
        assert!(
            err.to_string()
                .contains("and the channel has no entry op.v0.0.1"),
            "{err}"
        );
        assert_eq!(c, before, "nothing changed");
    }

    #[test]
    fn several_channels_replace_each_head_the_csv_skips() {
        // stable: 0.1.0 → 0.2.0; fast: 0.2.5. The decision made 0.3.0 replace 0.2.0 (stable's
        // head) and skip 0.2.5 (fast's).
        let mut c = two();
        add(&mut c, &req("0.2.5", None, &[], &["fast"])).unwrap();
        let r = req(
            "0.3.0",
            Some("op.v0.2.0"),
            &["op.v0.2.5"],
            &["stable", "fast", "new"],
        );
        let out = add(&mut c, &r).unwrap();
        let replaces = |r: &str| Some(r.to_string());
        assert_eq!(
            out.channels,
            [
                (
                    "stable".into(),
                    EntryChange::Added {
                        replaces: replaces("op.v0.2.0")
                    }
                ),
                (
                    "fast".into(),
                    EntryChange::Added {
                        replaces: replaces("op.v0.2.5")
                    }
                ),
                (
                    "new".into(),
                    EntryChange::ChannelCreated {
                        replaces: replaces("op.v0.2.0")
                    }
                ),
            ]
        );
        assert_eq!(entry(&c, "stable", "op.v0.3.0").skips, ["op.v0.2.5"]);
        assert!(entry(&c, "fast", "op.v0.3.0").skips.is_empty());
        assert!(
            crate::fbc::validate(&c).is_empty(),
            "{:?}",
            crate::fbc::validate(&c)
        );
        assert!(
            add(&mut c, &r).unwrap().is_noop(),
            "a rerun finds the same edges"
        );
    }

    #[test]
    fn a_first_entry_writes_the_package_with_icon_description_and_the_named_default() {
        let mut c = Catalog::default();
        let icon = Icon {
            base64data: "iVBORw0KGgo=".into(),
            mediatype: "image/png".into(),
        };
        let mut r = req("0.1.0", None, &[], &["alpha", "stable"]);
        r.icon = Some(icon.clone());
        r.description = Some("Runs things.".into());
        r.default_channel = Some("stable".into());
        add(&mut c, &r).unwrap();
        let p = c.package("op").unwrap();
        assert_eq!(
            p.default_channel.as_deref(),
            Some("stable"),
            "the pipeline's, not the first channel"
        );
        assert_eq!(p.icon.as_ref(), Some(&icon));
        assert_eq!(p.description.as_deref(), Some("Runs things."));
        // A later release leaves the package's icon alone, and a named default wins over the
        // catalog's.
        let mut next = req("0.2.0", None, &[], &["alpha"]);
        next.default_channel = Some("alpha".into());
        next.icon = None;
        let out = add(&mut c, &next).unwrap();
        assert!(
            matches!(out.default_channel, DefaultChange::Set { from: Some(ref f), ref to, .. } if f == "stable" && to == "alpha")
        );
        assert_eq!(c.package("op").unwrap().icon.as_ref(), Some(&icon));
    }
}
