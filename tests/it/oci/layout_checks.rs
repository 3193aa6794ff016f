//! An `oci:` layout is checked before the pipeline trusts it: a rerun on a layout whose blob
//! went missing fails naming the blob and writes no catalog entry. The layout's own checks are
//! the OCI crate's tests (crates/oci/tests/it/layout_checks.rs).

use crate::support::{Work, assert_code, stderr};

/// The pipeline: a layout whose layer went missing after the first release is not reported
/// "unchanged" on a rerun, and no catalog entry is written for it.
#[test]
fn a_rerun_on_a_broken_layout_fails_naming_the_blob() {
    let work = Work::sample();
    let epoch = ("SOURCE_DATE_EPOCH", "1570449600");
    let out = work.run(&["run", "pipelines/sample-catalog.yaml"], &[epoch]);
    assert_code(&out, 0);
    let layout = work
        .path()
        .join("_out/catalog-only/oci/sample-operator-bundle");
    let catalog = work.path().join("_out/catalog-only/catalog");
    std::fs::remove_dir_all(&catalog).unwrap();
    let blobs: Vec<_> = std::fs::read_dir(layout.join("blobs/sha256"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let biggest = blobs
        .iter()
        .max_by_key(|p| std::fs::metadata(p).unwrap().len())
        .unwrap();
    std::fs::remove_file(biggest).unwrap();
    let out = work.run(&["run", "pipelines/sample-catalog.yaml"], &[epoch]);
    assert_code(&out, 1);
    let err = stderr(&out);
    let hex = biggest.file_name().unwrap().to_string_lossy();
    assert!(
        err.contains(&format!("blob sha256:{hex} is missing")),
        "{err}"
    );
    assert!(!catalog.exists(), "no catalog entry for a broken image");
}
