//! `olm-release next-version` on real git histories (the `git` binary in a temporary folder):
//! the clones CI services make (a full clone finds the last release tag; a shallow clone or a
//! clone without tags says what to do instead of failing obscurely), and histories shaped like
//! strimzi's and HCO's, whose releases are tagged on release branches no tag of the main line
//! reaches, with pre-release tags on both.

use std::path::Path;
use std::process::Command;

use crate::support::{assert_code, olm_release, stderr, stdout};

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.com",
            "-c",
            "init.defaultBranch=master",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn next_version_on_full_shallow_and_tagless_clones() {
    let dir = tempfile::tempdir().unwrap();
    let origin = dir.path().join("origin");
    std::fs::create_dir(&origin).unwrap();
    git(&origin, &["init", "-q"]);
    git(&origin, &["commit", "-q", "--allow-empty", "-m", "one"]);
    git(&origin, &["tag", "v0.22.0"]);
    git(&origin, &["commit", "-q", "--allow-empty", "-m", "two"]);
    git(&origin, &["commit", "-q", "--allow-empty", "-m", "three"]);

    // A full clone (what `git: depth: false` and `fetch-depth: 0` give).
    git(dir.path(), &["clone", "-q", "origin", "full"]);
    let full = olm_release(
        &dir.path().join("full"),
        &["next-version", "--build", "41"],
        &[],
    );
    assert_code(&full, 0);
    assert_eq!(stdout(&full), "0.23.0-alpha.41\n");

    // A shallow clone (Travis' default --depth=50 past the tag, the checkout action's depth 1).
    let url = format!("file://{}", origin.display());
    git(
        dir.path(),
        &["clone", "-q", "--depth", "1", &url, "shallow"],
    );
    let shallow = olm_release(
        &dir.path().join("shallow"),
        &["next-version", "--build", "41"],
        &[],
    );
    assert_code(&shallow, 2);
    let err = stderr(&shallow);
    for needle in [
        "is a shallow clone",
        "git fetch --unshallow --tags",
        "git: depth: false",
        "fetch-depth: 0",
        "--last vX.Y.Z",
    ] {
        assert!(err.contains(needle), "missing {needle:?} in {err}");
    }
    let pinned = olm_release(
        &dir.path().join("shallow"),
        &["next-version", "--build", "41", "--last", "v0.22.0"],
        &[],
    );
    assert_code(&pinned, 0);
    assert_eq!(stdout(&pinned), "0.23.0-alpha.41\n");

    // A repository without any release yet.
    let fresh = dir.path().join("fresh");
    std::fs::create_dir(&fresh).unwrap();
    git(&fresh, &["init", "-q"]);
    git(&fresh, &["commit", "-q", "--allow-empty", "-m", "one"]);
    git(&fresh, &["tag", "not-a-version"]);
    let none = olm_release(&fresh, &["next-version", "--build", "1"], &[]);
    assert_code(&none, 2);
    let err = stderr(&none);
    assert!(err.contains("its 1 tag is not one"), "{err}");
    assert!(
        err.contains("git tag v0.1.0") && err.contains("--last vX.Y.Z"),
        "{err}"
    );

    // Not a checkout at all.
    let plain = dir.path().join("plain");
    std::fs::create_dir(&plain).unwrap();
    let out = olm_release(
        &plain,
        &["next-version", "--build", "1", "--source", "."],
        &[],
    );
    assert_code(&out, 2);
    assert!(
        stderr(&out).contains("is not a git checkout"),
        "{}",
        stderr(&out)
    );
}

/// Commits `message` (empty) on the current branch.
fn commit(dir: &Path, message: &str) {
    git(dir, &["commit", "-q", "--allow-empty", "-m", message]);
}

/// Cuts branch `name` from the current commit, commits and tags each of `tags` on it (a release
/// commit each, as release branches have), then returns to `back`.
fn release_branch(dir: &Path, name: &str, tags: &[&str], back: &str) {
    git(dir, &["checkout", "-q", "-b", name]);
    for t in tags {
        commit(dir, &format!("Release {t}"));
        git(dir, &["tag", t]);
    }
    git(dir, &["checkout", "-q", back]);
}

fn next(dir: &Path, extra: &[&str], env: &[(&str, &str)]) -> (String, String) {
    let mut args = vec!["next-version", "--build", "42"];
    args.extend(extra);
    let o = olm_release(dir, &args, env);
    assert_code(&o, 0);
    (stdout(&o).trim().to_string(), stderr(&o))
}

