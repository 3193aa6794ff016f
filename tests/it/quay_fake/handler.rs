//! The fake's one request handler: routes by path segments, applies injected faults, checks
//! HTTP Basic credentials, and answers in Quay's shapes (the `{"error": {…}}` envelope,
//! `vnd.cnr` media types, a 50-item list, private repositories created by a push).

use std::sync::{Arc, Mutex};

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use base64::Engine;

use super::{FaultKind, READER, Repo, Route, Seen, State, Stored, WRITER, digest_of, token};

fn envelope(status: u16, code: &str, message: &str, details: serde_json::Value) -> Response {
    let body = serde_json::json!({"error": {"code": code, "message": message, "details": details}});
    (StatusCode::from_u16(status).unwrap(), axum::Json(body)).into_response()
}

fn json(v: serde_json::Value) -> Response {
    axum::Json(v).into_response()
}

fn dropped() -> Response {
    let stream = futures_util::stream::once(async {
        Err::<Bytes, std::io::Error>(std::io::Error::new(
            std::io::ErrorKind::ConnectionReset,
            "fake reset",
        ))
    });
    Response::new(Body::from_stream(stream))
}

enum Who {
    Anonymous,
    User { writer: bool },
    Invalid,
}

fn who(headers: &HeaderMap) -> Who {
    let Some(v) = headers.get("authorization").and_then(|v| v.to_str().ok()) else {
        return Who::Anonymous;
    };
    for (user, writer) in [(WRITER, true), (READER, false)] {
        let t = token(user);
        // Quay lower-cases the scheme word before comparing.
        if v.to_ascii_lowercase().starts_with("basic ") && v[6..] == t[6..] {
            return Who::User { writer };
        }
    }
    Who::Invalid
}

fn manifest(ns: &str, pkg: &str, release: &str, s: &Stored) -> serde_json::Value {
    serde_json::json!({
        "package": format!("{ns}/{pkg}"), "release": release, "created_at": "2019-04-05T00:00:00",
        "metadata": null, "digest": "ffff",
        "mediaType": "application/vnd.cnr.package-manifest.helm.v0.json",
        "content": {"mediaType": "application/vnd.cnr.package.helm.v0.tar+gzip", "size": s.gz.len(),
                    "digest": s.digest, "urls": []},
    })
}

fn highest<'a>(releases: impl Iterator<Item = &'a String>) -> Option<String> {
    releases
        .max_by_key(|r| semver::Version::parse(r).ok())
        .cloned()
}

