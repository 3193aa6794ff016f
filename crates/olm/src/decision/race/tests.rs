//! The merge rules for racing releases: reading the list after a push, and taking a lower
//! release in.

use super::*;
use crate::testing::{bundle, csv, package};
use crate::{Channel, Manifest, PackageManifest};

/// A listed release: its name and the digest of its content.
#[derive(Debug, Clone, PartialEq, Eq)]
struct R(&'static str, &'static str);

impl Listed for R {
    fn name(&self) -> &str {
        self.0
    }
}

fn v(s: &str) -> Version {
    Version::parse(s).unwrap()
}

#[test]
fn a_higher_release_landed_only_when_the_decision_did_not_see_it() {
    let seen = [R("0.2.0", "a"), R("0.1.0", "b")];
    let ours = ("0.3.0", &v("0.3.0"));
    // 0.4.0 landed while this job ran.
    let now = [R("0.4.0", "c"), R("0.3.0", "d"), R("0.2.0", "a")];
    assert_eq!(read(&now, &seen, ours, &[]), Some(Reading::Above(&now[0])));
    // 0.4.0 was there when the job decided: it decided with it.
    let seen_top = [R("0.4.0", "c")];
    assert_eq!(read(&now, &seen_top, ours, &[]), Some(Reading::Seen));
    // Re-pushed with other content, it landed anew.
    let repushed = [R("0.4.0", "e")];
    assert_eq!(
        read(&now, &repushed, ours, &[]),
        Some(Reading::Above(&now[0]))
    );
    assert_eq!(read::<R>(&[], &seen, ours, &[]), None);
}

#[test]
fn ours_highest_lists_the_lower_releases_it_does_not_carry() {
    let now = [
        R("0.3.0", "d"),
        R("0.2.1", "x"),
        R("0.2.0", "a"),
        R("latest", "y"),
        R("0.1.0", "b"),
    ];
    let carried = [v("0.3.0"), v("0.2.0")];
    let reading = read(&now, &[], ("0.3.0", &v("0.3.0")), &carried).unwrap();
    assert_eq!(
        reading,
        Reading::Highest {
            candidates: vec![&now[1], &now[4]],
            base: Some(&now[1]),
        }
    );
    assert!(landed(&now[1], &now[2..], "0.3.0"));
    assert!(!landed(&now[2], &now[2..], "0.3.0"));
    assert!(!landed(&now[0], &[], "0.3.0"));
}

#[test]
fn lower_releases_come_lowest_first_without_the_base() {
    let now = [
        R("0.4.0", "z"),
        R("0.3.0", "d"),
        R("0.2.1", "x"),
        R("latest", "y"),
        R("0.2.0", "a"),
    ];
    let below = lower_releases(&now, &now[2], ("0.3.0", &v("0.3.0")));
    assert_eq!(below, [&now[4], &now[3]]);
}

#[test]
fn a_higher_release_takes_in_a_channel_add_only_with_its_channels() {
    let text =
        "kind: ClusterServiceVersion\nmetadata:\n  name: op.v0.2.0\nspec:\n  version: 0.2.0\n";
    let top = |channels: &[&str]| Bundle {
        package: PackageManifest {
            package_name: "op".into(),
            channels: channels
                .iter()
                .map(|c| Channel {
                    name: (*c).into(),
                    current_csv: "op.v0.2.0".into(),
                })
                .collect(),
            default_channel: None,
        },
        csvs: vec![Manifest::new(
            "c.yaml".to_string(),
            serde_yaml_ng::from_str(text).unwrap(),
        )],
        crds: Vec::new(),
    };
    let add = Decision::AddChannels {
        release: "0.2.1-0.1".into(),
        channels: vec!["fast".into()],
        base_release: "0.2.0".into(),
    };
    assert!(!takes_in(&top(&["stable"]), "op.v0.2.0", Some(&add)));
    assert!(takes_in(&top(&["stable", "fast"]), "op.v0.2.0", Some(&add)));
    assert!(!takes_in(
        &top(&["stable", "fast"]),
        "op.v0.3.0",
        Some(&add)
    ));
    // Any other decision: carrying the CSV is enough, as before.
    assert!(takes_in(&top(&["stable"]), "op.v0.2.0", None));
}

