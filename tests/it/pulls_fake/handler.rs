//! The fake's routes: `/repos/{owner}/{repo}` and its `git/…` and `pulls…` paths.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use serde_json::{Value, json};

use super::json::{blob_json, commit_json, pull_json, ref_json, repo_json, tree_json};
use super::{FakePull, Object, Shared, TOKEN, World};

fn error(status: StatusCode, message: &str) -> Response {
    let body = json!({ "message": message, "documentation_url": "https://docs.github.com/rest" });
    (status, axum::Json(body)).into_response()
}

fn ok(status: StatusCode, v: Value) -> Response {
    (status, axum::Json(v)).into_response()
}

pub(crate) async fn handle(State(shared): State<Arc<Shared>>, req: Request) -> Response {
    let method = req.method().clone();
    // A ref comes as one encoded segment (`heads%2Fmain`), as GitHub's clients send it.
    let path = req.uri().path().replace("%2F", "/").replace("%2f", "/");
    let query = req.uri().query().unwrap_or_default().to_string();
    let authorized = req
        .headers()
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v == format!("Bearer {TOKEN}"));
    let body = axum::body::to_bytes(req.into_body(), 16 << 20)
        .await
        .unwrap_or_default();
    let mut w = shared.world.lock().unwrap();
    w.log.push(if query.is_empty() {
        format!("{method} {path}")
    } else {
        format!("{method} {path}?{query}")
    });
    if !authorized {
        return error(StatusCode::UNAUTHORIZED, "Requires authentication");
    }
    let Some(rest) = path.strip_prefix("/repos/") else {
        return error(StatusCode::NOT_FOUND, "Not Found");
    };
    let mut parts = rest.splitn(3, '/');
    let (Some(owner), Some(name)) = (parts.next(), parts.next()) else {
        return error(StatusCode::NOT_FOUND, "Not Found");
    };
    let repo = format!("{owner}/{name}");
    if !w.repos.contains_key(&repo) {
        return error(StatusCode::NOT_FOUND, "Not Found");
    }
    let tail = parts.next().unwrap_or_default().to_string();
    let o = &shared.origin;
    let input: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    route(&mut w, o, &method, &repo, &tail, &query, &input, &body)
}

