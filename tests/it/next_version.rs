//! `olm-release next-version` on the clones CI services make: a full clone finds the last
//! release tag; a shallow clone or a clone without tags says what to do (fetch the history and
//! the tags, or pass --last) instead of failing obscurely.

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
    assert!(err.contains("none of its 1 tags is one"), "{err}");
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
