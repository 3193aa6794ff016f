//! Taking a CSV that a concurrently published release introduced into a cumulative bundle: the
//! CSV goes into the channel's `replaces` chain at its SemVer place (it replaces the highest
//! lower CSV, and the lowest higher CSV now replaces it, or it becomes the head), and the
//! release's CRDs of other names come with it. This is what a sequential publication would
//! have produced, so the bundle again carries one chain per channel, ordered by SemVer.

use crate::{Bundle, Manifest};

/// The CSV names of `channel`'s chain in `bundle`, head first (stops at a missing CSV or a
/// cycle).
pub fn chain(bundle: &Bundle, channel: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut next = bundle
        .package
        .channel(channel)
        .map(|c| c.current_csv.clone());
    while let Some(name) = next {
        if out.contains(&name) {
            break;
        }
        next = bundle
            .csv(&name)
            .and_then(Manifest::replaces)
            .map(str::to_string);
        out.push(name);
    }
    out
}

/// Inserts `csv` into `channel` of `bundle` at its SemVer place, with the CRDs of `crds` that
/// the bundle lacks. `false` (and nothing changed) when the CSV has no name or SemVer version,
/// or the bundle already has a CSV of that name.
pub fn splice(bundle: &mut Bundle, channel: &str, mut csv: Manifest, crds: &[Manifest]) -> bool {
    let (Some(name), Some(version)) = (csv.name().map(str::to_string), csv.semver()) else {
        return false;
    };
    if bundle.csv(&name).is_some() {
        return false;
    }
    let chain = chain(bundle, channel);
    let below = |n: &String| {
        bundle
            .csv(n)
            .and_then(Manifest::semver)
            .is_some_and(|v| v < version)
    };
    // The chain runs from the highest version down: the first lower CSV is what the new one
    // replaces, and the CSV just before it (if any) now replaces the new one.
    let lower = chain.iter().position(below);
    let upper = match lower {
        Some(0) => None,
        Some(i) => Some(chain[i - 1].clone()),
        None => chain.last().cloned(),
    };
    csv.set_replaces(lower.map(|i| chain[i].as_str()));
    match upper {
        Some(u) => {
            if let Some(c) = bundle
                .csvs
                .iter_mut()
                .find(|c| c.name() == Some(u.as_str()))
            {
                c.set_replaces(Some(&name));
            }
        }
        None => bundle.package.set_head(channel, &name),
    }
    bundle.csvs.push(csv);
    for crd in crds {
        if !bundle.crds.iter().any(|c| c.name() == crd.name()) {
            bundle.crds.push(crd.clone());
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::csv;

    /// A bundle whose channel alpha is headed by `head`.
    fn bundle(head: &str, csvs: Vec<Manifest>) -> Bundle {
        crate::testing::bundle(&[("alpha", head)], csvs)
    }

    #[test]
    fn a_csv_goes_into_the_chain_at_its_semver_place() {
        // 0.4.0 → 0.3.0 → 0.1.0, and 0.2.0 (which replaced 0.1.0 in its own release) lands.
        let mut b = bundle(
            "op.v0.4.0",
            vec![
                csv("0.4.0", Some("op.v0.3.0")),
                csv("0.3.0", Some("op.v0.1.0")),
                csv("0.1.0", None),
            ],
        );
        assert!(splice(
            &mut b,
            "alpha",
            csv("0.2.0", Some("op.v0.1.0")),
            &[]
        ));
        assert_eq!(
            chain(&b, "alpha"),
            ["op.v0.4.0", "op.v0.3.0", "op.v0.2.0", "op.v0.1.0"]
        );
        // Above the head it becomes the head; below the tail it becomes the tail.
        assert!(splice(
            &mut b,
            "alpha",
            csv("0.5.0", Some("op.v0.1.0")),
            &[]
        ));
        assert!(splice(
            &mut b,
            "alpha",
            csv("0.0.1", Some("op.v0.0.0")),
            &[]
        ));
        assert_eq!(
            chain(&b, "alpha"),
            [
                "op.v0.5.0",
                "op.v0.4.0",
                "op.v0.3.0",
                "op.v0.2.0",
                "op.v0.1.0",
                "op.v0.0.1"
            ]
        );
        assert_eq!(b.csv("op.v0.0.1").unwrap().replaces(), None);
        // A CSV the bundle has is left alone.
        assert!(!splice(&mut b, "alpha", csv("0.2.0", None), &[]));
        assert_eq!(b.csvs.len(), 6);
    }
}
