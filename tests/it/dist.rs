//! The release archive made by `scripts/dist.sh` (built once per suite run by
//! scripts/peers/release-archive.sh): what it holds and how (sorted entries, owner 0, fixed
//! modes and mtime, gzip without name or time), that `SHA256SUMS` matches it, that the binary
//! needs no glibc symbol newer than 2.17, and that packaging again gives the same bytes. A second
//! clean build compared byte for byte is `scripts/repro.sh`, run by `.ci/run`.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::{peer, root};

const TARGET: &str = "x86_64-unknown-linux-gnu";

fn dist() -> Option<PathBuf> {
    peer("OLM_RELEASE_DIST").map(PathBuf::from)
}

fn name() -> String {
    format!("olm-release-{}-{TARGET}", env!("CARGO_PKG_VERSION"))
}

/// (path, mode, uid, gid, mtime, size) of every entry, in archive order.
fn entries(gz: &[u8]) -> Vec<(String, u32, u64, u64, u64, u64)> {
    let mut tar = Vec::new();
    flate2::read::GzDecoder::new(gz)
        .read_to_end(&mut tar)
        .unwrap();
    let mut archive = tar::Archive::new(&tar[..]);
    archive
        .entries()
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let h = e.header();
            (
                e.path().unwrap().to_string_lossy().into_owned(),
                h.mode().unwrap(),
                h.uid().unwrap(),
                h.gid().unwrap(),
                h.mtime().unwrap(),
                h.size().unwrap(),
            )
        })
        .collect()
}

#[test]
fn the_archive_holds_the_binary_docs_man_page_and_completions_reproducibly() {
    let Some(dir) = dist() else { return };
    let gz = std::fs::read(dir.join(format!("{}.tar.gz", name()))).unwrap();
    // gzip header: no FNAME flag, MTIME zero.
    assert_eq!(&gz[..3], &[0x1f, 0x8b, 8]);
    assert_eq!(gz[3] & 0x08, 0, "no file name in the gzip header");
    assert_eq!(&gz[4..8], &[0, 0, 0, 0], "no time in the gzip header");
    let list = entries(&gz);
    let n = name();
    let paths: Vec<&str> = list.iter().map(|e| e.0.as_str()).collect();
    // The man pages are the ones `man --dir` writes: olm-release.1 and one per command.
    let pages = man_pages(&dir.join(&n).join("olm-release"));
    assert!(
        pages.len() > 10 && pages.iter().any(|p| p == "olm-release-run.1"),
        "{pages:?}"
    );
    let mut expected: Vec<String> = [
        "",
        "LICENSE",
        "README.md",
        "completions/",
        "completions/_olm-release",
        "completions/olm-release.bash",
        "completions/olm-release.fish",
        "man/",
        "olm-release",
    ]
    .iter()
    .map(|p| p.to_string())
    .chain(pages.iter().map(|p| format!("man/{p}")))
    .map(|p| format!("{n}/{p}"))
    .collect();
    expected.sort();
    assert_eq!(
        paths
            .iter()
            .map(|p| p.trim_end_matches('/'))
            .collect::<Vec<_>>(),
        expected
            .iter()
            .map(|p| p.trim_end_matches('/'))
            .collect::<Vec<_>>(),
        "sorted by name"
    );
    let mtime = list[0].4;
    for (path, mode, uid, gid, t, _) in &list {
        assert_eq!((*uid, *gid), (0, 0), "{path}");
        assert_eq!(*t, mtime, "{path}: one mtime for all");
        let want = if path.ends_with('/') || path.ends_with("/olm-release") || path == &n {
            0o755
        } else {
            0o644
        };
        assert_eq!(*mode & 0o7777, want, "{path}");
    }
    let size = |p: &str| list.iter().find(|e| e.0 == format!("{n}/{p}")).unwrap().5;
    assert!(size("LICENSE") > 10_000 && size("man/olm-release.1") > 1_000);
    eprintln!(
        "archive {}.tar.gz: {} bytes; binary {} bytes; entries mtime {mtime}",
        n,
        gz.len(),
        size("olm-release")
    );
    // SHA256SUMS names it with its digest, as sha256sum -c reads it.
    let sums = std::fs::read_to_string(dir.join("SHA256SUMS")).unwrap();
    assert_eq!(
        sums,
        format!(
            "{}  {n}.tar.gz\n",
            olm_release_base::digest::sha256_hex(&gz)
        )
    );
    // The completions and man page inside are the binary's own.
    let unpacked = dir.join(&n);
    let bash = std::fs::read_to_string(unpacked.join("completions/olm-release.bash")).unwrap();
    assert!(bash.contains("complete -F _olm_release"), "{bash:.200}");
    let man = std::fs::read_to_string(unpacked.join("man/olm-release.1")).unwrap();
    assert!(man.contains(".TH olm-release 1"), "{man:.200}");
    let run = std::fs::read_to_string(unpacked.join("man/olm-release-run.1")).unwrap();
    assert!(run.contains(".TH olm-release-run 1"), "{run:.200}");
}

