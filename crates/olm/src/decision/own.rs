//! A CSV's own upgrade edges in the decision: a maintainer who writes `spec.replaces` (and
//! `spec.skips`) chose them, and the release keeps them where they fit the published heads;
//! where they would leave a channel's head behind the release stops, naming both
//! ([`DecisionError::ReplacesConflict`]). Filling a missing `replaces` from the head stays the
//! decision's job ([`super::decide`]).

use super::DecisionError;
use super::decide::{Head, skips_of};
use crate::{Bundle, Manifest};

/// The channel whose head the CSV's own `replaces` (`own`) names, when it names one; the
/// maintainer's edges are theirs, so it is kept (`None`: it names none, and the tool fills it
/// with the first channel's head). An own `replaces` that names no head of the release's
/// channels must name a CSV published before (the app registry's bundle carries them all; a
/// catalog's skeleton only its heads, and the catalog step checks the channel) and skip every
/// channel's head; otherwise a head would be left behind, and the release stops naming both.
pub(super) fn own_edges<'h>(
    csv: &Manifest,
    own: Option<&str>,
    above: &[&'h Head],
    previous: &Bundle,
    registry: bool,
) -> Result<Option<&'h Head>, DecisionError> {
    let Some(own) = own else { return Ok(None) };
    if let Some(h) = above.iter().find(|h| h.name == own) {
        return Ok(Some(h));
    }
    let skips = skips_of(csv);
    let name = csv_name_of(csv);
    if registry && previous.csv(own).is_none() {
        return Err(DecisionError::ReplacesConflict {
            csv: name,
            replaces: own.to_string(),
            channel: above[0].channel.clone(),
            head: above[0].name.clone(),
            why: format!("and the published package has no CSV {own}"),
        });
    }
    if let Some(h) = above.iter().find(|h| !skips.contains(&h.name)) {
        return Err(DecisionError::ReplacesConflict {
            csv: name,
            replaces: own.to_string(),
            channel: h.channel.clone(),
            head: h.name.clone(),
            why: "which it neither replaces nor skips".into(),
        });
    }
    Ok(Some(above[0]))
}

fn csv_name_of(csv: &Manifest) -> String {
    csv.name().unwrap_or("the new CSV").to_string()
}

#[cfg(test)]
mod tests {
    use crate::decision::{
        Decision, DecisionError, OlderPolicy, Published, ReadFrom, decide, skips_of,
    };
    use crate::testing::{bundle, csv};
    use crate::{Bundle, Manifest};

    fn with_skips(mut m: Manifest, skips: &[&str]) -> Manifest {
        let list = skips
            .iter()
            .map(|s| serde_yaml_ng::Value::from(*s))
            .collect();
        m.doc["spec"]["skips"] = serde_yaml_ng::Value::Sequence(list);
        m
    }

    /// 0.1.0 → 0.2.0 on stable, as the app registry's highest release carries them.
    fn published() -> Bundle {
        bundle(
            &[("stable", "op.v0.2.0")],
            vec![csv("0.2.0", Some("op.v0.1.0")), csv("0.1.0", None)],
        )
    }

    fn run(
        new: Manifest,
        previous: Bundle,
        from: ReadFrom<'_>,
    ) -> Result<crate::decision::Decided, DecisionError> {
        let rendered = bundle(&[("stable", "op.v0.3.0")], vec![new]);
        let published = Published {
            bundle: previous,
            release: "0.2.0",
            releases: vec!["0.2.0"],
            from,
        };
        decide(rendered, &["stable".into()], published, OlderPolicy::Refuse)
    }

    #[test]
    fn a_csvs_own_replaces_and_skips_are_kept_as_written() {
        let new = with_skips(csv("0.3.0", Some("op.v0.1.0")), &["op.v0.2.0"]);
        for from in [ReadFrom::Registry, ReadFrom::Catalog("catalog")] {
            let d = run(new.clone(), published(), from).unwrap();
            let csv = &d.bundle.csvs[0];
            assert_eq!(csv.replaces(), Some("op.v0.1.0"), "not the SemVer head");
            assert_eq!(skips_of(csv), ["op.v0.2.0"]);
            assert!(
                matches!(d.decision, Decision::Replaces { ref head, .. } if head == "op.v0.2.0")
            );
            assert!(
                d.notes
                    .iter()
                    .any(|n| n.contains("keeps its own spec.replaces op.v0.1.0")),
                "{:?}",
                d.notes
            );
        }
        // Naming the head is the same as naming none.
        let d = run(
            csv("0.3.0", Some("op.v0.2.0")),
            published(),
            ReadFrom::Registry,
        )
        .unwrap();
        assert_eq!(d.bundle.csvs[0].replaces(), Some("op.v0.2.0"));
        let d = run(csv("0.3.0", None), published(), ReadFrom::Registry).unwrap();
        assert_eq!(
            d.bundle.csvs[0].replaces(),
            Some("op.v0.2.0"),
            "filled from the head"
        );
    }

    #[test]
    fn an_own_replaces_that_would_strand_the_head_stops_naming_both() {
        let e = run(
            csv("0.3.0", Some("op.v0.1.0")),
            published(),
            ReadFrom::Registry,
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "op.v0.3.0 replaces op.v0.1.0 (its spec.replaces), but the head of channel stable is op.v0.2.0, which it neither replaces nor skips: publishing it would strand op.v0.2.0. Replace op.v0.2.0 instead, or add it to spec.skips"
        );
        let new = with_skips(csv("0.3.0", Some("op.v0.0.9")), &["op.v0.2.0"]);
        let e = run(new, published(), ReadFrom::Registry).unwrap_err();
        assert!(
            e.to_string()
                .contains("and the published package has no CSV op.v0.0.9"),
            "{e}"
        );
    }
}
