//! A catalog image's base that lies (issue 35, item 2): a manifest whose layer size is off by
//! +1,000,000 or -10 bytes, or that names a layer the base lacks, or a base past
//! `OLM_RELEASE_MAX_BASE_BYTES`, stops the run naming the base and the blob; the target's tag
//! is never created.

use std::path::Path;

use serde_json::Value;

use crate::catalog_git::pipeline;
use crate::support::{Work, assert_code, stderr};
use olm_release_base::digest::sha256_hex;

const EPOCH: (&str, &str) = ("SOURCE_DATE_EPOCH", "1570449600");

/// The base manifest `digest` of the layout `dir`, changed by `edit` and stored beside it; the
/// new manifest's digest.
fn lying(dir: &Path, digest: &str, edit: impl FnOnce(&mut Value)) -> String {
    let blobs = dir.join("blobs/sha256");
    let bytes = std::fs::read(blobs.join(digest.strip_prefix("sha256:").unwrap())).unwrap();
    let mut manifest: Value = serde_json::from_slice(&bytes).unwrap();
    edit(&mut manifest);
    let bytes = serde_json::to_vec(&manifest).unwrap();
    let hex = sha256_hex(&bytes);
    std::fs::write(blobs.join(&hex), bytes).unwrap();
    format!("sha256:{hex}")
}

fn run_on(work: &Work, base: &str, env: &[(&str, &str)]) -> std::process::Output {
    let file = pipeline(
        work,
        "image.yaml",
        "image:oci:_out/catalog-image:latest",
        &format!("  base_image: oci:_out/opm-base@{base}\n"),
    );
    let mut env = env.to_vec();
    env.push(EPOCH);
    work.run(&["run", &file, "--var", "VERSION=0.1.0"], &env)
}

/// No tag `latest` in the target layout (or no layout at all).
fn untagged(work: &Work) -> bool {
    std::fs::read_to_string(work.path().join("_out/catalog-image/index.json"))
        .map_or(true, |index| !index.contains("\"latest\""))
}

#[test]
fn a_base_whose_manifest_lies_about_a_layer_is_refused_and_nothing_is_tagged() {
    for delta in [1_000_000i64, -10] {
        let work = Work::sample();
        let dir = work.path().join("_out/opm-base");
        let (digest, layer) = crate::catalog_image::base_layout(&dir);
        let mut real = 0;
        let base = lying(&dir, &digest, |m| {
            real = m["layers"][0]["size"].as_i64().unwrap();
            m["layers"][0]["size"] = (real + delta).into();
        });
        let out = run_on(&work, &base, &[]);
        assert_code(&out, 1);
        let err = stderr(&out);
        assert!(
            err.contains(&base)
                && err.contains(&format!(
                    "its manifest says the layer {layer} is {} bytes, the blob is {real}",
                    real + delta
                )),
            "{delta}: {err}"
        );
        assert!(untagged(&work), "{delta}: tagged");
    }
}

#[test]
fn a_base_naming_a_layer_it_lacks_or_past_the_size_limit_is_refused() {
    let work = Work::sample();
    let dir = work.path().join("_out/opm-base");
    let (digest, _) = crate::catalog_image::base_layout(&dir);
    let wrong = format!("sha256:{}", "cd".repeat(32));
    let base = lying(&dir, &digest, |m| {
        m["layers"][0]["digest"] = wrong.clone().into()
    });
    let out = run_on(&work, &base, &[]);
    assert_code(&out, 1);
    assert!(
        stderr(&out).contains(&format!("its layer {wrong} is missing")),
        "{}",
        stderr(&out)
    );
    assert!(untagged(&work));

    let out = run_on(&work, &digest, &[("OLM_RELEASE_MAX_BASE_BYTES", "100")]);
    assert_code(&out, 1);
    assert!(
        stderr(&out).contains("more than the limit of 100 (OLM_RELEASE_MAX_BASE_BYTES raises it)"),
        "{}",
        stderr(&out)
    );
    assert!(untagged(&work));
    // Within the limits, the same base publishes.
    assert_code(&run_on(&work, &digest, &[]), 0);
    assert!(!untagged(&work));
}