#[allow(clippy::too_many_arguments)]
fn route(
    w: &mut World,
    o: &str,
    method: &Method,
    repo: &str,
    tail: &str,
    query: &str,
    input: &Value,
    _raw: &Bytes,
) -> Response {
    let not_found = || error(StatusCode::NOT_FOUND, "Not Found");
    match (method.as_str(), tail) {
        ("GET", "") => ok(
            StatusCode::OK,
            repo_json(o, repo, &w.repos[repo].default_branch),
        ),
        ("GET", t) if t.starts_with("git/ref/heads/") => {
            let branch = &t["git/ref/heads/".len()..];
            match w.repos[repo].refs.get(branch) {
                Some(sha) => ok(StatusCode::OK, ref_json(o, repo, branch, sha)),
                None => not_found(),
            }
        }
        ("GET", t) if t.starts_with("git/commits/") => {
            match w.objects.get(&t["git/commits/".len()..]) {
                Some(c @ Object::Commit { .. }) => ok(
                    StatusCode::OK,
                    commit_json(o, repo, &t["git/commits/".len()..], c),
                ),
                _ => not_found(),
            }
        }
        ("GET", t) if t.starts_with("git/trees/") => {
            let sha = &t["git/trees/".len()..];
            match w.objects.get(sha) {
                Some(Object::Tree(_)) => ok(
                    StatusCode::OK,
                    tree_json(w, o, repo, sha, query.contains("recursive=1")),
                ),
                _ => not_found(),
            }
        }
        ("GET", t) if t.starts_with("git/blobs/") => {
            match w.objects.get(&t["git/blobs/".len()..]) {
                Some(Object::Blob(b)) => ok(
                    StatusCode::OK,
                    blob_json(o, repo, &t["git/blobs/".len()..], b),
                ),
                _ => not_found(),
            }
        }
        ("POST", "git/blobs") => {
            let content = input["content"].as_str().unwrap_or_default();
            let bytes = match input["encoding"].as_str() {
                Some("base64") => base64::engine::general_purpose::STANDARD
                    .decode(content)
                    .unwrap_or_default(),
                _ => content.as_bytes().to_vec(),
            };
            let sha = w.put(Object::Blob(bytes));
            ok(
                StatusCode::CREATED,
                json!({ "url": format!("{o}/repos/{repo}/git/blobs/{sha}"), "sha": sha }),
            )
        }
        ("POST", "git/trees") => {
            let base = input["base_tree"].as_str();
            if base.is_some_and(|b| !matches!(w.objects.get(b), Some(Object::Tree(_)))) {
                return error(StatusCode::UNPROCESSABLE_ENTITY, "base_tree is not a tree");
            }
            let entries: Vec<(String, Option<String>)> = input["tree"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|e| {
                    (
                        e["path"].as_str().unwrap_or_default().to_string(),
                        e["sha"].as_str().map(str::to_string),
                    )
                })
                .collect();
            if entries.iter().any(|(_, s)| {
                s.as_ref()
                    .is_some_and(|s| !matches!(w.objects.get(s), Some(Object::Blob(_))))
            }) {
                return error(StatusCode::UNPROCESSABLE_ENTITY, "tree.sha is not a blob");
            }
            let sha = w.tree_with(base, &entries);
            ok(StatusCode::CREATED, tree_json(w, o, repo, &sha, false))
        }
        ("POST", "git/commits") => {
            let tree = input["tree"].as_str().unwrap_or_default().to_string();
            let parents: Vec<String> = input["parents"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|p| p.as_str().map(str::to_string))
                .collect();
            if !matches!(w.objects.get(&tree), Some(Object::Tree(_)))
                || parents
                    .iter()
                    .any(|p| !matches!(w.objects.get(p), Some(Object::Commit { .. })))
            {
                return error(StatusCode::UNPROCESSABLE_ENTITY, "tree or parent not found");
            }
            let a = &input["author"];
            let c = Object::Commit {
                tree,
                parents,
                message: input["message"].as_str().unwrap_or_default().into(),
                author: (
                    a["name"].as_str().unwrap_or_default().into(),
                    a["email"].as_str().unwrap_or_default().into(),
                    a["date"].as_str().unwrap_or_default().into(),
                ),
            };
            let sha = w.put(c.clone());
            ok(StatusCode::CREATED, commit_json(o, repo, &sha, &c))
        }
        ("POST", "git/refs") => {
            let (Some(name), Some(sha)) = (input["ref"].as_str(), input["sha"].as_str()) else {
                return error(StatusCode::UNPROCESSABLE_ENTITY, "ref and sha are required");
            };
            let Some(branch) = name.strip_prefix("refs/heads/") else {
                return error(StatusCode::UNPROCESSABLE_ENTITY, "not a branch");
            };
            if w.repos[repo].refs.contains_key(branch) {
                return error(StatusCode::UNPROCESSABLE_ENTITY, "Reference already exists");
            }
            w.repos
                .get_mut(repo)
                .unwrap()
                .refs
                .insert(branch.into(), sha.into());
            ok(StatusCode::CREATED, ref_json(o, repo, branch, sha))
        }
        ("PATCH", t) if t.starts_with("git/refs/heads/") => {
            let branch = t["git/refs/heads/".len()..].to_string();
            let Some(sha) = input["sha"].as_str().map(str::to_string) else {
                return error(StatusCode::UNPROCESSABLE_ENTITY, "sha is required");
            };
            let Some(old) = w.repos[repo].refs.get(&branch).cloned() else {
                return error(StatusCode::UNPROCESSABLE_ENTITY, "Reference does not exist");
            };
            let forward = matches!(w.objects.get(&sha), Some(Object::Commit { parents, .. }) if parents.contains(&old));
            if !forward && input["force"] != true {
                return error(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "Update is not a fast forward",
                );
            }
            w.repos
                .get_mut(repo)
                .unwrap()
                .refs
                .insert(branch.clone(), sha.clone());
            ok(StatusCode::OK, ref_json(o, repo, &branch, &sha))
        }
        ("GET", "pulls") => {
            let head = query
                .split('&')
                .find_map(|kv| kv.strip_prefix("head="))
                .map(|h| h.replace("%3A", ":").replace("%2F", "/"));
            let items: Vec<Value> = w
                .pulls
                .iter()
                .rev()
                .filter(|p| p.repo == repo && head.as_ref().is_none_or(|h| *h == p.head))
                .map(|p| pull_json(w, o, p, false))
                .collect();
            ok(StatusCode::OK, Value::Array(items))
        }
        ("POST", "pulls") => {
            let head = input["head"].as_str().unwrap_or_default().to_string();
            if w.pulls
                .iter()
                .any(|p| p.repo == repo && p.head == head && p.state == "open")
            {
                return error(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "A pull request already exists",
                );
            }
            let pr = FakePull {
                number: w.pulls.len() as u64 + 1,
                repo: repo.into(),
                head,
                base: input["base"].as_str().unwrap_or_default().into(),
                title: input["title"].as_str().unwrap_or_default().into(),
                body: input["body"].as_str().unwrap_or_default().into(),
                state: "open".into(),
                merged: false,
                draft: input["draft"] == true,
            };
            let v = pull_json(w, o, &pr, true);
            w.pulls.push(pr);
            ok(StatusCode::CREATED, v)
        }
        ("PATCH", t) if t.starts_with("pulls/") => {
            let n: u64 = t["pulls/".len()..].parse().unwrap_or(0);
            let Some(i) = w.pulls.iter().position(|p| p.repo == repo && p.number == n) else {
                return not_found();
            };
            if let Some(t) = input["title"].as_str() {
                w.pulls[i].title = t.into();
            }
            if let Some(b) = input["body"].as_str() {
                w.pulls[i].body = b.into();
            }
            let pr = w.pulls[i].clone();
            ok(StatusCode::OK, pull_json(w, o, &pr, true))
        }
        _ => not_found(),
    }
}
