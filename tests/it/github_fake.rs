//! A stateful, in-process fake of GitHub's releases API for the GitHub target's tests.
//!
//! It keeps releases and their assets (bytes stored exactly as uploaded, `sha256:` digests),
//! answers like GitHub where it matters (GitHub's REST docs for releases and release assets): get-by-tag never returns a
//! draft; lists are paged with `Link: rel="next"`; a duplicate tag or asset name is a 422
//! `already_exists`; a 502 fault leaves an empty asset in state `starter`; a 403 fault is a
//! secondary rate limit with `retry-after`; requests without the expected token get 401. In
//! GitHub Enterprise mode the API lives under `/api/v3` and uploads under `/api/uploads`, and
//! nothing else answers. Its JSON carries every field GitHub's OpenAPI description requires
//! (shaped after its `components.examples`), so it can sit behind `prism proxy --errors`.
//! Every request is logged as `METHOD path?query` for the tests to inspect.

#![allow(dead_code)]

use std::sync::{Arc, Mutex, MutexGuard};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

pub const TOKEN: &str = "ghp_fake_token_for_tests";
pub const OWNER: &str = "acme";
pub const REPO: &str = "sample-operator";

#[derive(Debug, Clone)]
pub struct FakeAsset {
    pub id: u64,
    pub name: String,
    pub state: String,
    pub bytes: Vec<u8>,
}

impl FakeAsset {
    pub fn digest(&self) -> Option<String> {
        (self.state == "uploaded").then(|| {
            format!(
                "sha256:{}",
                olm_release_base::digest::sha256_hex(&self.bytes)
            )
        })
    }
}

#[derive(Debug, Clone)]
pub struct FakeRelease {
    pub id: u64,
    pub tag: String,
    pub draft: bool,
    pub prerelease: bool,
    /// The release notes (`body`), as the last create or update sent them.
    pub body: Option<String>,
    pub assets: Vec<FakeAsset>,
}

/// The fake's state; tests seed it and inspect it.
#[derive(Debug, Default)]
pub struct World {
    /// Newest first, as GitHub lists them.
    pub releases: Vec<FakeRelease>,
    pub next_id: u64,
    pub log: Vec<String>,
    /// Items per page at most (GitHub: 100).
    pub page_cap: usize,
    /// The next N uploads fail with 502 after creating a `starter` asset.
    pub uploads_502: u32,
    /// The next N uploads get a 403 secondary rate limit with `retry-after: 1`.
    pub uploads_limited: u32,
    /// The next N release creations get a 422 that is not `already_exists`.
    pub creates_422: u32,
}

impl World {
    pub fn release(&self, tag: &str) -> Option<&FakeRelease> {
        self.releases.iter().find(|r| r.tag == tag)
    }

    fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// Adds a release (newest first) and returns its id.
    pub fn seed_release(&mut self, tag: &str, draft: bool) -> u64 {
        let id = self.id();
        self.releases.insert(
            0,
            FakeRelease {
                id,
                tag: tag.into(),
                draft,
                prerelease: false,
                body: None,
                assets: Vec::new(),
            },
        );
        id
    }

    /// Adds an asset to the release for `tag` and returns its id.
    pub fn seed_asset(&mut self, tag: &str, name: &str, state: &str, bytes: &[u8]) -> u64 {
        let id = self.id();
        let r = self.releases.iter_mut().find(|r| r.tag == tag).unwrap();
        r.assets.push(FakeAsset {
            id,
            name: name.into(),
            state: state.into(),
            bytes: bytes.to_vec(),
        });
        id
    }

    /// The log lines that start with `prefix` (e.g. `POST`).
    pub fn requests(&self, prefix: &str) -> Vec<String> {
        self.log
            .iter()
            .filter(|l| l.starts_with(prefix))
            .cloned()
            .collect()
    }

    /// Index of the first log line containing `needle`.
    pub fn position(&self, needle: &str) -> Option<usize> {
        self.log.iter().position(|l| l.contains(needle))
    }
}

struct Shared {
    world: Mutex<World>,
    /// Origin and prefixes written into URLs (the proxy's origin when behind Prism).
    origin: String,
    /// The repository served, `OWNER/NAME`.
    repo: String,
    api_prefix: &'static str,
    upload_prefix: &'static str,
}

/// A running fake.
pub struct Fake {
    shared: Arc<Shared>,
    /// The API base to put in `release.api_url`.
    pub api: String,
    /// Where the fake listens (for a front such as a TLS terminator).
    addr: std::net::SocketAddr,
}