pub async fn handle(
    state: Arc<Mutex<State>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path = uri.path().to_string();
    let query = uri.query().unwrap_or("").to_string();
    let segs: Vec<String> = path
        .trim_start_matches("/cnr/api/v1/")
        .split('/')
        .map(str::to_string)
        .collect();
    let route = match (&method, segs.len()) {
        (&Method::POST, 3) if segs[0] == "packages" => Route::Push,
        (&Method::GET, 3) if segs[0] == "packages" => Route::Releases,
        (&Method::GET, _)
            if segs.last().is_some_and(|s| s == "pull") || path.contains("/blobs/") =>
        {
            Route::Pull
        }
        _ => Route::Any,
    };
    let fault = {
        let mut st = state.lock().unwrap();
        st.seen.push(Seen {
            method: method.to_string(),
            path: path.clone(),
            authorization: headers
                .get("authorization")
                .and_then(|v| v.to_str().ok())
                .map(str::to_string),
        });
        let hit = st
            .faults
            .iter_mut()
            .find(|f| f.times > 0 && (f.route == route || f.route == Route::Any));
        hit.map(|f| {
            f.times -= 1;
            f.kind
        })
    };
    let mut drop_after = false;
    match fault {
        Some(FaultKind::Status(code)) => {
            return envelope(
                code,
                "internal-error",
                "Something went wrong",
                serde_json::Value::Null,
            );
        }
        Some(FaultKind::RateLimit(secs)) => {
            let mut r = envelope(
                429,
                "rate-limited",
                "Too many requests",
                serde_json::Value::Null,
            );
            r.headers_mut()
                .insert("retry-after", secs.to_string().parse().unwrap());
            return r;
        }
        Some(FaultKind::Drop) => return dropped(),
        Some(FaultKind::Slow(d)) => tokio::time::sleep(d).await,
        Some(FaultKind::DropAfterStore) => drop_after = true,
        Some(FaultKind::Redirect(to)) => {
            return (StatusCode::FOUND, [("location", to)]).into_response();
        }
        Some(FaultKind::Body(code, text)) => {
            return (StatusCode::from_u16(code).unwrap(), text).into_response();
        }
        Some(FaultKind::Huge(n)) => return vec![b' '; n].into_response(),
        Some(FaultKind::Bytes(b)) => return b.to_vec().into_response(),
        None => {}
    }
    if !path.starts_with("/cnr/api/v1/") {
        return (
            StatusCode::NOT_FOUND,
            "<html><title>404 Not Found</title></html>",
        )
            .into_response();
    }
    let who = who(&headers);
    if matches!(who, Who::Invalid) {
        return envelope(
            401,
            "unauthorized-access",
            "Invalid credentials",
            serde_json::Value::Null,
        );
    }
    let authed = matches!(who, Who::User { .. });
    let writer = matches!(who, Who::User { writer: true });
    let segs: Vec<&str> = segs.iter().map(String::as_str).collect();
    let mut st = state.lock().unwrap();
    match (&method, segs.as_slice()) {
        (&Method::POST, ["users", "login"]) => {
            let v: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
            let (u, p) = (
                v["user"]["username"].as_str(),
                v["user"]["password"].as_str(),
            );
            let (Some(u), Some(p)) = (u, p) else {
                return envelope(
                    400,
                    "invalid-usage",
                    "Missing username or password",
                    serde_json::Value::Null,
                );
            };
            if [WRITER, READER].contains(&(u, p)) {
                json(serde_json::json!({"token": token((u, p))}))
            } else {
                envelope(
                    401,
                    "unauthorized-access",
                    "Invalid username or password",
                    serde_json::Value::Null,
                )
            }
        }
        (&Method::GET, ["packages"]) => {
            let ns = query
                .split('&')
                .find_map(|kv| kv.strip_prefix("namespace="))
                .unwrap_or("")
                .to_string();
            let items: Vec<serde_json::Value> = st
                .repos
                .iter()
                .filter(|((n, _), r)| *n == ns && !r.releases.is_empty() && (!r.private || authed))
                .take(50)
                .map(|((n, p), r)| {
                    serde_json::json!({"name": format!("{n}/{p}"), "namespace": n,
                        "default": highest(r.releases.keys()), "releases": r.releases.keys().rev().collect::<Vec<_>>(),
                        "manifests": ["helm"], "visibility": if r.private {"private"} else {"public"}, "channels": null})
                })
                .collect();
            json(serde_json::Value::Array(items))
        }
        (&Method::GET, ["packages", ns, pkg, rest @ ..]) => {
            let key = (ns.to_string(), pkg.to_string());
            let Some(repo) = st.repos.get(&key).filter(|r| !r.releases.is_empty()) else {
                return envelope(
                    404,
                    "package-not-found",
                    "package not found",
                    serde_json::json!({"package": format!("{ns}/{pkg}")}),
                );
            };
            if repo.private && !authed {
                return envelope(
                    401,
                    "unauthorized-access",
                    "Unauthorized access",
                    serde_json::Value::Null,
                );
            }
            match rest {
                [] => json(serde_json::Value::Array(
                    repo.releases
                        .iter()
                        .map(|(r, s)| manifest(ns, pkg, r, s))
                        .collect(),
                )),
                ["blobs", "sha256", d] => match repo.releases.values().find(|s| s.digest == *d) {
                    Some(s) => s.gz.clone().into_response(),
                    None => envelope(
                        404,
                        "package-not-found",
                        "blob not found",
                        serde_json::Value::Null,
                    ),
                },
                [rel, "helm", tail @ ..] => {
                    let rel = if *rel == "default" {
                        highest(repo.releases.keys()).unwrap_or_default()
                    } else {
                        rel.to_string()
                    };
                    match (repo.releases.get(&rel), tail) {
                        (None, _) => envelope(
                            404,
                            "package-release-not-found",
                            "No release match",
                            serde_json::Value::Null,
                        ),
                        (Some(s), []) => json(manifest(ns, pkg, &rel, s)),
                        (Some(s), ["pull"]) => s.gz.clone().into_response(),
                        _ => envelope(
                            404,
                            "package-not-found",
                            "no route",
                            serde_json::Value::Null,
                        ),
                    }
                }
                _ => envelope(
                    404,
                    "package-not-found",
                    "no route",
                    serde_json::Value::Null,
                ),
            }
        }
        (&Method::POST, ["packages", ns, pkg]) => {
            if !authed {
                return envelope(
                    401,
                    "unauthorized-access",
                    "Unauthorized access",
                    serde_json::Value::Null,
                );
            }
            if !writer {
                return envelope(
                    403,
                    "forbidden",
                    "Unauthorized access for: push",
                    serde_json::json!({"package": format!("{ns}/{pkg}"), "scopes": ["push"]}),
                );
            }
            let key = (ns.to_string(), pkg.to_string());
            if st.repos.get(&key).is_some_and(|r| r.image) {
                return (StatusCode::METHOD_NOT_ALLOWED, axum::Json(serde_json::json!({"error": "Cannot push an application to an image repository with the same name"}))).into_response();
            }
            let v: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
            let (Some(blob), Some(release), Some(mt)) = (
                v["blob"].as_str(),
                v["release"].as_str(),
                v["media_type"].as_str(),
            ) else {
                return envelope(
                    400,
                    "invalid-usage",
                    "Missing blob, release or media_type",
                    serde_json::Value::Null,
                );
            };
            if semver::Version::parse(release).is_err() {
                return envelope(
                    422,
                    "invalid-release",
                    &format!("Invalid version string: '{release}'"),
                    serde_json::json!({"version": release}),
                );
            }
            let force = query.split('&').any(|kv| kv == "force=true");
            let repo = st.repos.entry(key).or_insert_with(|| Repo {
                private: v["visibility"].as_str() != Some("public"),
                ..Default::default()
            });
            if repo.releases.contains_key(release) && !force {
                return envelope(
                    409,
                    "package-exists",
                    "Package exists already",
                    serde_json::json!({"package": format!("{ns}/{pkg}"), "release": release, "media_type": mt}),
                );
            }
            let Ok(gz) = base64::engine::general_purpose::STANDARD.decode(blob) else {
                return envelope(
                    400,
                    "invalid-usage",
                    "blob is not base64",
                    serde_json::Value::Null,
                );
            };
            repo.releases.insert(
                release.to_string(),
                Stored {
                    digest: digest_of(&gz),
                    gz,
                },
            );
            if drop_after {
                return dropped();
            }
            json(serde_json::json!({"status": "ok"}))
        }
        (&Method::DELETE, ["packages", ns, pkg, rel, "helm"]) => {
            if !writer {
                return envelope(
                    403,
                    "forbidden",
                    "Unauthorized access for: delete",
                    serde_json::Value::Null,
                );
            }
            match st
                .repos
                .get_mut(&(ns.to_string(), pkg.to_string()))
                .and_then(|r| r.releases.remove(*rel))
            {
                Some(_) => json(
                    serde_json::json!({"status": "deleted", "package": format!("{ns}/{pkg}"), "release": rel}),
                ),
                None => envelope(
                    404,
                    "package-release-not-found",
                    "No release match",
                    serde_json::Value::Null,
                ),
            }
        }
        _ => (
            StatusCode::NOT_FOUND,
            "<html><title>404 Not Found</title></html>",
        )
            .into_response(),
    }
}
