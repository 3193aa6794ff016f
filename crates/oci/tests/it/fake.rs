//! An in-process OCI registry with the Bearer token flow quay.io and Docker Hub use: every
//! `/v2/` request without the right token gets `401` with
//! `WWW-Authenticate: Bearer realm="http://ADDR/token",service="fake-registry",scope="repository:NAME:pull,push"`;
//! `GET /token` checks HTTP Basic credentials and returns `{"token": …}`. It stores blobs and
//! manifests in memory and can inject faults: a number of 503s first, or other bytes served
//! for a manifest read by digest (a broken read-back).

#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use sha2::Digest;

pub const USER: &str = "robot$olm";
pub const PASSWORD: &str = "fake-registry-Pa55w0rd";
/// The token the fake issues (a test checks it never shows).
pub const TOKEN: &str = "eyJfake.token.value-0123456789";

#[derive(Debug, Default)]
pub struct State {
    pub blobs: HashMap<String, Vec<u8>>,
    /// Tag or digest → (media type, bytes).
    pub manifests: HashMap<String, (String, Vec<u8>)>,
    pub uploads: u32,
    /// (method, path, authorization) of every request.
    pub seen: Vec<(String, String, Option<String>)>,
    /// Scopes asked of the token endpoint.
    pub scopes: Vec<String>,
    /// Answer this many `/v2/` requests with 503 first.
    pub unavailable: u32,
    /// Serve other bytes for manifests read by digest.
    pub tamper_read_back: bool,
    /// Send this realm in challenges instead of the fake's own `/token`.
    pub realm: Option<String>,
    /// Answer upload starts with this `Location` instead of the fake's own.
    pub upload_location: Option<String>,
}

