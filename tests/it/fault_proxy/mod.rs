//! A loopback, fault-injecting HTTP/1.1 proxy of ours, for the fault and untrusted-answer tests.
//!
//! It listens on `127.0.0.1:0` and forwards each request to an upstream port on 127.0.0.1 (the
//! real appr server, or the GitHub fake). Every client connection carries exactly one request:
//! the proxy asks upstream for `Connection: close` and tells the client the same, so "the N-th
//! request" is well defined even though clients pool connections. [`Rule`]s pick requests by
//! method and path and inject a [`Fault`] on some of them: a reset with or without a partial
//! answer, gateway errors before or after upstream acted, a 429 with `retry-after`, a stall
//! past the client's timeout, the whole server going away (later connections are refused), a
//! canned answer (HTML, bad JSON, a redirect), or an error page that echoes the request's
//! headers (as some misconfigured servers do), `Authorization` included; or a hook that runs
//! before the request is forwarded (another job's release landing just before this push).
//!
//! Each request is logged (method, path, `Authorization`, the fault applied) for the tests to
//! inspect. The proxy runs on its own thread and runtime, so plain `#[test]`s and tokio tests
//! can both use it; dropping it stops it.

#![allow(dead_code)]

use std::sync::atomic::{AtomicBool, AtomicU16, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::net::TcpListener;

mod wire;

/// What to do to one request.
#[derive(Debug, Clone)]
pub enum Fault {
    /// Reset the connection without forwarding or answering.
    Reset,
    /// Forward; relay the answer's head and half of its body, then reset (upstream acted).
    ResetMidBody,
    /// Forward; relay the head and half of the body, then close cleanly (a truncated body).
    TruncateBody,
    /// Answer this status with a gateway's HTML page, without forwarding.
    Status(u16),
    /// Forward (upstream acts), drop its answer, answer this status instead.
    StatusAfterForward(u16),
    /// Answer 429 with `retry-after: seconds`, without forwarding.
    RateLimit(u64),
    /// Read the request and never answer (until the client gives up).
    Stall,
    /// Forward (upstream acts) and never answer.
    StallAfterForward,
    /// Stop listening (every later connection is refused) and reset this one.
    GoAway,
    /// Answer exactly this, without forwarding.
    Respond {
        status: u16,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
    },
    /// Answer `status` with a body that echoes the request (head and body), in the given shape.
    Echo { status: u16, shape: Echo },
    /// Run the hook (on the proxy's thread, before forwarding), then forward untouched: e.g.
    /// another job's publication landing just before this request.
    Before(Hook),
}

/// Something a test does when a request arrives (see [`Fault::Before`]).
#[derive(Clone)]
pub struct Hook(pub Arc<dyn Fn() + Send + Sync>);

impl std::fmt::Debug for Hook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Hook")
    }
}

/// The shape of an echoing error body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Echo {
    /// `{"message": "<head>"}` (GitHub's and appr's shape).
    Json,
    /// `{"error": {"code": "bad-request", "message": "<head>"}}` (Quay's envelope).
    Envelope,
    /// The head as plain text.
    Text,
    /// An HTML page with the head in its title and body.
    Html,
    /// `{"message": "<pad><head>"}`, padded so the token straddles a 300-character cut.
    Straddle,
}

/// Which requests a rule hits: `method` (any if `None`) and a path (with query) containing
/// `path` (ending with it, when `path` ends with `$`); the first `skip` matches pass, the next
/// `times` get the fault.
#[derive(Debug, Clone)]
pub struct Rule {
    pub method: Option<&'static str>,
    pub path: &'static str,
    pub skip: u32,
    pub times: u32,
    pub fault: Fault,
}

impl Rule {
    /// Every request with this method whose path contains `path`.
    pub fn on(method: Option<&'static str>, path: &'static str, fault: Fault) -> Rule {
        Rule {
            method,
            path,
            skip: 0,
            times: u32::MAX,
            fault,
        }
    }

    /// Only the first `n` matching requests.
    pub fn times(mut self, n: u32) -> Rule {
        self.times = n;
        self
    }

    /// Let the first `n` matching requests pass.
    pub fn skip(mut self, n: u32) -> Rule {
        self.skip = n;
        self
    }
}