/// strimzi: tags without `v` (and one with), releases and release candidates tagged on
/// `release-X.Y.x` branches, main reaching only the first release candidates.
#[test]
fn strimzi_shaped_history_gives_the_minor_after_the_last_release_branch() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    git(d, &["init", "-q"]);
    commit(d, "initial");
    git(d, &["tag", "0.1.0-rc1"]);
    commit(d, "work");
    git(d, &["tag", "0.1.0-rc3"]);
    release_branch(d, "release-0.2.x", &["v0.2.0-rc1", "0.2.0"], "master");
    for i in 0..3 {
        commit(d, &format!("main {i}"));
    }
    release_branch(d, "release-1.1.x", &["1.1.0-rc1", "1.1.0"], "master");
    commit(d, "main 3");
    release_branch(
        d,
        "release-1.2.x",
        &["1.2.0-rc1", "1.2.0-rc2", "1.2.0"],
        "master",
    );
    commit(d, "main 4");
    release_branch(d, "release-1.3.x", &["1.3.0-rc1"], "master");
    commit(d, "main 5");

    // main: 1.2.0 is the last release (v0.2.0-rc1 and 0.1.0-rc3 do not count).
    let (v, err) = next(d, &[], &[]);
    assert_eq!(v, "1.3.0-alpha.42", "{err}");
    assert!(
        err.contains(
            "the last release is 1.2.0 (tag 1.2.0, on a release branch that left HEAD's history at"
        ) && err.contains(
            "7 pre-release tags skipped); a main-line build: the next minor: 1.3.0-alpha.42"
        ),
        "{err}"
    );
    // Pre-release tags count when asked: 1.3.0-rc1 is then the last one.
    assert_eq!(next(d, &["--pre-releases"], &[]).0, "1.4.0-alpha.42");

    // A release branch: the next patch, whether the branch is named by git, by the CI or only
    // found because a higher release is on a line it left.
    git(d, &["checkout", "-q", "release-1.1.x"]);
    let (v, err) = next(d, &[], &[]);
    assert_eq!(v, "1.1.1-alpha.42", "{err}");
    assert!(err.contains("the release branch release-1.1.x"), "{err}");
    git(d, &["checkout", "-q", "--detach", "release-1.1.x"]);
    let (v, err) = next(d, &[], &[]);
    assert_eq!(v, "1.1.1-alpha.42", "{err}");
    assert!(
        err.contains("1.2.0 is on a line this one left and has released on since"),
        "{err}"
    );
    // The newest release branch, detached: the CI's branch name says what it is.
    git(d, &["checkout", "-q", "--detach", "release-1.2.x"]);
    let ci = [
        ("GITHUB_ACTIONS", "true"),
        ("GITHUB_REF", "refs/heads/release-1.2.x"),
    ];
    assert_eq!(next(d, &[], &ci).0, "1.2.1-alpha.42");
    assert_eq!(
        next(d, &["--branch", "release-1.2.x"], &[]).0,
        "1.2.1-alpha.42"
    );
}

/// HCO: `v` tags, `-unstable` pre-release tags on main, every release on a `release-1.N`
/// branch.
#[test]
fn hco_shaped_history_is_not_taken_back_to_an_unstable_tag() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    git(d, &["init", "-q"]);
    commit(d, "initial");
    git(d, &["tag", "v0.4.0"]);
    commit(d, "main 1");
    git(d, &["tag", "v1.14.0-unstable"]);
    release_branch(d, "release-1.15", &["v1.15.0", "v1.15.1"], "master");
    commit(d, "main 2");
    release_branch(d, "release-1.17", &["v1.17.0", "v1.17.3"], "master");
    commit(d, "main 3");
    release_branch(d, "release-1.18", &["v1.18.0", "v1.18.1"], "master");
    commit(d, "main 4");
    // An unstable tag on main after the cut is no release: 1.18.1 stays the last one.
    git(d, &["tag", "v1.19.0-unstable"]);
    commit(d, "main 5");

    let (v, err) = next(d, &[], &[]);
    assert_eq!(v, "1.19.0-alpha.42", "{err}");
    assert!(
        err.contains("the last release is 1.18.1 (tag v1.18.1"),
        "{err}"
    );
    // A build of release-1.17, detached as CI checks out: the next patch of 1.17.
    git(d, &["checkout", "-q", "--detach", "release-1.17"]);
    assert_eq!(next(d, &[], &[]).0, "1.17.4-alpha.42");
    // A release tag with nothing of main after it (released from main itself) still counts:
    // main's own v0.4.0 is below, and a tag on main is reachable.
    git(d, &["checkout", "-q", "master"]);
    git(d, &["tag", "v1.19.0"]);
    let (v, err) = next(d, &[], &[]);
    assert_eq!(v, "1.20.0-alpha.42", "{err}");
    assert!(err.contains("tag v1.19.0, reachable from HEAD"), "{err}");
}
