//! git and everything it starts (its remote helpers, the credential helper) get git's own
//! credentials and none of the other secrets the run reads (issue 35, item 5): a `git` on PATH
//! records its environment, then runs the real git.

use std::process::Command;

use crate::catalog_git::{bare, commits, pipeline};
use crate::support::{Work, assert_code};

#[test]
fn git_gets_its_own_credentials_and_no_other_secret() {
    let work = Work::sample();
    let repo = work.path().join("catalog.git");
    let url = bare(&repo);
    let real = Command::new("sh")
        .args(["-c", "command -v git"])
        .output()
        .unwrap();
    let real = String::from_utf8_lossy(&real.stdout).trim().to_string();
    let bin = work.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let dump = work.path().join("git-env");
    let script = format!(
        "#!/bin/sh\nenv >> '{}'\necho ---- >> '{}'\nexec {real} \"$@\"\n",
        dump.display(),
        dump.display()
    );
    let wrapper = bin.join("git");
    std::fs::write(&wrapper, script).unwrap();
    Command::new("chmod")
        .arg("755")
        .arg(&wrapper)
        .status()
        .unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let file = pipeline(
        &work,
        "git.yaml",
        &format!("git:{url}"),
        "  branch: olm-catalog\n",
    );
    let out = work.run(
        &["run", &file, "--var", "VERSION=0.1.0"],
        &[
            ("PATH", &path),
            ("SOURCE_DATE_EPOCH", "1570449600"),
            ("GIT_TOKEN", "git-token-value"),
            ("GITHUB_TOKEN", "github-token-value"),
            ("OCI_USERNAME", "oci-user"),
            ("OCI_PASSWORD", "oci-password-value"),
            ("QUAY_TOKEN", "quay-token-value"),
        ],
    );
    assert_code(&out, 0);
    assert_eq!(commits(&repo, "olm-catalog"), 1);
    let seen = std::fs::read_to_string(&dump).unwrap();
    let runs = seen.matches("----").count();
    assert!(runs >= 4, "git ran {runs} times");
    for secret in [
        "github-token-value",
        "oci-password-value",
        "quay-token-value",
        "oci-user",
    ] {
        assert!(!seen.contains(secret), "git saw {secret}:\n{seen}");
    }
    for name in [
        "GIT_TOKEN=",
        "GITHUB_TOKEN=",
        "OCI_PASSWORD=",
        "QUAY_TOKEN=",
    ] {
        assert!(!seen.lines().any(|l| l.starts_with(name)), "git saw {name}");
    }
    // git's own, for its credential helper, in every command.
    assert_eq!(
        seen.lines()
            .filter(|l| *l == "OLM_RELEASE_GIT_PASSWORD=git-token-value")
            .count(),
        runs
    );
}
