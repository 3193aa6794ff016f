//! Shared test helpers: the binary, temporary work folders, the shared reference folder and the
//! real peers that `scripts/test.sh` starts (their URLs come in environment variables).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `../shared` beside the project, if present. Under `CI=true` it must be there; elsewhere a
/// test that needs it skips and says why.
pub fn shared() -> Option<PathBuf> {
    let dir = root().join("../shared");
    if dir.join("kubevirt").is_dir() {
        return Some(dir.canonicalize().unwrap());
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("CI=true but ../shared (KubeVirt's inputs) is missing beside the project");
    }
    eprintln!("skipping: ../shared is not beside this clone (KubeVirt's real inputs live there)");
    None
}

/// The URL of a peer started by scripts/test.sh (e.g. `APPR_URL`). Under `CI=true` it must be
/// set; elsewhere the test skips and says how to get it.
pub fn peer(var: &str) -> Option<String> {
    match std::env::var(var) {
        Ok(v) if !v.is_empty() => Some(v),
        _ if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("CI=true but {var} is not set: run the tests through scripts/test.sh")
        }
        _ => {
            eprintln!("skipping: {var} is not set (scripts/test.sh starts that peer)");
            None
        }
    }
}

/// A temporary folder holding a copy of the sample pipeline's inputs, so each test has its own
/// `_out`.
pub struct Work {
    pub dir: tempfile::TempDir,
}

impl Work {
    /// A work folder with `fixtures/` and `pipelines/` copied in.
    pub fn sample() -> Self {
        let dir = tempfile::tempdir().unwrap();
        copy_dir(
            &root().join("fixtures/sample-operator"),
            &dir.path().join("fixtures/sample-operator"),
        );
        copy_dir(&root().join("pipelines"), &dir.path().join("pipelines"));
        Work { dir }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Runs the binary in this folder with a clean environment plus `env`.
    pub fn run(&self, args: &[&str], env: &[(&str, &str)]) -> Output {
        olm_release(self.path(), args, env)
    }
}

/// Runs `olm-release` in `cwd` with only PATH, HOME and `env` set.
pub fn olm_release(cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_olm-release"));
    cmd.current_dir(cwd).args(args).env_clear();
    for key in ["PATH", "HOME"] {
        if let Ok(v) = std::env::var(key) {
            cmd.env(key, v);
        }
    }
    cmd.envs(env.iter().copied());
    cmd.output().unwrap()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Asserts the exit code, showing the output when it differs.
#[track_caller]
pub fn assert_code(o: &Output, code: i32) {
    assert_eq!(
        o.status.code(),
        Some(code),
        "stdout:\n{}\nstderr:\n{}",
        stdout(o),
        stderr(o)
    );
}

pub fn copy_dir(from: &Path, to: &Path) {
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

/// The manifest digest an OCI image layout's `index.json` names for `tag` (panics, listing the
/// index, when it names none).
pub fn layout_digest(layout: &Path, tag: &str) -> String {
    let index: serde_json::Value =
        serde_json::from_slice(&std::fs::read(layout.join("index.json")).unwrap()).unwrap();
    index["manifests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["annotations"]["org.opencontainers.image.ref.name"] == tag)
        .unwrap_or_else(|| panic!("no {tag} in {index}"))["digest"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Every file under `dir` (relative path, bytes), sorted by path; none when `dir` is missing.
/// What a test compares before and after a run to prove the run wrote nothing.
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

/// Runs a test server on its own thread and runtime, on a fresh 127.0.0.1 port: `serve` gets
/// the bound listener and runs until it returns or the returned sender is dropped (the owner
/// keeps it as long as the server should live).
pub fn serve_on_loopback<F, Fut>(
    serve: F,
) -> (std::net::SocketAddr, tokio::sync::oneshot::Sender<()>)
where
    F: FnOnce(tokio::net::TcpListener) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()>,
{
    let (tx, rx) = std::sync::mpsc::channel();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            tokio::select! {
                _ = serve(listener) => {}
                _ = stopped => {}
            }
        });
    });
    (rx.recv().unwrap(), stop)
}

/// A loopback port that accepts connections and never answers (each one held open): a server
/// that hangs, for the retry budget's tests.
pub fn hanging_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for c in listener.incoming() {
            held.push(c);
        }
    });
    port
}
