//! `init` then the release, on the shape of an operator-sdk project that commits `bundle/`
//! (`fixtures/memcached-operator`, written here): the release differs from the project's bundle
//! only by the default channel annotation olm-release always writes (what
//! `scripts/measure_projects.py` measures on real repositories), and with the Makefile's
//! `CHANNELS` and `DEFAULT_CHANNEL` the release joins each channel of the catalog.

use std::path::Path;

use super::{put, run_variant};
use crate::support::{assert_code, copy_dir, olm_release, root, stderr, stdout};

#[test]
fn the_release_is_the_projects_bundle_and_joins_each_channel_the_makefile_names() {
    let repo = tempfile::tempdir().unwrap();
    let r = repo.path();
    copy_dir(&root().join("fixtures/memcached-operator"), r);
    let init = |extra: &[&str]| {
        let mut args = vec![
            "init",
            "--ci",
            "none",
            "--github",
            "example/memcached-operator",
        ];
        args.extend_from_slice(extra);
        let out = olm_release(r, &args, &[]);
        assert_code(&out, 0);
        stderr(&out)
    };
    init(&[]);
    run_variant(r, Path::new("."), "local", "0.0.1", &[], false);
    let diff = olm_release(
        r,
        &[
            "diff",
            "--ignore-release-fields",
            "bundle",
            "_out/memcached-operator-local/bundle-image",
        ],
        &[],
    );
    assert_code(&diff, 1);
    assert_eq!(
        stdout(&diff),
        "file metadata/annotations.yaml: 1 field\n  + annotations[\"operators.operatorframework.io.bundle.channel.default.v1\"]: \"alpha\"\n"
    );

    put(
        r,
        "Makefile",
        "CHANNELS ?= fast,stable\nDEFAULT_CHANNEL ?= stable\n",
    );
    let said = init(&[]);
    assert!(
        said.contains("channels fast, stable, default stable (from the Makefile's CHANNELS)"),
        "{said}"
    );
    std::fs::remove_dir_all(r.join("_out")).unwrap();
    run_variant(r, Path::new("."), "local", "0.0.2", &[], false);
    let catalog: Vec<serde_yaml_ng::Value> = serde_yaml_ng::Deserializer::from_str(
        &std::fs::read_to_string(r.join("_out/local/catalog/memcached-operator/catalog.yaml"))
            .unwrap(),
    )
    .map(|d| serde::Deserialize::deserialize(d).unwrap())
    .collect();
    let mut channels: Vec<(String, Vec<String>)> = catalog
        .iter()
        .filter(|d| d["schema"] == "olm.channel")
        .map(|d| {
            let entries = d["entries"].as_sequence().unwrap();
            (
                d["name"].as_str().unwrap().to_string(),
                entries
                    .iter()
                    .map(|e| e["name"].as_str().unwrap().to_string())
                    .collect(),
            )
        })
        .collect();
    channels.sort();
    let entry = vec!["memcached-operator.v0.0.2".to_string()];
    assert_eq!(
        channels,
        vec![
            ("fast".to_string(), entry.clone()),
            ("stable".to_string(), entry)
        ]
    );
    let package = catalog
        .iter()
        .find(|d| d["schema"] == "olm.package")
        .unwrap();
    assert_eq!(package["defaultChannel"].as_str(), Some("stable"));
}
