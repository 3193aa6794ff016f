//! The proxy's side of the wire: reading one request, applying its fault, forwarding it to
//! upstream and relaying (or mangling) the answer.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::{Echo, Fault, Seen, Shared};

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

pub(super) async fn serve(mut client: TcpStream, shared: Arc<Shared>) {
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
        Some(Fault::Before(hook)) => {
            (hook.0)();
            forward(client, &head, &body, shared, Relay::Whole).await
        }
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
