//! Helpers of `init`'s tests: the workspace's fixtures, repositories written file by file, a
//! request with a made-up installer pin, and the lines an outcome says.

use std::path::Path;

use olm_release_init::{CiService, InstallerPin, Outcome, Request};

/// The workspace root (the fixtures are under `fixtures/`).
pub use olm_release_testsupport::root;

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

/// `init` of `dir` with no options but `--github OWNER/REPO` when given, and both the Travis
/// and the GitHub Actions configuration (`--ci travis --ci github`).
pub fn request(dir: &Path, github: Option<&str>) -> Request {
    let mut request = Request::new(dir, pin());
    request.github = github.map(str::to_string);
    request.ci = Some(vec![CiService::Travis, CiService::Github]);
    request
}

/// Every line the outcome says, one string.
pub fn said(outcome: &Outcome) -> String {
    outcome.lines().join("\n")
}

use olm_release_testsupport::copy_dir;
pub use olm_release_testsupport::{file_contents, list_files};
