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
//! headers (as some misconfigured servers do), `Authorization` included.
//!
//! Each request is logged (method, path, `Authorization`, the fault applied) for the tests to
//! inspect. The proxy runs on its own thread and runtime, so plain `#[test]`s and tokio tests
//! can both use it; dropping it stops it.

#![allow(dead_code)]

use std::sync::atomic::{AtomicBool, AtomicU16, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

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
        let (tx, rx) = std::sync::mpsc::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let s = shared.clone();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
                tx.send(listener.local_addr().unwrap().port()).unwrap();
                tokio::select! {
                    _ = accept_loop(listener, s) => {}
                    _ = stopped => {}
                }
            });
        });
        let port = rx.recv().unwrap();
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
                tokio::spawn(serve(conn, shared.clone()));
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

/// A request or response head, and the bytes of the body read with it.
struct Head {
    text: String,
    rest: Vec<u8>,
}

impl Head {
    fn header(&self, name: &str) -> Option<&str> {
        self.text.lines().skip(1).find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
        })
    }

    fn content_length(&self) -> Option<usize> {
        self.header("content-length").and_then(|v| v.parse().ok())
    }

    fn chunked(&self) -> bool {
        self.header("transfer-encoding")
            .is_some_and(|v| v.eq_ignore_ascii_case("chunked"))
    }

    /// The head with `Connection: close` instead of any connection header.
    fn closing(&self) -> Vec<u8> {
        let mut out = String::new();
        for (i, line) in self.text.split("\r\n").enumerate() {
            let lower = line.to_ascii_lowercase();
            if i > 0 && (lower.starts_with("connection:") || lower.starts_with("keep-alive:")) {
                continue;
            }
            if line.is_empty() {
                continue;
            }
            out.push_str(line);
            out.push_str("\r\n");
        }
        out.push_str("Connection: close\r\n\r\n");
        out.into_bytes()
    }
}

/// Reads up to the end of a head; `None` on EOF first.
async fn read_head(s: &mut TcpStream) -> Option<Head> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let text = String::from_utf8_lossy(&buf[..end + 4]).into_owned();
            return Some(Head {
                text,
                rest: buf[end + 4..].to_vec(),
            });
        }
        let n = s.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

/// Reads a request's whole body (by `Content-Length`, or to the last chunk).
async fn read_body(s: &mut TcpStream, head: &Head) -> Option<Vec<u8>> {
    let mut body = head.rest.clone();
    let mut chunk = [0u8; 65536];
    let done = |b: &[u8]| match head.content_length() {
        Some(n) => b.len() >= n,
        None if head.chunked() => b.ends_with(b"0\r\n\r\n"),
        None => true,
    };
    while !done(&body) {
        let n = s.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    Some(body)
}

/// Drops a connection with a TCP reset. (`SO_LINGER` is deprecated in tokio because a
/// non-zero linger blocks on drop; a zero linger resets at once.)
#[allow(deprecated)]
fn reset(s: TcpStream) {
    let _ = s.set_linger(Some(Duration::ZERO));
    drop(s);
}

/// Waits until the client closes its side (it gave up), or a minute.
async fn hold(mut s: TcpStream) {
    let mut buf = [0u8; 1024];
    let _ = tokio::time::timeout(Duration::from_secs(60), async {
        while let Ok(n) = s.read(&mut buf).await {
            if n == 0 {
                break;
            }
        }
    })
    .await;
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        302 => "Found",
        400 => "Bad Request",
        401 => "Unauthorized",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "Status",
    }
}

fn response(status: u16, headers: &[(String, String)], body: &[u8]) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 {status} {}\r\n", reason(status));
    for (k, v) in headers {
        out.push_str(&format!("{k}: {v}\r\n"));
    }
    out.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    ));
    let mut bytes = out.into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

fn gateway_page(status: u16) -> Vec<u8> {
    response(
        status,
        &[("Content-Type".into(), "text/html".into())],
        format!(
            "<html><head><title>{status} {}</title></head><body><center><h1>{status} {}</h1></center><hr><center>nginx</center></body></html>\n",
            reason(status),
            reason(status)
        )
        .as_bytes(),
    )
}

fn echo(status: u16, shape: Echo, head: &str) -> Vec<u8> {
    let json = |v: serde_json::Value| {
        response(
            status,
            &[("Content-Type".into(), "application/json".into())],
            v.to_string().as_bytes(),
        )
    };
    match shape {
        Echo::Json => json(serde_json::json!({"message": format!("bad request: {head}")})),
        Echo::Envelope => json(serde_json::json!({"error": {"code": "bad-request",
            "message": format!("bad request: {head}"), "details": {"headers": head}}})),
        Echo::Straddle => {
            // Put character 300 (where quotes are cut) 16 characters into the token, after
            // the scheme word of the Authorization value.
            let at = head.find("uthorization: ").map(|i| i + 14).unwrap_or(0);
            let pad = "x".repeat(278usize.saturating_sub(at));
            json(serde_json::json!({"message": format!("{pad}{head}")}))
        }
        Echo::Text => response(
            status,
            &[("Content-Type".into(), "text/plain".into())],
            format!("request rejected\n{head}").as_bytes(),
        ),
        Echo::Html => response(
            status,
            &[("Content-Type".into(), "text/html".into())],
            format!("<html><title>{head}</title><body><pre>{head}</pre></body></html>").as_bytes(),
        ),
    }
}

