//! What a user meets: input errors that say what was expected, the settable limit, and the
//! The book's limits table (docs/src/limits.md) kept true to the code.

use olm_release_olm::archive::Limits;

use super::parse::flattened;
use super::{assert_input_error, stderr, tgz};
use crate::support;

#[test]
fn input_errors_say_what_was_expected() {
    let tmp = tempfile::tempdir().unwrap();
    let path = |name: &str, content: &[u8]| {
        let p = tmp.path().join(name);
        std::fs::write(&p, content).unwrap();
        p.to_str().unwrap().to_string()
    };
    let cases = [
        (
            path("zip.tar.gz", b"PK\x03\x04 a zip file"),
            "is not gzip data: expected a gzip-compressed tar (.tar.gz), which starts with the bytes 1f 8b; it starts with 50 4b 03 04",
        ),
        (
            path("list.yaml", b"- a\n- b\n"),
            "list.yaml: expected a flattened bundle: a YAML mapping with a top-level 'data' key, found a sequence",
        ),
        (path("scalar.yaml", b"just text\n"), "found a string"),
        (path("empty.yaml", b""), "found an empty document"),
        (
            path("binary.yaml", &[0xff, 0xfe, 0, 1]),
            "binary.yaml: not UTF-8 text",
        ),
        (
            path("bad.yaml", b"data: [\n"),
            "bad.yaml: did not find expected",
        ),
        (
            path(
                "truncated.tar.gz",
                &tgz(&[("pkg/bundle.yaml", b"data: {}\n")])[..20],
            ),
            "is not valid gzip data (truncated or corrupt)",
        ),
        (
            path("one-list.tar.gz", &tgz(&[("pkg/bundle.yaml", b"- x\n")])),
            "one-list.tar.gz: bundle.yaml: expected a flattened bundle",
        ),
        (
            tmp.path().join("missing").to_str().unwrap().to_string(),
            "missing: No such file",
        ),
    ];
    for (file, expected) in &cases {
        let o = support::olm_release(tmp.path(), &["verify", file], &[]);
        assert_input_error(&o, expected);
    }
    // A mapping without `data` is a readable file with a wrong inside: a finding (exit 1).
    let o = support::olm_release(
        tmp.path(),
        &["verify", &path("csv.yaml", b"kind: X\n")],
        &[],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
}

#[test]
fn the_size_limit_is_settable() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = support::root().join("fixtures/verify/valid/chain");
    let dir = dir.to_str().unwrap();
    let o = support::olm_release(
        tmp.path(),
        &["verify", "--max-bundle-bytes", "1KiB", dir],
        &[],
    );
    assert_input_error(&o, "expands past the limit of 1024 bytes");
    let o = support::olm_release(
        tmp.path(),
        &["--max-bundle-bytes", "64MiB", "verify", dir],
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = support::olm_release(
        tmp.path(),
        &["verify", dir],
        &[("OLM_RELEASE_MAX_BUNDLE_BYTES", "2048")],
    );
    assert_input_error(&o, "the limit of 2048 bytes");
    let o = support::olm_release(
        tmp.path(),
        &["verify", "--max-bundle-bytes", "lots", dir],
        &[],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("'lots' is not a size"),
        "{}",
        stderr(&o)
    );
    // The value budget follows the limit: 80,000 values pass at 8 MiB (131,072), not at 4 MiB.
    let big = format!(
        "- kind: ClusterServiceVersion\n  metadata: {{name: p.v1.0.0}}\n  spec:\n    version: 1.0.0\n    keywords:\n{}",
        "    - k\n".repeat(40_000)
    );
    let file = tmp.path().join("big.yaml");
    std::fs::write(&file, flattened(&big)).unwrap();
    let file = file.to_str().unwrap();
    let o = support::olm_release(
        tmp.path(),
        &["graph", "--max-bundle-bytes", "4MiB", file],
        &[],
    );
    assert_input_error(&o, "more than 65536 YAML values");
    let o = support::olm_release(
        tmp.path(),
        &["graph", "--max-bundle-bytes", "8MiB", file],
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn the_book_lists_the_limits_the_code_has() {
    let page = std::fs::read_to_string(support::root().join("docs/src/limits.md")).unwrap();
    let section = page
        .split("## Limits")
        .nth(1)
        .expect("docs/src/limits.md has a 'Limits' section");
    let d = Limits::default();
    for figure in [
        "64 MiB".to_string(),
        format!("{}", d.max_entries).replace("10000", "10,000"),
        format!("{}:1", d.max_ratio),
        format!("{} levels", d.max_depth),
        "1 Mi values".to_string(),
        "--max-bundle-bytes".to_string(),
        "OLM_RELEASE_MAX_BUNDLE_BYTES".to_string(),
    ] {
        assert!(
            section.contains(&figure),
            "the book's limits miss {figure:?}"
        );
    }
    assert_eq!(d.max_bytes, 64 << 20);
    assert_eq!(d.max_nodes(), 1 << 20);
}