/// The file names `BIN man --dir` writes, sorted.
fn man_pages(bin: &Path) -> Vec<String> {
    let tmp = tempfile::tempdir().unwrap();
    let out = Command::new(bin)
        .args(["man", "--dir"])
        .arg(tmp.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut pages: Vec<String> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    pages.sort();
    pages
}

/// The highest `GLIBC_x.y` symbol version the binary needs.
fn highest_glibc(bin: &Path) -> (u32, u32) {
    let out = Command::new("objdump").arg("-T").arg(bin).output().unwrap();
    assert!(out.status.success(), "objdump -T {}", bin.display());
    String::from_utf8_lossy(&out.stdout)
        .split("GLIBC_")
        .skip(1)
        .filter_map(|rest| {
            let v: String = rest
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            let mut parts = v.split('.').map(|p| p.parse::<u32>().ok());
            Some((parts.next()??, parts.next().flatten().unwrap_or(0)))
        })
        .max()
        .expect("the binary links glibc")
}

#[test]
fn the_binary_runs_on_glibc_2_17() {
    let Some(dir) = dist() else { return };
    let bin = dir.join(name()).join("olm-release");
    let (major, minor) = highest_glibc(&bin);
    eprintln!("highest glibc symbol version needed: GLIBC_{major}.{minor}");
    assert!((major, minor) <= (2, 17), "needs GLIBC_{major}.{minor}");
    // The host's own build needs newer symbols: the check can tell them apart.
    let host = highest_glibc(Path::new(env!("CARGO_BIN_EXE_olm-release")));
    assert!(
        host > (2, 17),
        "host build needs GLIBC_{}.{}",
        host.0,
        host.1
    );
    let out = Command::new(&bin).arg("--version").output().unwrap();
    assert!(out.status.success());
}

#[test]
fn packaging_again_gives_the_same_bytes() {
    let Some(dir) = dist() else { return };
    let again = tempfile::tempdir().unwrap();
    let version = env!("CARGO_PKG_VERSION");
    let out = Command::new(root().join("scripts/dist.sh"))
        .args([version, "--out"])
        .arg(again.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let file = format!("{}.tar.gz", name());
    assert!(
        std::fs::read(dir.join(&file)).unwrap() == std::fs::read(again.path().join(&file)).unwrap(),
        "a second packaging differs"
    );
    assert_eq!(
        std::fs::read(dir.join("SHA256SUMS")).unwrap(),
        std::fs::read(again.path().join("SHA256SUMS")).unwrap()
    );
    // A version that is not Cargo.toml's is refused before anything is built.
    let wrong = Command::new(root().join("scripts/dist.sh"))
        .args(["9.9.9", "--out"])
        .arg(again.path())
        .output()
        .unwrap();
    assert_eq!(wrong.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("is not Cargo.toml's version"));
}