impl Fake {
    /// A fake on a free loopback port.
    pub async fn start(ghes: bool) -> Fake {
        Self::start_on(0, None, ghes).await
    }

    /// A fake on `port`; `public` is the origin clients reach it through (Prism), if not direct.
    pub async fn start_on(port: u16, public: Option<String>, ghes: bool) -> Fake {
        Self::serve(port, public, ghes, format!("{OWNER}/{REPO}")).await
    }

    /// A fake on a free loopback port serving the releases of `repo` (`OWNER/NAME`) instead.
    pub async fn start_for(repo: &str) -> Fake {
        Self::serve(0, None, false, repo.to_string()).await
    }

    async fn serve(port: u16, public: Option<String>, ghes: bool, repo: String) -> Fake {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
            .await
            .unwrap();
        let addr = listener.local_addr().unwrap();
        let origin = public.unwrap_or_else(|| {
            format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port())
        });
        let (api_prefix, upload_prefix) = if ghes {
            ("/api/v3", "/api/uploads")
        } else {
            ("", "")
        };
        let shared = Arc::new(Shared {
            world: Mutex::new(World {
                page_cap: 100,
                ..World::default()
            }),
            origin: origin.clone(),
            repo,
            api_prefix,
            upload_prefix,
        });
        let app = Router::new().fallback(handle).with_state(shared.clone());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Fake {
            shared,
            api: format!("{origin}{api_prefix}"),
            addr,
        }
    }

    /// The plain-HTTP address the fake listens on.
    pub fn backend(&self) -> std::net::SocketAddr {
        self.addr
    }

    pub fn world(&self) -> MutexGuard<'_, World> {
        self.shared.world.lock().unwrap()
    }
}

fn error(status: StatusCode, message: &str, errors: Option<Value>) -> Response {
    let mut body = json!({
        "message": message,
        "documentation_url": "https://docs.github.com/rest/releases",
    });
    if let Some(e) = errors {
        body["errors"] = e;
    }
    (status, axum::Json(body)).into_response()
}

fn already_exists(resource: &str, field: &str) -> Response {
    error(
        StatusCode::UNPROCESSABLE_ENTITY,
        "Validation Failed",
        Some(json!([{"resource": resource, "code": "already_exists", "field": field}])),
    )
}

fn user(origin: &str) -> Value {
    json!({
        "login": "octocat", "id": 1, "node_id": "MDQ6VXNlcjE=",
        "avatar_url": format!("{origin}/images/octocat.gif"), "gravatar_id": "",
        "url": format!("{origin}/users/octocat"), "html_url": format!("{origin}/octocat"),
        "followers_url": format!("{origin}/users/octocat/followers"),
        "following_url": format!("{origin}/users/octocat/following{{/other_user}}"),
        "gists_url": format!("{origin}/users/octocat/gists{{/gist_id}}"),
        "starred_url": format!("{origin}/users/octocat/starred{{/owner}}{{/repo}}"),
        "subscriptions_url": format!("{origin}/users/octocat/subscriptions"),
        "organizations_url": format!("{origin}/users/octocat/orgs"),
        "repos_url": format!("{origin}/users/octocat/repos"),
        "events_url": format!("{origin}/users/octocat/events{{/privacy}}"),
        "received_events_url": format!("{origin}/users/octocat/received_events"),
        "type": "User", "site_admin": false,
    })
}

const TIME: &str = "2013-02-27T19:35:32Z";

impl Shared {
    fn repo_url(&self) -> String {
        format!("{}{}/repos/{}", self.origin, self.api_prefix, self.repo)
    }

    fn asset_json(&self, a: &FakeAsset) -> Value {
        json!({
            "url": format!("{}/releases/assets/{}", self.repo_url(), a.id),
            "browser_download_url": format!("{}/{}/releases/download/v/{}", self.origin, self.repo, a.name),
            "id": a.id, "node_id": format!("RA_{}", a.id), "name": a.name, "label": null,
            "state": a.state, "content_type": "application/octet-stream",
            "size": a.bytes.len(), "digest": a.digest(), "download_count": 0,
            "created_at": TIME, "updated_at": TIME, "uploader": user(&self.origin),
        })
    }

