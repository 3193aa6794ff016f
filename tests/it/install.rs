//! The installer, `scripts/install.sh`, run by dash (a strict POSIX sh) against a loopback
//! server that serves a release made by `scripts/dist.sh` the way GitHub serves one
//! (`/releases/download/vX.Y.Z/NAME`, `/releases/latest` redirecting to `/releases/tag/vX.Y.Z`):
//! it installs with curl and with wget, pinned or latest; and on an unsupported platform, a
//! checksum mismatch, a missing release or no network it says why, fails and installs nothing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;

use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

use crate::support::{peer, root, serve_on_loopback};

const TARGET: &str = "x86_64-unknown-linux-gnu";

pub(crate) fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

pub(crate) fn archive_name() -> String {
    format!("olm-release-{}-{TARGET}.tar.gz", version())
}

/// A loopback "GitHub releases" page serving `files` for the tag of this version.
pub(crate) struct Releases {
    pub(crate) base: String,
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl Releases {
    pub(crate) fn serve(files: BTreeMap<String, Vec<u8>>) -> Self {
        let files = Arc::new(files);
        let tag = format!("v{}", version());
        let (addr, stop) = serve_on_loopback(move |listener| async move {
            let app = axum::Router::new().fallback(move |uri: Uri| {
                let files = files.clone();
                let tag = tag.clone();
                async move { answer(&uri, &files, &tag) }
            });
            axum::serve(listener, app).await.unwrap();
        });
        Releases {
            base: format!("http://{addr}/releases"),
            _stop: stop,
        }
    }
}

fn answer(uri: &Uri, files: &BTreeMap<String, Vec<u8>>, tag: &str) -> Response {
    let path = uri.path();
    if path == "/releases/latest" {
        let to = format!("/releases/tag/{tag}");
        return (StatusCode::FOUND, [(header::LOCATION, to)]).into_response();
    }
    if path == format!("/releases/tag/{tag}") || path == "/releases/" {
        return (StatusCode::OK, "release page").into_response();
    }
    if let Some(name) = path.strip_prefix(&format!("/releases/download/{tag}/"))
        && let Some(bytes) = files.get(name)
    {
        return (StatusCode::OK, bytes.clone()).into_response();
    }
    (StatusCode::NOT_FOUND, "Not Found").into_response()
}

/// The release made by dist.sh for this suite run.
pub(crate) fn dist_files() -> Option<BTreeMap<String, Vec<u8>>> {
    let dir = PathBuf::from(peer("OLM_RELEASE_DIST")?);
    let mut files = BTreeMap::new();
    for name in [archive_name(), "SHA256SUMS".to_string()] {
        files.insert(name.clone(), std::fs::read(dir.join(&name)).unwrap());
    }
    Some(files)
}

/// A folder of commands for PATH: the tools the installer uses, linked from the system's, with
/// `drop` left out and `extra` (name, script) added.
pub(crate) fn tools(dir: &Path, drop: &[&str], extra: &[(&str, &str)]) -> PathBuf {
    let bin = dir.join("tools");
    std::fs::create_dir_all(&bin).unwrap();
    for tool in [
        "sh",
        "uname",
        "getconf",
        "awk",
        "sed",
        "curl",
        "wget",
        "sha256sum",
        "tar",
        "gzip",
        "mktemp",
        "rm",
        "mkdir",
        "cp",
        "chmod",
        "mv",
        "head",
        "tail",
        "tr",
        "cat",
    ] {
        if drop.contains(&tool) {
            continue;
        }
        let found = ["/usr/bin", "/bin"]
            .iter()
            .map(|d| Path::new(d).join(tool))
            .find(|p| p.exists());
        if let Some(p) = found {
            let _ = std::os::unix::fs::symlink(p, bin.join(tool));
        }
    }
    for (name, script) in extra {
        let p = bin.join(name);
        std::fs::write(&p, format!("#!/bin/sh\n{script}\n")).unwrap();
        Command::new("chmod").arg("0755").arg(&p).status().unwrap();
    }
    bin
}

/// Runs the installer with dash and only the given PATH and base URL.
fn install(dir: &Path, path: &Path, base: &str, args: &[&str]) -> Output {
    // By absolute path: the child's PATH is the tools folder, and Command looks the program up
    // in it.
    let shell = ["/usr/bin/dash", "/bin/dash", "/bin/sh"]
        .into_iter()
        .find(|p| Path::new(p).exists())
        .expect("a POSIX sh");
    Command::new(shell)
        .arg(root().join("scripts/install.sh"))
        .args(args)
        .env_clear()
        .env("PATH", path)
        .env("HOME", dir)
        .env("OLM_RELEASE_INSTALL_BASE", base)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[track_caller]
fn failed_with(o: &Output, needle: &str, to: &Path) {
    assert_eq!(o.status.code(), Some(1), "{}", err(o));
    assert!(err(o).contains(needle), "missing {needle:?} in {}", err(o));
    assert!(
        !to.join("olm-release").exists()
            || std::fs::read(to.join("olm-release")).unwrap() == b"old\n",
        "nothing installed"
    );
}

#[test]
fn installs_a_pinned_release_with_curl_and_the_latest_with_wget() {
    let Some(files) = dist_files() else { return };
    let server = Releases::serve(files);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let with_curl = tools(&d.join("curl"), &["wget"], &[]);
    let to = d.join("bin");
    let out = install(
        d,
        &with_curl,
        &server.base,
        &["--version", version(), "--to", &to.display().to_string()],
    );
    assert!(out.status.success(), "{}", err(&out));
    let installed = to.join("olm-release");
    let run = Command::new(&installed).arg("--version").output().unwrap();
    assert!(
        String::from_utf8_lossy(&run.stdout).starts_with(&format!("olm-release {}", version()))
    );
    assert!(
        err(&out).contains(&format!("installed olm-release {}", version())),
        "{}",
        err(&out)
    );
    assert!(err(&out).contains("is not on PATH"), "{}", err(&out));

    // wget only, no --version: the latest release, found through the /latest redirect; the
    // binary already there is replaced.
    std::fs::write(&installed, "old\n").unwrap();
    let with_wget = tools(&d.join("wget"), &["curl"], &[]);
    let sha = olm_release_base::digest::sha256_hex(
        &std::fs::read(
            PathBuf::from(std::env::var("OLM_RELEASE_DIST").unwrap()).join(archive_name()),
        )
        .unwrap(),
    );
    let out = install(
        d,
        &with_wget,
        &server.base,
        &["--to", &to.display().to_string(), "--sha256", &sha],
    );
    assert!(out.status.success(), "{}", err(&out));
    assert!(
        err(&out).contains(&format!("installing olm-release {}", version())),
        "{}",
        err(&out)
    );
    assert_ne!(std::fs::read(&installed).unwrap(), b"old\n");

    // Neither: a clear error.
    let neither = tools(&d.join("neither"), &["curl", "wget"], &[]);
    let out = install(
        d,
        &neither,
        &server.base,
        &["--to", &to.display().to_string()],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        err(&out).contains("neither curl nor wget is installed"),
        "{}",
        err(&out)
    );
}

#[test]
fn refuses_an_unsupported_platform_a_bad_checksum_a_missing_release_and_no_network() {
    let Some(files) = dist_files() else { return };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let to = d.join("bin");
    std::fs::create_dir_all(&to).unwrap();
    std::fs::write(to.join("olm-release"), "old\n").unwrap();
    let to_s = to.display().to_string();
    let path = tools(&d.join("ok"), &[], &[]);
    let server = Releases::serve(files.clone());
    let pinned = ["--version", version(), "--to", &to_s];

    // macOS on Apple silicon; musl Linux (no glibc).
    let mac = tools(
        &d.join("mac"),
        &["uname"],
        &[(
            "uname",
            "case \"$1\" in -s) echo Darwin;; -m) echo arm64;; esac",
        )],
    );
    failed_with(
        &install(d, &mac, &server.base, &pinned),
        "no prebuilt olm-release for Darwin/arm64 yet",
        &to,
    );
    let musl = tools(&d.join("musl"), &["getconf"], &[("getconf", "exit 1")]);
    failed_with(
        &install(d, &musl, &server.base, &pinned),
        "this Linux has no glibc",
        &to,
    );

    // The archive does not match SHA256SUMS; or it does, but not the pinned --sha256.
    let mut tampered = files.clone();
    tampered.get_mut(&archive_name()).unwrap().push(0);
    let bad = Releases::serve(tampered);
    failed_with(
        &install(d, &path, &bad.base, &pinned),
        "checksum mismatch",
        &to,
    );
    let mut pin = pinned.to_vec();
    pin.extend(["--sha256", "0000"]);
    failed_with(
        &install(d, &path, &server.base, &pin),
        "--sha256 says 0000",
        &to,
    );

    // No such release.
    failed_with(
        &install(
            d,
            &path,
            &server.base,
            &["--version", "9.9.9", "--to", &to_s],
        ),
        "release v9.9.9 is not there",
        &to,
    );
    // No network: nothing listens there.
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}/releases", l.local_addr().unwrap())
    };
    failed_with(
        &install(d, &path, &closed, &pinned),
        "cannot reach 127.0.0.1",
        &to,
    );
    failed_with(
        &install(d, &path, &closed, &["--to", &to_s]),
        "cannot reach 127.0.0.1",
        &to,
    );
    assert_eq!(std::fs::read(to.join("olm-release")).unwrap(), b"old\n");
    assert_eq!(
        std::fs::read_dir(&to).unwrap().count(),
        1,
        "no temporary file left in --to"
    );
}

#[test]
fn the_installer_defaults_to_this_projects_github_releases() {
    let script = std::fs::read_to_string(root().join("scripts/install.sh")).unwrap();
    let expected = format!(
        "base=\"${{OLM_RELEASE_INSTALL_BASE:-{}/releases}}\"",
        env!("CARGO_PKG_REPOSITORY")
    );
    assert!(
        script.contains(&expected),
        "install.sh should read {expected}"
    );
    assert!(script.starts_with("#!/bin/sh\n"));
}