async fn serve(mut client: TcpStream, shared: Arc<Shared>) {
    let Some(head) = read_head(&mut client).await else {
        return;
    };
    let Some(body) = read_body(&mut client, &head).await else {
        return;
    };
    let first = head.text.lines().next().unwrap_or("").to_string();
    let mut parts = first.split(' ');
    let (method, path) = (
        parts.next().unwrap_or("").to_string(),
        parts.next().unwrap_or("").to_string(),
    );
    let fault = {
        let mut st = shared.state.lock().unwrap();
        let mut hit = None;
        for (rule, matched) in st.rules.iter_mut() {
            let hit_path = match rule.path.strip_suffix('$') {
                Some(end) => path.ends_with(end),
                None => path.contains(rule.path),
            };
            if rule.method.is_some_and(|m| m != method) || !hit_path {
                continue;
            }
            *matched += 1;
            if *matched > rule.skip && *matched - rule.skip <= rule.times && hit.is_none() {
                hit = Some(rule.fault.clone());
            }
        }
        st.seen.push(Seen {
            method: method.clone(),
            path: path.clone(),
            authorization: head.header("authorization").map(str::to_string),
            fault: hit.as_ref().map(|f| {
                let d = format!("{f:?}");
                d.chars().take(60).collect()
            }),
        });
        hit
    };
    match fault {
        None => forward(client, &head, &body, shared, Relay::Whole).await,
        Some(Fault::Reset) => reset(client),
        Some(Fault::GoAway) => {
            shared.listening.store(false, Ordering::SeqCst);
            shared.down.notify_one();
            reset(client);
        }
        Some(Fault::ResetMidBody) => forward(client, &head, &body, shared, Relay::HalfReset).await,
        Some(Fault::TruncateBody) => forward(client, &head, &body, shared, Relay::HalfClose).await,
        Some(Fault::StatusAfterForward(s)) => {
            forward(client, &head, &body, shared, Relay::Replace(s)).await
        }
        Some(Fault::StallAfterForward) => forward(client, &head, &body, shared, Relay::Stall).await,
        Some(Fault::Status(s)) => answer(client, gateway_page(s)).await,
        Some(Fault::RateLimit(secs)) => {
            answer(
                client,
                response(
                    429,
                    &[
                        ("Retry-After".into(), secs.to_string()),
                        ("Content-Type".into(), "application/json".into()),
                    ],
                    br#"{"message": "rate limited by the proxy"}"#,
                ),
            )
            .await
        }
        Some(Fault::Stall) => hold(client).await,
        Some(Fault::Respond {
            status,
            headers,
            body,
        }) => answer(client, response(status, &headers, &body)).await,
        Some(Fault::Echo { status, shape }) => {
            let request = format!("{}{}", head.text, String::from_utf8_lossy(&body));
            answer(client, echo(status, shape, &request)).await
        }
    }
}

/// Writes a whole answer and closes.
async fn answer(mut client: TcpStream, bytes: Vec<u8>) {
    let _ = client.write_all(&bytes).await;
    let _ = client.shutdown().await;
}

enum Relay {
    Whole,
    HalfReset,
    HalfClose,
    Replace(u16),
    Stall,
}

async fn forward(mut client: TcpStream, head: &Head, body: &[u8], shared: Arc<Shared>, how: Relay) {
    let port = shared.upstream.load(Ordering::SeqCst);
    let Ok(mut up) = TcpStream::connect(("127.0.0.1", port)).await else {
        let _ = client.write_all(&gateway_page(502)).await;
        return;
    };
    let mut request = head.closing();
    request.extend_from_slice(body);
    if up.write_all(&request).await.is_err() {
        reset(client);
        return;
    }
    let Some(answer) = read_head(&mut up).await else {
        reset(client);
        return;
    };
    // The whole body: by Content-Length, else until upstream closes.
    let mut rest = answer.rest.clone();
    let mut chunk = [0u8; 65536];
    loop {
        if answer.content_length().is_some_and(|n| rest.len() >= n) {
            break;
        }
        match up.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => rest.extend_from_slice(&chunk[..n]),
        }
    }
    drop(up);
    match how {
        Relay::Whole => {
            let _ = client.write_all(&answer.closing()).await;
            let _ = client.write_all(&rest).await;
            let _ = client.shutdown().await;
        }
        Relay::HalfReset | Relay::HalfClose => {
            let _ = client.write_all(&answer.closing()).await;
            let _ = client.write_all(&rest[..rest.len() / 2]).await;
            let _ = client.flush().await;
            if matches!(how, Relay::HalfReset) {
                // Let the partial answer reach the client before the reset.
                tokio::time::sleep(Duration::from_millis(50)).await;
                reset(client);
            } else {
                let _ = client.shutdown().await;
            }
        }
        Relay::Replace(s) => {
            let _ = client.write_all(&gateway_page(s)).await;
            let _ = client.shutdown().await;
        }
        Relay::Stall => hold(client).await,
    }
}
