//! The verify stage in the sample pipeline: the rendered bundle passes both tools, and an
//! invalid bundle stops the run before push and release, naming the finding.

use olm_release_olm::validate::Profile;

use super::{assert_valid_for_both, ours};
use crate::support::{Work, assert_code, list_files, stderr};

#[test]
fn an_invalid_bundle_is_never_pushed_or_released() {
    let w = Work::sample();
    let csv = w.path().join("fixtures/sample-operator/olm/bundle/sample-operator.vVERSION.clusterserviceversion.yaml.in");
    let text = std::fs::read_to_string(&csv).unwrap();
    // alm-examples stops being JSON: a comma goes missing.
    assert!(text.contains("\"kind\": \"Sample\","));
    std::fs::write(
        &csv,
        text.replace("\"kind\": \"Sample\",", "\"kind\": \"Sample\""),
    )
    .unwrap();
    let o = w.run(&["run", "pipelines/sample.yaml"], &[]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains("stage verify"), "{err}");
    assert!(
        err.contains("error[alm-examples]") && err.contains("metadata.annotations.alm-examples"),
        "{err}"
    );
    assert!(err.contains("nothing was pushed or released"), "{err}");
    assert!(!err.contains("==> push"), "{err}");
    assert!(list_files(&w.path().join("_out/registry")).is_empty());
    assert!(list_files(&w.path().join("_out/release")).is_empty());
}

#[test]
fn the_rendered_sample_bundle_passes_both_tools() {
    let w = Work::sample();
    for version in ["0.1.0", "0.2.0"] {
        let var = format!("VERSION={version}");
        let o = w.run(&["run", "pipelines/sample.yaml", "--var", &var], &[]);
        assert_code(&o, 0);
        let out = w.path().join("_out/sample-release");
        assert_valid_for_both(&out.join("bundle"));
        let tarball = out.join(format!("sample-operator-{version}.tar.gz"));
        let r = ours(&tarball, Profile::Appregistry2019, true);
        assert!(r.is_valid(), "{}", super::show(&r));
        assert!(r.digest.is_some() && r.gz_digest.is_some());
    }
    // The second release carries both CSVs, 0.2.0 replacing 0.1.0.
    let bundle = w.path().join("_out/sample-release/bundle");
    assert!(
        bundle
            .join("sample-operator.v0.1.0.clusterserviceversion.yaml")
            .is_file()
    );
}
