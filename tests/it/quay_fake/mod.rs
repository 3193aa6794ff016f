//! An in-process fake of Quay's app-registry endpoints, for what the reference appr server
//! lacks (as Quay's CNR endpoints answer): login, HTTP Basic auth with 401/403, the `{"error": {…}}` envelope
//! (and its string form), private repositories, the 50-item list cap, and injected faults
//! (5xx, 429 with `Retry-After`, a dropped connection, a slow answer).
//!
//! It runs on its own thread and runtime on 127.0.0.1, so tests stay plain `#[test]`s that run
//! the binary. Everything it stores and every request it saw can be inspected afterwards.
//! The tests that use it are in `tests.rs`.

#![allow(dead_code)]

mod handler;
mod tests;

use std::collections::BTreeMap;
use std::io::Read;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine;
use sha2::Digest;

/// A user the fake knows. `write` users may push and delete.
pub const WRITER: (&str, &str) = ("kubevirt+robot", "s3cr3t-Pa55word");
pub const READER: (&str, &str) = ("reader", "read-0nly-pass");

/// The `Authorization` value Quay's login returns for a user.
pub fn token(user: (&str, &str)) -> String {
    format!(
        "basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{}:{}", user.0, user.1))
    )
}

/// Which requests a fault hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    Push,
    /// `GET /api/v1/packages/{ns}/{pkg}` (the release list).
    Releases,
    /// `GET …/blobs/sha256/{digest}` or `GET …/{release}/helm/pull` (a bundle's bytes).
    Pull,
    Any,
}

#[derive(Debug, Clone, Copy)]
pub enum FaultKind {
    /// Answer this status with the error envelope.
    Status(u16),
    /// 429 with `Retry-After: seconds`.
    RateLimit(u64),
    /// Drop the connection without an answer (for a push: before storing it).
    Drop,
    /// Store the push, then drop the connection (the answer is lost).
    DropAfterStore,
    /// Wait this long before handling the request.
    Slow(Duration),
    /// Answer `302 Found` to this absolute URL.
    Redirect(&'static str),
    /// Answer this status and body as is.
    Body(u16, &'static str),
    /// Answer 200 with a body of this many bytes.
    Huge(usize),
    /// Answer 200 with these bytes (e.g. another bundle than the one asked for).
    Bytes(&'static [u8]),
}

#[derive(Debug, Clone)]
pub struct Fault {
    pub route: Route,
    pub kind: FaultKind,
    pub times: u32,
}

#[derive(Debug, Clone)]
pub struct Stored {
    pub digest: String,
    pub gz: Vec<u8>,
}

#[derive(Debug, Default)]
pub struct Repo {
    pub private: bool,
    /// An image repository of the same name: pushes get Quay's 405 string error.
    pub image: bool,
    pub releases: BTreeMap<String, Stored>,
}

/// One request as the fake saw it.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: String,
    pub path: String,
    pub authorization: Option<String>,
}

#[derive(Debug, Default)]
pub struct State {
    pub repos: BTreeMap<(String, String), Repo>,
    pub faults: Vec<Fault>,
    pub seen: Vec<Seen>,
}

pub struct Fake {
    /// The CNR base URL, e.g. `http://127.0.0.1:PORT/cnr`.
    pub url: String,
    pub state: Arc<Mutex<State>>,
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl Fake {
    pub fn start() -> Fake {
        let state = Arc::new(Mutex::new(State::default()));
        let shared = state.clone();
        let (addr, stop) = crate::support::serve_on_loopback(move |listener| async move {
            let app = axum::Router::new()
                .fallback(move |m, u, h, b| handler::handle(shared.clone(), m, u, h, b));
            axum::serve(listener, app).await.unwrap();
        });
        Fake {
            url: format!("http://{addr}/cnr"),
            state,
            _stop: stop,
        }
    }

    pub fn fault(&self, route: Route, kind: FaultKind, times: u32) {
        self.state
            .lock()
            .unwrap()
            .faults
            .push(Fault { route, kind, times });
    }

    /// Adds a repository with one release (a real bundle tarball).
    pub fn add_release(&self, ns: &str, pkg: &str, release: &str, gz: Vec<u8>, private: bool) {
        let mut st = self.state.lock().unwrap();
        let repo = st.repos.entry((ns.into(), pkg.into())).or_default();
        repo.private = private;
        repo.releases.insert(
            release.into(),
            Stored {
                digest: digest_of(&gz),
                gz,
            },
        );
    }

    pub fn add_image_repo(&self, ns: &str, pkg: &str) {
        let mut st = self.state.lock().unwrap();
        st.repos.entry((ns.into(), pkg.into())).or_default().image = true;
    }

    /// Release → digest of a package, as stored.
    pub fn releases(&self, ns: &str, pkg: &str) -> BTreeMap<String, String> {
        let st = self.state.lock().unwrap();
        st.repos
            .get(&(ns.to_string(), pkg.to_string()))
            .map(|r| {
                r.releases
                    .iter()
                    .map(|(k, v)| (k.clone(), v.digest.clone()))
                    .collect()
            })
            .unwrap_or_default()
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.state.lock().unwrap().seen.clone()
    }

    /// How many push requests arrived.
    pub fn pushes(&self) -> usize {
        self.seen()
            .iter()
            .filter(|s| {
                s.method == "POST"
                    && s.path.matches('/').count() == 6
                    && !s.path.contains("/users/")
            })
            .count()
    }
}

/// sha256 of the uncompressed tar, streamed (a test's gzip bomb is never held whole: a
/// child process inherits this process's peak memory, which would skew its measure).
pub fn digest_of(gz: &[u8]) -> String {
    let mut tar = flate2::read::GzDecoder::new(gz);
    let mut hasher = sha2::Sha256::new();
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        let n = tar.read(&mut chunk).unwrap();
        if n == 0 {
            break;
        }
        hasher.update(&chunk[..n]);
    }
    hex::encode(hasher.finalize())
}
