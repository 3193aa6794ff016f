//! The upgrade graph on a long cumulative bundle (the shape KubeVirt's bundles grew into): a
//! chain of 100 CSVs is valid; one broken link or one loop is reported once, where it is.

use olm_release_olm::validate::{self, Options};
use olm_release_olm::{Bundle, archive, csv_file_name};
use serde_yaml_ng::Value;

use super::corpus_dir;

/// `widget-operator.v1.0.0` … `v1.99.0`, each replacing the one before.
fn chain(n: u64) -> Bundle {
    let mut b =
        archive::read_path(&corpus_dir().join("valid/single"), &Default::default()).unwrap();
    let template = b.csvs.remove(0);
    for i in 0..n {
        let name = format!("widget-operator.v1.{i}.0");
        let mut csv = template.clone();
        csv.doc["metadata"]["name"] = Value::from(name.as_str());
        csv.doc["spec"]["version"] = Value::from(format!("1.{i}.0"));
        let prev = (i > 0).then(|| format!("widget-operator.v1.{}.0", i - 1));
        csv.set_replaces(prev.as_deref());
        csv.file = csv_file_name(&name);
        b.csvs.push(csv);
    }
    b.package
        .set_head("alpha", &format!("widget-operator.v1.{}.0", n - 1));
    b
}

fn rules_of(b: &Bundle) -> Vec<(String, String)> {
    validate::validate_with(b, &Options::default())
        .into_iter()
        .map(|f| (f.rule, f.object))
        .collect()
}

#[test]
fn a_chain_of_a_hundred_csvs_is_valid() {
    assert_eq!(rules_of(&chain(100)), vec![]);
}

#[test]
fn a_broken_link_and_a_loop_are_reported_once_where_they_are() {
    let mut b = chain(100);
    b.csvs[50].set_replaces(Some("widget-operator.v0.9.0"));
    let found = rules_of(&b);
    assert!(
        found.contains(&("replaces-target".into(), "widget-operator.v1.50.0".into())),
        "{found:?}"
    );
    // v1.0.0 … v1.49.0 are now cut off from the head.
    let stranded = found.iter().filter(|(r, _)| r == "graph-stranded").count();
    assert_eq!(stranded, 50, "{found:?}");

    let mut b = chain(100);
    b.csvs[0].set_replaces(Some("widget-operator.v1.30.0"));
    let found = rules_of(&b);
    let cycles: Vec<_> = found.iter().filter(|(r, _)| r == "graph-cycle").collect();
    assert_eq!(cycles.len(), 1, "{found:?}");
}

#[test]
fn a_pruned_tail_is_a_warning_and_a_gap_an_error() {
    use olm_release_olm::Level;
    use olm_release_olm::validate::Profile;
    let judge = |b: &Bundle, profile| {
        validate::validate_with(b, &Options::new(profile))
            .into_iter()
            .filter(|f| f.rule.starts_with("replaces-"))
            .map(|f| (f.rule, f.level, f.mirrors, f.object))
            .collect::<Vec<_>>()
    };
    // The ten oldest releases pruned: v1.10.0, now the tail, still replaces v1.9.0.
    let mut b = chain(100);
    b.csvs.drain(..10);
    assert_eq!(
        judge(&b, Profile::Appregistry2019),
        vec![(
            "replaces-pruned".into(),
            Level::Warning,
            "registry".into(),
            "widget-operator.v1.10.0".into()
        )]
    );
    // opm permits it; olm-release still notes it.
    let modern = judge(&b, Profile::Modern);
    assert_eq!(modern.len(), 1, "{modern:?}");
    assert_eq!(
        (modern[0].1, modern[0].2.as_str()),
        (Level::Warning, "olm-release")
    );
    // A release missing from the middle cuts the older fifty off: an error in both profiles.
    let mut b = chain(100);
    b.csvs.remove(50);
    for profile in [Profile::Appregistry2019, Profile::Modern] {
        let found = judge(&b, profile);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            (found[0].0.as_str(), found[0].1, found[0].3.as_str()),
            ("replaces-target", Level::Error, "widget-operator.v1.51.0")
        );
    }
}
