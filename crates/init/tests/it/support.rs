//! Helpers of `init`'s tests: the workspace's fixtures, repositories written file by file, a
//! request with a made-up installer pin, and the lines an outcome says.

use std::path::{Path, PathBuf};

use olm_release_init::{InstallerPin, Outcome, Request};

/// The workspace root (the fixtures are under `fixtures/`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A copy of the sample operator as an operator repository of its own.
pub fn sample_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("fixtures/sample-operator"), dir.path());
    dir
}

/// Writes `text` at `rel` under `dir`.
pub fn put(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// A pin no release has, so a test sees that the CI files install what the request says.
pub fn pin() -> InstallerPin {
    InstallerPin {
        version: "9.8.7".into(),
        url: "https://example.com/v9.8.7/install.sh".into(),
        sha256: "ab".repeat(32),
    }
}

/// `init` of `dir` with no options but `--github OWNER/REPO` when given.
pub fn request(dir: &Path, github: Option<&str>) -> Request {
    let mut request = Request::new(dir, pin());
    request.github = github.map(str::to_string);
    request
}

/// Every line the outcome says, one string.
pub fn said(outcome: &Outcome) -> String {
    outcome.lines().join("\n")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let dest = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &dest);
        } else {
            std::fs::copy(entry.path(), dest).unwrap();
        }
    }
}

/// Every file under `dir`, relative, sorted.
pub fn list_files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    if dir.exists() {
        walk(dir, dir, &mut out);
    }
    out.sort();
    out
}

/// Every file under `dir` with its bytes, sorted by path.
pub fn file_contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    list_files(dir)
        .into_iter()
        .map(|rel| {
            let bytes = std::fs::read(dir.join(&rel)).unwrap();
            (rel, bytes)
        })
        .collect()
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            walk(root, &p, out);
        } else {
            out.push(p.strip_prefix(root).unwrap().to_string_lossy().into_owned());
        }
    }
}
