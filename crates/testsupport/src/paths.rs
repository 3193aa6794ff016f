//! Where a test finds its inputs: the repository root (whose `fixtures/` every crate's tests
//! read), the `shared` reference folder beside the clone (KubeVirt's real inputs, upstream test
//! suites), and the peers `scripts/test.sh` starts, whose URLs come
//! in environment variables. Without `CI=true` a missing one makes the test skip and say why;
//! under `CI=true` it fails the test.

use std::path::{Path, PathBuf};

/// The repository root (this crate lives in `crates/testsupport`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates/testsupport sits two levels below the repository root")
        .to_path_buf()
}

/// The `shared` reference folder beside the project (a sibling of the repository), if present. Under `CI=true` it must be there; elsewhere a
/// test that needs it skips and says why.
pub fn shared() -> Option<PathBuf> {
    let dir = root()
        .parent()
        .expect("the repository has a parent folder")
        .join("shared");
    if dir.join("kubevirt").is_dir() {
        return Some(dir.canonicalize().unwrap());
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("CI=true but the shared folder (KubeVirt's inputs) is missing beside the project");
    }
    eprintln!(
        "skipping: the shared folder is not beside this clone (KubeVirt's real inputs live there)"
    );
    None
}

/// The URL of a peer started by scripts/test.sh (e.g. `APPR_URL`). Under `CI=true` it must be
/// set; elsewhere the test skips and says how to get it.
pub fn peer(var: &str) -> Option<String> {
    match std::env::var(var) {
        Ok(v) if !v.is_empty() => Some(v),
        _ if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("CI=true but {var} is not set: run the tests through scripts/test.sh")
        }
        _ => {
            eprintln!("skipping: {var} is not set (scripts/test.sh starts that peer)");
            None
        }
    }
}