pub struct Fake {
    pub addr: std::net::SocketAddr,
    pub state: Arc<Mutex<State>>,
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl Fake {
    pub fn start() -> Fake {
        let state = Arc::new(Mutex::new(State::default()));
        let shared = state.clone();
        let (addr, stop) = crate::support::serve_on_loopback(move |listener| async move {
            let addr = listener.local_addr().unwrap();
            let app = axum::Router::new()
                .fallback(move |m, u, h, b| handle(shared.clone(), addr, m, u, h, b));
            axum::serve(listener, app).await.unwrap();
        });
        Fake {
            addr,
            state,
            _stop: stop,
        }
    }

    /// `127.0.0.1:PORT/REPOSITORY`.
    pub fn target(&self, repository: &str) -> String {
        format!("{}/{repository}", self.addr)
    }

    pub fn seen(&self) -> Vec<(String, String, Option<String>)> {
        self.state.lock().unwrap().seen.clone()
    }
}

fn errors(status: u16, code: &str, message: &str) -> Response {
    let body = serde_json::json!({"errors": [{"code": code, "message": message, "detail": null}]});
    (StatusCode::from_u16(status).unwrap(), axum::Json(body)).into_response()
}

fn digest(bytes: &[u8]) -> String {
    format!("sha256:{}", hex::encode(sha2::Sha256::digest(bytes)))
}

async fn handle(
    state: Arc<Mutex<State>>,
    addr: std::net::SocketAddr,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path = uri.path().to_string();
    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let mut st = state.lock().unwrap();
    st.seen
        .push((method.to_string(), path.clone(), auth.clone()));

    if path == "/token" {
        let want = format!(
            "Basic {}",
            base64::engine::general_purpose::STANDARD.encode(format!("{USER}:{PASSWORD}"))
        );
        if auth.as_deref() != Some(want.as_str()) {
            return errors(401, "UNAUTHORIZED", "bad credentials");
        }
        let scope = uri
            .query()
            .unwrap_or("")
            .split('&')
            .find_map(|kv| kv.strip_prefix("scope="))
            .unwrap_or("")
            .replace("%3A", ":")
            .replace("%2F", "/")
            .replace("%2C", ",");
        st.scopes.push(scope);
        return axum::Json(serde_json::json!({"token": TOKEN, "expires_in": 300})).into_response();
    }
    let Some(rest) = path.strip_prefix("/v2/") else {
        return errors(404, "NOT_FOUND", "not a registry path");
    };
    if st.unavailable > 0 {
        st.unavailable -= 1;
        return errors(503, "UNAVAILABLE", "try again");
    }
    // Everything under /v2/ needs the token.
    let name = rest
        .split_once("/manifests/")
        .or_else(|| rest.split_once("/blobs/"))
        .map(|(n, _)| n.to_string());
    if auth.as_deref() != Some(format!("Bearer {TOKEN}").as_str()) {
        let scope = name
            .as_ref()
            .map(|n| format!(",scope=\"repository:{n}:pull,push\""))
            .unwrap_or_default();
        let realm = st
            .realm
            .clone()
            .unwrap_or_else(|| format!("http://{addr}/token"));
        let mut r = errors(401, "UNAUTHORIZED", "authentication required");
        r.headers_mut().insert(
            "www-authenticate",
            format!("Bearer realm=\"{realm}\",service=\"fake-registry\"{scope}")
                .parse()
                .unwrap(),
        );
        return r;
    }
    if rest.is_empty() {
        return StatusCode::OK.into_response();
    }
    let Some(name) = name else {
        return errors(404, "NAME_UNKNOWN", "unknown path");
    };
    let tail = &rest[name.len() + 1..];
    match (&method, tail.split_once('/')) {
        (&Method::POST, Some(("blobs", "uploads/"))) => {
            st.uploads += 1;
            let loc = st.upload_location.clone().unwrap_or_else(|| {
                format!("/v2/{name}/blobs/uploads/session-{}?state=abc", st.uploads)
            });
            (StatusCode::ACCEPTED, [("location", loc)]).into_response()
        }
        (&Method::PUT, Some(("blobs", up))) if up.starts_with("uploads/") => {
            let want = uri
                .query()
                .unwrap_or("")
                .split('&')
                .find_map(|kv| kv.strip_prefix("digest="))
                .unwrap_or("")
                .replace("%3A", ":");
            if digest(&body) != want {
                return errors(400, "DIGEST_INVALID", "digest mismatch");
            }
            st.blobs.insert(want.clone(), body.to_vec());
            (StatusCode::CREATED, [("docker-content-digest", want)]).into_response()
        }
        (&Method::GET, Some(("blobs", d))) => match st.blobs.get(d) {
            Some(bytes) => (StatusCode::OK, bytes.clone()).into_response(),
            None => errors(404, "BLOB_UNKNOWN", "blob unknown"),
        },
        (&Method::HEAD, Some(("blobs", d))) => if st.blobs.contains_key(d) {
            StatusCode::OK
        } else {
            StatusCode::NOT_FOUND
        }
        .into_response(),
        (&Method::PUT, Some(("manifests", reference))) => {
            let media = headers
                .get("content-type")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_string();
            let d = digest(&body);
            st.manifests
                .insert(reference.to_string(), (media.clone(), body.to_vec()));
            st.manifests.insert(d.clone(), (media, body.to_vec()));
            (StatusCode::CREATED, [("docker-content-digest", d)]).into_response()
        }
        (m, Some(("manifests", reference))) if m == Method::GET || m == Method::HEAD => {
            let Some((media, bytes)) = st.manifests.get(reference).cloned() else {
                return errors(404, "MANIFEST_UNKNOWN", "manifest unknown");
            };
            let d = digest(&bytes);
            let bytes = if st.tamper_read_back && reference.starts_with("sha256:") {
                let mut b = bytes.clone();
                b.push(b' ');
                b
            } else {
                bytes
            };
            let headers = [("content-type", media), ("docker-content-digest", d)];
            if m == Method::HEAD {
                (StatusCode::OK, headers).into_response()
            } else {
                (StatusCode::OK, headers, bytes).into_response()
            }
        }
        _ => errors(405, "UNSUPPORTED", "not supported by the fake"),
    }
}
