//! scripts/courier_local.py: courier's push, rewritten from the hard-coded Quay URL to a
//! loopback registry, and refused anywhere else.

use std::process::Command;
use std::sync::{Arc, Mutex};

use axum::extract::{Path, State};
use axum::routing::post;
use axum::{Json, Router};
use base64::Engine;

use super::corpus_dir;
use crate::support;

type Seen = Arc<Mutex<Vec<(String, String, serde_json::Value)>>>;

async fn push(
    State(seen): State<Seen>,
    Path((ns, repo)): Path<(String, String)>,
    Json(body): Json<serde_json::Value>,
) -> Json<serde_json::Value> {
    seen.lock().unwrap().push((ns, repo, body));
    Json(serde_json::json!({"status": "ok"}))
}

fn wrapper(python: &str, base: &str, args: &[&str]) -> std::process::Output {
    Command::new(python)
        .arg(support::root().join("scripts/courier_local.py"))
        .args(args)
        .env("APPR_LOCAL", base)
        .output()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn push_goes_to_the_loopback_registry_only() {
    let Some(python) = support::peer("COURIER_PYTHON") else {
        return;
    };
    let seen: Seen = Arc::default();
    let app = Router::new()
        .route("/cnr/api/v1/packages/{ns}/{repo}", post(push))
        .with_state(seen.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });

    let bundle = tempfile::tempdir().unwrap();
    support::copy_dir(&corpus_dir().join("valid/chain"), bundle.path());
    let dir = bundle.path().to_str().unwrap().to_string();
    let py = python.clone();
    let b = base.clone();
    let o = tokio::task::spawn_blocking(move || {
        let args = [
            "push",
            &dir,
            "testns",
            "widget-operator",
            "1.2.0",
            "basic dGVzdDp0ZXN0",
        ];
        wrapper(&py, &b, &args)
    })
    .await
    .unwrap();
    support::assert_code(&o, 0);
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 1);
    let (ns, repo, body) = &seen[0];
    assert_eq!((ns.as_str(), repo.as_str()), ("testns", "widget-operator"));
    assert_eq!(body["release"], "1.2.0");
    assert_eq!(body["media_type"], "helm");
    let blob = base64::engine::general_purpose::STANDARD
        .decode(body["blob"].as_str().unwrap())
        .unwrap();
    assert_eq!(&blob[..2], &[0x1f, 0x8b], "the blob is a tar.gz");

    // A non-loopback base is refused before courier runs.
    let o = tokio::task::spawn_blocking(move || {
        wrapper(
            &python,
            "http://192.0.2.1:5056",
            &["verify", "/nonexistent"],
        )
    })
    .await
    .unwrap();
    support::assert_code(&o, 1);
    assert!(
        support::stderr(&o).contains("refusing"),
        "{}",
        support::stderr(&o)
    );
}
