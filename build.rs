//! Records the commit the binary is built from, for `--version`.
//!
//! It reruns when the checked-out commit can have changed: the checkout's HEAD and the
//! repository's refs, found through git itself, so a linked worktree (whose `.git` is a file)
//! does not rebuild the crate on every build.
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
    for path in ["HEAD", "refs", "packed-refs"] {
        // A path that does not exist would make every build rerun this script.
        if let Some(p) =
            git(&["rev-parse", "--git-path", path]).filter(|p| std::path::Path::new(p).exists())
        {
            println!("cargo:rerun-if-changed={p}");
        }
    }
}