    fn release_json(&self, r: &FakeRelease) -> Value {
        let url = format!("{}/releases/{}", self.repo_url(), r.id);
        json!({
            "url": url, "html_url": format!("{}/{}/releases/tag/{}", self.origin, self.repo, r.tag),
            "assets_url": format!("{url}/assets"),
            "upload_url": format!("{}{}/repos/{}/releases/{}/assets{{?name,label}}",
                self.origin, self.upload_prefix, self.repo, r.id),
            "tarball_url": format!("{}/tarball/{}", self.repo_url(), r.tag),
            "zipball_url": format!("{}/zipball/{}", self.repo_url(), r.tag),
            "id": r.id, "node_id": format!("RE_{}", r.id), "tag_name": r.tag,
            "target_commitish": "main", "name": r.tag, "body": r.body, "draft": r.draft,
            "prerelease": r.prerelease, "immutable": false, "created_at": TIME,
            "published_at": if r.draft { Value::Null } else { json!(TIME) },
            "author": user(&self.origin),
            "assets": r.assets.iter().map(|a| self.asset_json(a)).collect::<Vec<_>>(),
        })
    }
}

fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if let Some(v) = (b[i] == b'%')
            .then(|| s.get(i + 1..i + 3))
            .flatten()
            .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(if b[i] == b'+' { b' ' } else { b[i] });
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn query(q: &str, key: &str) -> Option<String> {
    q.split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| decode(v))
}

/// A page of `items` as GitHub pages it, with a `Link` header when more follow.
fn paged(s: &Shared, path: &str, q: &str, items: Vec<Value>, cap: usize) -> Response {
    let per = query(q, "per_page")
        .and_then(|v| v.parse().ok())
        .unwrap_or(30usize)
        .min(cap)
        .max(1);
    let page = query(q, "page")
        .and_then(|v| v.parse().ok())
        .unwrap_or(1usize)
        .max(1);
    let slice: Vec<Value> = items
        .iter()
        .skip((page - 1) * per)
        .take(per)
        .cloned()
        .collect();
    let mut headers = HeaderMap::new();
    if page * per < items.len() {
        let next = format!(
            "<{}{path}?per_page={per}&page={}>; rel=\"next\"",
            s.origin,
            page + 1
        );
        headers.insert("link", next.parse().unwrap());
    }
    (StatusCode::OK, headers, axum::Json(Value::Array(slice))).into_response()
}

async fn handle(State(s): State<Arc<Shared>>, req: Request) -> Response {
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let q = req.uri().query().unwrap_or("").to_string();
    let authorized = req
        .headers()
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        == Some(&format!("Bearer {TOKEN}"));
    let body = axum::body::to_bytes(req.into_body(), 64 << 20)
        .await
        .unwrap_or_default();
    let mut w = s.world.lock().unwrap();
    w.log.push(if q.is_empty() {
        format!("{method} {path}")
    } else {
        format!("{method} {path}?{q}")
    });
    if !authorized {
        return error(StatusCode::UNAUTHORIZED, "Bad credentials", None);
    }
    let repo = format!("/repos/{}/releases", s.repo);
    let upload_path = path
        .strip_prefix(s.upload_prefix)
        .and_then(|p| p.strip_prefix(&repo));
    if let (true, Some(rest)) = (method == Method::POST, upload_path) {
        let segs: Vec<&str> = rest.trim_start_matches('/').split('/').collect();
        if let [id, "assets"] = segs.as_slice() {
            return upload(&s, &mut w, id, &q, body);
        }
    }
    let Some(rest) = path
        .strip_prefix(s.api_prefix)
        .and_then(|p| p.strip_prefix(&repo))
    else {
        return error(StatusCode::NOT_FOUND, "Not Found", None);
    };
    let segs: Vec<&str> = rest.split('/').filter(|x| !x.is_empty()).collect();
    let cap = w.page_cap;
    match (method.as_str(), segs.as_slice()) {
        ("GET", []) => {
            let items = w.releases.iter().map(|r| s.release_json(r)).collect();
            paged(&s, &path, &q, items, cap)
        }
        ("POST", []) => create(&s, &mut w, &body),
        ("GET", ["tags", tag @ ..]) => {
            let tag = decode(&tag.join("/"));
            match w.releases.iter().find(|r| r.tag == tag && !r.draft) {
                Some(r) => axum::Json(s.release_json(r)).into_response(),
                None => error(StatusCode::NOT_FOUND, "Not Found", None),
            }
        }
        ("PATCH", ["assets", id]) => {
            let new: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
            let id: u64 = id.parse().unwrap_or(0);
            let Some(rel) = w
                .releases
                .iter_mut()
                .find(|r| r.assets.iter().any(|a| a.id == id))
            else {
                return error(StatusCode::NOT_FOUND, "Not Found", None);
            };
            if let Some(name) = new.get("name").and_then(Value::as_str) {
                if rel.assets.iter().any(|a| a.name == name && a.id != id) {
                    return already_exists("ReleaseAsset", "name");
                }
                let a = rel.assets.iter_mut().find(|a| a.id == id).unwrap();
                a.name = name.to_string();
            }
            let a = rel.assets.iter().find(|a| a.id == id).unwrap();
            axum::Json(s.asset_json(a)).into_response()
        }
        ("DELETE", ["assets", id]) => {
            let id: u64 = id.parse().unwrap_or(0);
            for r in w.releases.iter_mut() {
                if let Some(i) = r.assets.iter().position(|a| a.id == id) {
                    r.assets.remove(i);
                    return StatusCode::NO_CONTENT.into_response();
                }
            }
            error(StatusCode::NOT_FOUND, "Not Found", None)
        }
        ("GET", [id]) | ("PATCH", [id]) => {
            let id: u64 = id.parse().unwrap_or(0);
            let Some(r) = w.releases.iter_mut().find(|r| r.id == id) else {
                return error(StatusCode::NOT_FOUND, "Not Found", None);
            };
            if method == Method::PATCH {
                let patch: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                if let Some(d) = patch.get("draft").and_then(Value::as_bool) {
                    r.draft = d;
                }
                if let Some(p) = patch.get("prerelease").and_then(Value::as_bool) {
                    r.prerelease = p;
                }
                if let Some(b) = patch.get("body").and_then(Value::as_str) {
                    r.body = Some(b.to_string());
                }
            }
            let r = r.clone();
            axum::Json(s.release_json(&r)).into_response()
        }
        ("GET", [id, "assets"]) => {
            let id: u64 = id.parse().unwrap_or(0);
            let Some(r) = w.releases.iter().find(|r| r.id == id) else {
                return error(StatusCode::NOT_FOUND, "Not Found", None);
            };
            let items = r.assets.iter().map(|a| s.asset_json(a)).collect();
            paged(&s, &path, &q, items, cap)
        }
        _ => error(StatusCode::NOT_FOUND, "Not Found", None),
    }
}

