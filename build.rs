//! Records the commit the binary is built from, for `--version`.
//!
//! It reruns when the checked-out commit can have changed: the checkout's HEAD and the branch
//! it points to, found through git itself, so a linked worktree (whose `.git` is a file) does
//! not rebuild the crate on every build.
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
}

fn main() {
    let commit =
        git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown commit".into());
    println!("cargo:rustc-env=OLM_RELEASE_COMMIT={commit}");
    println!("cargo:rerun-if-changed=build.rs");
    // HEAD, the branch it points to, and packed-refs: not every ref, so commits on other
    // branches (or in other worktrees of the same repository) do not rebuild this one.
    // A branch whose ref is only in packed-refs (a fresh clone) gets a loose ref file on its
    // next commit: then its folder is watched instead.
    let git_path = |p: &str| git(&["rev-parse", "--git-path", p]);
    let mut watch: Vec<String> = ["HEAD", "packed-refs"]
        .iter()
        .filter_map(|p| git_path(p))
        .collect();
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]).and_then(|r| git_path(&r)) {
        let path = std::path::Path::new(&branch);
        if path.exists() {
            watch.push(branch.clone());
        } else {
            watch.extend(path.parent().map(|d| d.display().to_string()));
        }
    }
    for p in watch {
        // A path that does not exist would make every build rerun this script.
        if std::path::Path::new(&p).exists() {
            println!("cargo:rerun-if-changed={p}");
        }
    }
}
