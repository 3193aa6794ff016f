//! A push beaten by another package's commit is applied again on the new head, without a new
//! decision or a new bundle image (issue 35, item 4); and a job out of tries fails naming the
//! branch and the settings that give it longer. Deterministic: a `git` on PATH runs the other
//! job right before this job's first push (`catalog_git::racing_env`).

use std::path::Path;
use std::process::Output;

use crate::catalog_git::{bare, commits, git_out, racing_env};
use crate::race::packages::package_work;
use crate::support::{Work, assert_code, stderr};

const EPOCH: (&str, &str) = ("SOURCE_DATE_EPOCH", "1570449600");

fn run(work: &Work, file: &str, version: &str, env: &[(&str, &str)]) -> Output {
    let var = format!("VERSION={version}");
    let mut env = env.to_vec();
    env.push(EPOCH);
    work.run(&["run", file, "--var", &var], &env)
}

/// Publishes `pkg-b` `version` from `work` while, right before its first push, `pkg-a` 0.1.0 is
/// published to the same branch by another job.
fn beaten_by_another_package(work: &Work, file: &str, version: &str, repo: &Path) -> Output {
    let url = repo.display().to_string();
    let (other, other_file) = package_work("pkg-a", &url);
    let env = racing_env(work.path(), other.path(), &other_file, "0.1.0");
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let o = run(work, file, version, &env);
    let marker = work.path().join("marker");
    assert!(
        !marker.exists(),
        "the other job did not run:\n{}",
        stderr(&o)
    );
    o
}

#[test]
fn a_push_beaten_by_another_package_is_applied_again_without_deciding_again() {
    let scratch = tempfile::tempdir().unwrap();
    let repo = scratch.path().join("catalog.git");
    let url = bare(&repo);
    let (work, file) = package_work("pkg-b", &url);
    assert_code(&run(&work, &file, "0.1.0", &[]), 0);

    let o = beaten_by_another_package(&work, &file, "0.2.0", &repo);
    assert_code(&o, 0);
    let err = stderr(&o);
    assert!(
        err.contains("another job published meanwhile; only other packages changed there; applying this release's change again on the new head (attempt 2, for up to 300 s, after "),
        "{err}"
    );
    // Decided once, one bundle image, two writes of the catalog.
    for (stage, times) in [
        ("==> fetch-previous", 1),
        ("==> bundle-image", 1),
        ("==> catalog", 2),
    ] {
        assert_eq!(err.matches(stage).count(), times, "{stage}:\n{err}");
    }
    // Both packages on the branch, pkg-b's 0.2.0 on top of pkg-a's commit, each added once.
    let b = git_out(&repo, &["show", "main:catalog/pkg-b/catalog.yaml"]);
    assert!(
        b.contains("name: pkg-b.v0.2.0") && b.contains("replaces: pkg-b.v0.1.0"),
        "{b}"
    );
    let a = git_out(&repo, &["show", "main:catalog/pkg-a/catalog.yaml"]);
    assert!(a.contains("name: pkg-a.v0.1.0"), "{a}");
    assert_eq!(commits(&repo, "main"), 3);
    let subjects = git_out(&repo, &["log", "--format=%s", "main"]);
    assert!(subjects.starts_with("pkg-b 0.2.0: "), "{subjects}");
}

#[test]
fn a_job_out_of_tries_fails_naming_the_branch_and_the_settings() {
    let scratch = tempfile::tempdir().unwrap();
    let repo = scratch.path().join("catalog.git");
    let url = bare(&repo);
    let (work, file) = package_work("pkg-b", &url);
    // No tries again at all: the first lost push ends the run.
    let path = work.path().join(&file);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replace("  branch: main\n", "  branch: main\n  retries: 0\n"),
    )
    .unwrap();
    let o = beaten_by_another_package(&work, &file, "0.1.0", &repo);
    assert_code(&o, 1);
    let err = stderr(&o);
    for needle in [
        "moved 1 time in ",
        "nothing of this release is in it",
        "catalog.publish_deadline_seconds, catalog.retries",
    ] {
        assert!(err.contains(needle), "missing {needle:?} in\n{err}");
    }
    // Only the other job's commit is on the branch.
    assert_eq!(commits(&repo, "main"), 1);
    assert!(
        !git_out(&repo, &["ls-tree", "-r", "--name-only", "main"]).contains("pkg-b"),
        "pkg-b landed"
    );
}