/// One request as the proxy saw it.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: String,
    pub path: String,
    pub authorization: Option<String>,
    /// The fault applied, if any (its `Debug` form, shortened).
    pub fault: Option<String>,
}

#[derive(Default)]
struct State {
    rules: Vec<(Rule, u32)>,
    seen: Vec<Seen>,
}

struct Shared {
    upstream: AtomicU16,
    state: Mutex<State>,
    down: tokio::sync::Notify,
    up: tokio::sync::Notify,
    /// False between a [`Fault::GoAway`] and the re-bind after [`Proxy::revive`].
    listening: AtomicBool,
}

pub struct Proxy {
    /// `http://127.0.0.1:PORT`.
    pub origin: String,
    pub port: u16,
    shared: Arc<Shared>,
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl Proxy {
    /// A proxy in front of `127.0.0.1:upstream` (0: set it later with [`Proxy::upstream`]).
    pub fn start(upstream: u16, rules: Vec<Rule>) -> Proxy {
        let shared = Arc::new(Shared {
            upstream: AtomicU16::new(upstream),
            state: Mutex::new(State {
                rules: rules.into_iter().map(|r| (r, 0)).collect(),
                seen: Vec::new(),
            }),
            down: tokio::sync::Notify::new(),
            up: tokio::sync::Notify::new(),
            listening: AtomicBool::new(true),
        });
        let s = shared.clone();
        let (addr, stop) =
            crate::support::serve_on_loopback(move |listener| accept_loop(listener, s));
        let port = addr.port();
        Proxy {
            origin: format!("http://127.0.0.1:{port}"),
            port,
            shared,
            _stop: stop,
        }
    }

    /// Removes every rule: from now on requests pass untouched.
    pub fn clear(&self) {
        self.shared.state.lock().unwrap().rules.clear();
    }

    /// Listens again on the same port after a [`Fault::GoAway`]; returns once it does.
    pub fn revive(&self) {
        if self.shared.listening.load(Ordering::SeqCst) {
            return;
        }
        self.shared.up.notify_one();
        while !self.shared.listening.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Sets the upstream port.
    pub fn upstream(&self, port: u16) {
        self.shared.upstream.store(port, Ordering::SeqCst);
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.shared.state.lock().unwrap().seen.clone()
    }

    /// How many requests got a fault.
    pub fn faults_applied(&self) -> usize {
        self.seen().iter().filter(|s| s.fault.is_some()).count()
    }
}

/// A port on 127.0.0.1 where nothing listens (connections are refused).
pub fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

/// The port of an `http://127.0.0.1:PORT/...` URL.
pub fn port_of(url: &str) -> u16 {
    let rest = url.strip_prefix("http://").expect("an http:// URL");
    let hostport = rest.split('/').next().unwrap();
    hostport.rsplit_once(':').unwrap().1.parse().unwrap()
}

async fn accept_loop(mut listener: TcpListener, shared: Arc<Shared>) {
    let port = listener.local_addr().unwrap().port();
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((conn, _)) = accepted else { continue };
                tokio::spawn(wire::serve(conn, shared.clone()));
                continue;
            }
            _ = shared.down.notified() => {}
        }
        drop(listener);
        shared.up.notified().await;
        listener = TcpListener::bind(("127.0.0.1", port))
            .await
            .expect("the proxy's port is free again");
        shared.listening.store(true, Ordering::SeqCst);
    }
}

/// Starts the GitHub fake behind `proxy` (the fake writes the proxy's origin into its URLs, so
/// uploads come back through the proxy). The fake binds a port picked beforehand, which another
/// test may take meanwhile; then another is tried.
pub async fn github_fake_behind(proxy: &Proxy) -> crate::github_fake::Fake {
    for _ in 0..20 {
        let port = closed_port();
        let origin = proxy.origin.clone();
        let started = tokio::spawn(async move {
            crate::github_fake::Fake::start_on(port, Some(origin), false).await
        })
        .await;
        if let Ok(fake) = started {
            proxy.upstream(port);
            return fake;
        }
    }
    panic!("no free port for the GitHub fake after 20 tries");
}
