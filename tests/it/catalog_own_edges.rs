//! The catalog as `opm` writes it, for the sample operator published the modern way offline
//! (`pipelines/sample-catalog.yaml`): the pipeline's `default_channel` is the package's
//! `defaultChannel` (not the first channel the release joins), a package's first entry writes
//! its `olm.package` document with the CSV's icon and description (`opm init --icon
//! --description`), and a CSV that names its own `replaces` and `skips` keeps them, in the image
//! and in the catalog entry, while one that would strand the channel head stops naming both.

use crate::support::{Work, assert_code, stderr};

const PIPELINE: &str = "pipelines/sample-catalog.yaml";
const EPOCH: (&str, &str) = ("SOURCE_DATE_EPOCH", "1570449600");
const CSV: &str =
    "fixtures/sample-operator/olm/bundle/sample-operator.vVERSION.clusterserviceversion.yaml.in";

fn run(work: &Work, pipeline: &str, version: &str) -> std::process::Output {
    let var = format!("VERSION={version}");
    work.run(&["run", pipeline, "--var", &var], &[EPOCH])
}

fn catalog(work: &Work) -> olm_release_olm::fbc::Catalog {
    olm_release_olm::fbc::disk::read(&work.path().join("_out/catalog-only/catalog"))
        .unwrap()
        .catalog
}

/// The CSV template with `edges` (YAML lines of `spec`) after `spec.version`.
fn csv_edges(work: &Work, edges: &str) {
    let path = work.path().join(CSV);
    let text = std::fs::read_to_string(&path).unwrap();
    let line = "  version: {{.CsvVersion}}\n";
    assert!(text.contains(line));
    let text = text.replacen(line, &format!("{line}{edges}"), 1);
    std::fs::write(path, text).unwrap();
}

#[test]
fn the_pipelines_default_channel_and_the_csvs_icon_and_description_make_the_package() {
    let work = Work::sample();
    let pipeline = work.path().join(PIPELINE);
    let text = std::fs::read_to_string(&pipeline).unwrap();
    let text = text.replace(
        "\nchannel: alpha\n",
        "\nchannels: [alpha, stable]\ndefault_channel: stable\n",
    );
    std::fs::write(&pipeline, text).unwrap();
    let o = run(&work, PIPELINE, "0.1.0");
    assert_code(&o, 0);
    let c = catalog(&work);
    let p = c.package("sample-operator").unwrap();
    assert_eq!(
        p.default_channel.as_deref(),
        Some("stable"),
        "the pipeline's default_channel, not the first channel"
    );
    assert!(
        p.description
            .as_deref()
            .is_some_and(|d| d.starts_with("The sample operator of olm-release's own fixtures.")),
        "{:?}",
        p.description
    );
    assert!(p.icon.is_some(), "the CSV's icon");
    let written = std::fs::read_to_string(
        work.path()
            .join("_out/catalog-only/catalog/sample-operator/catalog.yaml"),
    )
    .unwrap();
    assert!(written.contains("mediatype: image/png"), "{written}");
}

#[test]
fn a_csvs_own_replaces_and_skips_are_kept_and_a_stranded_head_stops_the_run() {
    let work = Work::sample();
    for v in ["0.1.0", "0.2.0"] {
        assert_code(&run(&work, PIPELINE, v), 0);
    }
    // 0.3.0 replaces 0.1.0 and skips 0.2.0, as its maintainer wrote.
    csv_edges(
        &work,
        "  replaces: sample-operator.v0.1.0\n  skips: [sample-operator.v0.2.0]\n",
    );
    let o = run(&work, PIPELINE, "0.3.0");
    assert_code(&o, 0);
    let c = catalog(&work);
    let e = c
        .channel("sample-operator", "alpha")
        .unwrap()
        .entry("sample-operator.v0.3.0")
        .unwrap()
        .clone();
    assert_eq!(e.replaces.as_deref(), Some("sample-operator.v0.1.0"));
    assert_eq!(e.skips, ["sample-operator.v0.2.0"]);
    assert!(olm_release_olm::fbc::validate(&c).is_empty());
    // A rerun writes nothing.
    let again = run(&work, PIPELINE, "0.3.0");
    assert_code(&again, 0);
    assert_eq!(catalog(&work), c);

    // 0.4.0 replaces 0.2.0 but not the head 0.3.0, nor skips it: a stop naming both.
    let path = work.path().join(CSV);
    let text = std::fs::read_to_string(&path).unwrap().replace(
        "  replaces: sample-operator.v0.1.0\n  skips: [sample-operator.v0.2.0]\n",
        "  replaces: sample-operator.v0.2.0\n",
    );
    std::fs::write(&path, text).unwrap();
    let o = run(&work, PIPELINE, "0.4.0");
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("sample-operator.v0.4.0 replaces sample-operator.v0.2.0 (its spec.replaces), but the head of channel alpha is sample-operator.v0.3.0"),
        "{err}"
    );
    assert_eq!(catalog(&work), c, "nothing written");
}
