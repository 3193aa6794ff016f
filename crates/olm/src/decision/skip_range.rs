//! A stale `olm.skipRange`: the CSV annotation that lets OLM upgrade straight from every
//! version it covers (<https://olm.operatorframework.io/docs/concepts/olm-architecture/operator-catalog/creating-an-update-graph/#skiprange>),
//! conventionally `>=FIRST <THIS` for the release `THIS`. A range copied from the last release
//! and never raised ends below the version being released, and then no longer covers the
//! version this release replaces: the channel head's users are offered nothing by it. Both are
//! warnings, never errors (a project may mean it).
//!
//! Ranges are read as OLM reads them (blang/semver's range syntax): comparators
//! (`>=`, `>`, `<=`, `<`, `=`, `!=`, none meaning `=`) joined by blanks (AND) and `||` (OR).

use semver::Version;

use crate::Manifest;

/// One comparator of a range.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Comparator {
    op: &'static str,
    version: Version,
}

impl Comparator {
    fn holds(&self, v: &Version) -> bool {
        // Pre-releases compare as SemVer orders them.
        match self.op {
            ">=" => v >= &self.version,
            ">" => v > &self.version,
            "<=" => v <= &self.version,
            "<" => v < &self.version,
            "!=" => v != &self.version,
            _ => v == &self.version,
        }
    }
}

/// The range's alternatives (`||`), each a list of comparators; None when it does not parse.
fn parse(range: &str) -> Option<Vec<Vec<Comparator>>> {
    let mut out = Vec::new();
    for alt in range.split("||") {
        let mut all = Vec::new();
        let mut words = alt.split_whitespace().peekable();
        while let Some(w) = words.next() {
            let op = [">=", "<=", "!=", ">", "<", "=="]
                .into_iter()
                .chain(std::iter::once("="))
                .find(|op| w.starts_with(op))
                .unwrap_or("");
            // `>= 1.0.0`: the version in the next word.
            let rest = match &w[op.len()..] {
                "" => words.next()?,
                r => r,
            };
            let version = Version::parse(rest.trim_start_matches('v')).ok()?;
            let op = match op {
                "" | "==" => "=",
                o => o,
            };
            all.push(Comparator { op, version });
        }
        if all.is_empty() {
            return None;
        }
        out.push(all);
    }
    Some(out)
}

fn covers(range: &[Vec<Comparator>], v: &Version) -> bool {
    range.iter().any(|alt| alt.iter().all(|c| c.holds(v)))
}

/// The highest upper bound of the range (`<` or `<=`), if every alternative has one.
fn upper_bound(range: &[Vec<Comparator>]) -> Option<&Version> {
    let mut highest: Option<&Version> = None;
    for alt in range {
        let bound = alt
            .iter()
            .filter(|c| c.op == "<" || c.op == "<=")
            .map(|c| &c.version)
            .min()?;
        highest = Some(highest.map_or(bound, |h| h.max(bound)));
    }
    highest
}

/// The warning for `csv`'s `olm.skipRange`, if it is stale: its upper bound below the CSV's
/// own version, or (with `replaced`, the version this release replaces) not covering the
/// version it replaces. None without a skipRange, or when it cannot be read (the validators
/// say so).
pub fn stale_skip_range(csv: &Manifest, replaced: Option<&Version>) -> Option<String> {
    let range = csv
        .doc
        .get("metadata")?
        .get("annotations")?
        .get("olm.skipRange")?
        .as_str()?;
    let this = csv.semver()?;
    let parsed = parse(range)?;
    let name = csv.name().unwrap_or("the CSV");
    let fix = format!("set its upper bound to <{this}");
    if let Some(upper) = upper_bound(&parsed)
        && upper < &this
    {
        return Some(format!(
            "{name}: olm.skipRange '{range}' ends at {upper}, below this version {this}: probably carried from an earlier release ({fix})"
        ));
    }
    match replaced {
        Some(r) if r < &this && !covers(&parsed, r) => Some(format!(
            "{name}: olm.skipRange '{range}' does not cover {r}, the version this release replaces: OLM offers that version's users no skip ({fix})"
        )),
        _ => None,
    }
}

/// The warning for `csv`'s `olm.skipRange` once a catalog decided that it replaces `head` (a
/// CSV name ending in `.vVERSION`): the range's end was checked at render, so only whether it
/// covers the replaced head's version is new here. None when the range was already stale
/// without it (render said so), or covers it.
pub fn stale_for_replaced(csv: &Manifest, head: &str) -> Option<String> {
    let head_version = head
        .rsplit_once(".v")
        .and_then(|(_, v)| Version::parse(v).ok());
    if stale_skip_range(csv, None).is_some() {
        return None;
    }
    stale_skip_range(csv, head_version.as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn csv(version: &str, range: &str) -> Manifest {
        let text = format!(
            "kind: ClusterServiceVersion\nmetadata:\n  name: op.v{version}\n  annotations:\n    olm.skipRange: '{range}'\nspec:\n  version: {version}\n"
        );
        Manifest::new("csv.yaml", serde_yaml_ng::from_str(&text).unwrap())
    }

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }

    #[test]
    fn a_range_ending_below_this_version_is_stale() {
        let w = stale_skip_range(&csv("1.5.0", ">=1.0.0 <1.4.0"), None).unwrap();
        assert!(w.contains("ends at 1.4.0, below this version 1.5.0"), "{w}");
        assert!(w.contains("set its upper bound to <1.5.0"), "{w}");
        assert_eq!(
            stale_skip_range(&csv("1.5.0", ">=1.0.0 <1.5.0"), None),
            None
        );
        assert_eq!(
            stale_skip_range(&csv("1.5.0", ">= 1.0.0 < 1.5.0"), None),
            None
        );
        assert_eq!(
            stale_skip_range(&csv("1.5.0", ">=1.0.0 <1.2.0 || >=1.3.0 <1.6.0"), None),
            None,
            "one alternative reaches past it"
        );
    }

    #[test]
    fn a_range_not_covering_the_replaced_version_is_stale() {
        let c = csv("1.5.0", ">=1.0.0 <1.4.0 || >=1.4.5 <1.5.0");
        let w = stale_skip_range(&c, Some(&v("1.4.2"))).unwrap();
        assert!(w.contains("does not cover 1.4.2"), "{w}");
        assert_eq!(stale_skip_range(&c, Some(&v("1.4.7"))), None);
        assert_eq!(stale_skip_range(&csv("1.5.0", "not a range"), None), None);
    }

    #[test]
    fn after_a_catalog_decision_only_the_replaced_head_is_new() {
        // Covers the head 1.4.0: nothing to say.
        assert_eq!(
            stale_for_replaced(&csv("1.5.0", ">=1.0.0 <1.5.0"), "op.v1.4.0"),
            None
        );
        // Leaves the head 1.4.2 out: the warning names it.
        let w = stale_for_replaced(
            &csv("1.5.0", ">=1.0.0 <1.4.0 || >=1.4.5 <1.5.0"),
            "op.v1.4.2",
        )
        .expect("a stale range");
        assert!(w.contains("1.4.2"), "{w}");
        // Already stale without the head: render warned, so nothing again.
        assert_eq!(
            stale_for_replaced(&csv("1.5.0", ">=1.0.0 <1.4.0"), "op.v1.4.2"),
            None
        );
    }
}
