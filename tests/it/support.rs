//! The application's test helpers: the binary run in a temporary work folder, its output, and
//! the OCI layouts it writes. What every crate's tests share (the repository root, `../shared`,
//! the peers `scripts/test.sh` starts, file trees, loopback servers, external readers) is
//! `olm_release_testsupport`, re-exported here.

#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

pub use olm_release_testsupport::{
    copy_dir, file_contents, hanging_port, list_files, peer, root, serve_on_loopback, shared,
};

/// A temporary folder holding a copy of the sample pipeline's inputs, so each test has its own
/// `_out`.
pub struct Work {
    pub dir: tempfile::TempDir,
}

impl Work {
    /// A work folder with `fixtures/` and `pipelines/` copied in.
    pub fn sample() -> Self {
        let dir = tempfile::tempdir().unwrap();
        copy_dir(
            &root().join("fixtures/sample-operator"),
            &dir.path().join("fixtures/sample-operator"),
        );
        copy_dir(&root().join("pipelines"), &dir.path().join("pipelines"));
        Work { dir }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Runs the binary in this folder with a clean environment plus `env`.
    pub fn run(&self, args: &[&str], env: &[(&str, &str)]) -> Output {
        olm_release(self.path(), args, env)
    }
}

/// Runs `olm-release` in `cwd` with only PATH, HOME and `env` set.
pub fn olm_release(cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_olm-release"));
    cmd.current_dir(cwd).args(args).env_clear();
    for key in ["PATH", "HOME"] {
        if let Ok(v) = std::env::var(key) {
            cmd.env(key, v);
        }
    }
    cmd.envs(env.iter().copied());
    cmd.output().unwrap()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Asserts the exit code, showing the output when it differs.
#[track_caller]
pub fn assert_code(o: &Output, code: i32) {
    assert_eq!(
        o.status.code(),
        Some(code),
        "stdout:\n{}\nstderr:\n{}",
        stdout(o),
        stderr(o)
    );
}

/// The manifest digest an OCI image layout's `index.json` names for `tag` (panics, listing the
/// index, when it names none).
pub fn layout_digest(layout: &Path, tag: &str) -> String {
    let index: serde_json::Value =
        serde_json::from_slice(&std::fs::read(layout.join("index.json")).unwrap()).unwrap();
    index["manifests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["annotations"]["org.opencontainers.image.ref.name"] == tag)
        .unwrap_or_else(|| panic!("no {tag} in {index}"))["digest"]
        .as_str()
        .unwrap()
        .to_string()
}