fn create(s: &Shared, w: &mut World, body: &Bytes) -> Response {
    let req: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    let Some(tag) = req.get("tag_name").and_then(Value::as_str) else {
        return error(
            StatusCode::UNPROCESSABLE_ENTITY,
            "tag_name is missing",
            None,
        );
    };
    if w.creates_422 > 0 {
        w.creates_422 -= 1;
        return error(
            StatusCode::UNPROCESSABLE_ENTITY,
            "Validation Failed",
            Some(json!([{"resource": "Release", "code": "invalid", "field": "target_commitish"}])),
        );
    }
    if w.release(tag).is_some() {
        return already_exists("Release", "tag_name");
    }
    let id = w.seed_release(tag, req.get("draft").and_then(Value::as_bool) == Some(true));
    let r = w.releases.iter_mut().find(|r| r.id == id).unwrap();
    r.prerelease = req.get("prerelease").and_then(Value::as_bool) == Some(true);
    r.body = req.get("body").and_then(Value::as_str).map(str::to_string);
    let r = r.clone();
    let mut headers = HeaderMap::new();
    headers.insert(
        "location",
        format!("{}/releases/{id}", s.repo_url()).parse().unwrap(),
    );
    (StatusCode::CREATED, headers, axum::Json(s.release_json(&r))).into_response()
}

fn upload(s: &Shared, w: &mut World, id: &str, q: &str, body: Bytes) -> Response {
    let Some(name) = query(q, "name") else {
        return error(StatusCode::UNPROCESSABLE_ENTITY, "name is missing", None);
    };
    if w.uploads_limited > 0 {
        w.uploads_limited -= 1;
        let mut r = error(
            StatusCode::FORBIDDEN,
            "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
            None,
        );
        r.headers_mut().insert("retry-after", "1".parse().unwrap());
        return r;
    }
    let fail = w.uploads_502 > 0;
    if fail {
        w.uploads_502 -= 1;
    }
    let next = w.id();
    let id: u64 = id.parse().unwrap_or(0);
    let Some(rel) = w.releases.iter_mut().find(|r| r.id == id) else {
        return error(StatusCode::NOT_FOUND, "Not Found", None);
    };
    if rel.assets.iter().any(|a| a.name == name) {
        return already_exists("ReleaseAsset", "name");
    }
    let asset = FakeAsset {
        id: next,
        name,
        state: if fail { "starter" } else { "uploaded" }.into(),
        bytes: if fail { Vec::new() } else { body.to_vec() },
    };
    rel.assets.push(asset.clone());
    if fail {
        return error(StatusCode::BAD_GATEWAY, "Server Error", None);
    }
    (StatusCode::CREATED, axum::Json(s.asset_json(&asset))).into_response()
}
