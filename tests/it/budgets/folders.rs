//! `verify DIR` reads a folder within the limits: every YAML file measured before it is parsed,
//! a symlink loop ending, hidden folders still reported, and at most `max_entries` files.

use std::time::Duration;

use olm_release_olm::archive::Limits;

use super::{assert_input_error, run_measured, stderr};
use crate::support;

/// A copy of the corpus's valid chain bundle.
fn chain(into: &std::path::Path) -> std::path::PathBuf {
    let dir = into.join("bundle");
    support::copy_dir(&support::root().join("fixtures/verify/valid/chain"), &dir);
    dir
}

#[test]
fn a_folder_s_yaml_is_measured_before_it_is_parsed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = chain(tmp.path());
    let deep = format!(
        "kind: X\nx: {}{}\n",
        "[".repeat(200_000),
        "]".repeat(200_000)
    );
    std::fs::write(dir.join("deep.yaml"), deep).unwrap();
    let (o, _) = run_measured(&["verify", dir.to_str().unwrap()], Duration::from_secs(60));
    assert_input_error(&o, "deep.yaml:2: YAML nested deeper than 100 levels");
}

#[test]
fn links_are_followed_and_a_loop_ends_and_hidden_folders_are_still_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = chain(tmp.path());
    std::os::unix::fs::symlink(&dir, dir.join("again")).unwrap();
    std::fs::create_dir(dir.join(".git")).unwrap();
    let (o, _) = run_measured(
        &["verify", "--format", "json", dir.to_str().unwrap()],
        Duration::from_secs(60),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    // The linked folder is read once (no CSV is found twice) and `.git/` is listed, not read.
    assert!(!out.contains("again/"), "{out}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["errors"], 0, "{out}");
}

#[test]
fn more_files_than_the_entry_limit_are_refused_before_reading() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = chain(tmp.path());
    let extra = dir.join("extra");
    std::fs::create_dir(&extra).unwrap();
    for i in 0..Limits::default().max_entries {
        std::fs::write(extra.join(format!("{i}.txt")), b"").unwrap();
    }
    let (o, _) = run_measured(&["verify", dir.to_str().unwrap()], Duration::from_secs(60));
    assert_input_error(&o, "the folder has more than 10000 entries");
}