#[test]
fn a_lower_release_that_added_a_channel_is_missing_until_ours_has_it() {
    let stable = ["stable".to_string()];
    // Release 0.2.1-0.1 added 0.2.0 to fast; ours (0.3.0) was built on 0.2.0 without fast.
    let added = bundle(
        &[("stable", "op.v0.2.0"), ("fast", "op.v0.2.0")],
        vec![csv("0.2.0", None), csv("0.1.0", None)],
    );
    let carried = [v("0.3.0"), v("0.2.0"), v("0.1.0")];
    let ours = package(&[("stable", "op.v0.3.0")]);
    let release = Some(v("0.2.1-0.1"));
    assert!(is_missing(
        &added,
        release.clone(),
        &stable,
        &ours,
        &carried
    ));
    // Once ours has fast, it is carried.
    let merged = package(&[("stable", "op.v0.3.0"), ("fast", "op.v0.3.0")]);
    assert!(!is_missing(
        &added,
        release.clone(),
        &stable,
        &merged,
        &carried
    ));
    // A channel whose head ours does not carry is not ours to take in.
    assert!(!is_missing(&added, release, &stable, &ours, &[v("0.3.0")]));
    // The old rule stands: a release whose CSV heads the pipeline's channel.
    let plain = bundle(&[("stable", "op.v0.2.0")], vec![csv("0.2.0", None)]);
    assert!(is_missing(&plain, Some(v("0.2.0")), &stable, &ours, &[]));
}

#[test]
fn a_lower_release_heading_only_a_second_channel_is_missing() {
    // Release 0.2.1 went to fast only; ours (0.3.0, on stable and fast) was built on 0.2.0.
    let fast_only = bundle(
        &[("stable", "op.v0.2.0"), ("fast", "op.v0.2.1")],
        vec![csv("0.2.1", None), csv("0.2.0", None)],
    );
    let ours = package(&[("stable", "op.v0.3.0"), ("fast", "op.v0.3.0")]);
    let carried = [v("0.3.0"), v("0.2.0")];
    let both = ["stable".to_string(), "fast".to_string()];
    assert!(is_missing(
        &fast_only,
        Some(v("0.2.1")),
        &both,
        &ours,
        &carried
    ));
    // A pipeline on stable alone has nothing to chain there.
    let stable = ["stable".to_string()];
    assert!(!is_missing(
        &fast_only,
        Some(v("0.2.1")),
        &stable,
        &ours,
        &carried
    ));
}

#[test]
fn taking_in_a_lower_release_splices_its_csv_and_adds_its_channels() {
    // Ours: 0.3.0 → 0.1.0 on stable; 0.2.0 landed concurrently, on stable, and added 0.1.0
    // to fast.
    let mut ours = bundle(
        &[("stable", "op.v0.3.0")],
        vec![csv("0.3.0", Some("op.v0.1.0")), csv("0.1.0", None)],
    );
    let other = bundle(
        &[("stable", "op.v0.2.0"), ("fast", "op.v0.1.0")],
        vec![csv("0.2.0", Some("op.v0.1.0")), csv("0.1.0", None)],
    );
    let version = v("0.2.0");
    assert!(!carries(&ours, Some(&version)));
    let taken = take_in(&mut ours, "stable", &other, Some(&version));
    assert_eq!(
        taken,
        TakenIn {
            channels: vec!["fast".into()],
            csv: true
        }
    );
    assert!(carries(&ours, Some(&version)));
    assert_eq!(
        super::super::chain(&ours, "stable"),
        ["op.v0.3.0", "op.v0.2.0", "op.v0.1.0"]
    );
    assert_eq!(carried(&ours), [v("0.3.0"), v("0.1.0"), v("0.2.0")]);
    // A release whose head is another version than its name takes in nothing of its CSV.
    let mut again = bundle(&[("stable", "op.v0.3.0")], vec![csv("0.3.0", None)]);
    let taken = take_in(&mut again, "stable", &other, Some(&v("0.2.5")));
    assert!(!taken.csv);
}
