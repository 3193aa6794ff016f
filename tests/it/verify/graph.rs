//! The upgrade graph on a long cumulative bundle (the shape KubeVirt's bundles grew into): a
//! chain of 100 CSVs is valid; one broken link or one loop is reported once, where it is.

use olm_release::olm::validate::{self, Options};
use olm_release::olm::{Bundle, archive, csv_file_name};
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
