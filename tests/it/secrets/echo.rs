//! HTTP errors that echo the request back (as some misconfigured servers and proxies do): the
//! `Authorization` header, or a login's password, comes back in the error body. None of it may
//! reach the output, at any verbosity.

use std::sync::Arc;

use super::{SECRETS, VERBOSITY, check_run};
use crate::appr::{pipeline_at, run, unique};
use crate::fault_proxy::{Echo, Fault, Proxy, Rule, port_of};
use crate::github_fake::TOKEN;
use crate::support::{Work, list_files, stderr, stdout};

const SHAPES: [Echo; 5] = [
    Echo::Json,
    Echo::Envelope,
    Echo::Text,
    Echo::Html,
    Echo::Straddle,
];

/// Fails if `text` holds 10 or more consecutive characters of `secret` past its scheme word
/// (`basic `, `Bearer `): a secret cut short is still a leak.
#[track_caller]
fn assert_no_part(what: &str, text: &str, secret: &str) {
    let value = secret.split_once(' ').map(|(_, v)| v).unwrap_or(secret);
    let chars: Vec<char> = value.chars().collect();
    for w in chars.windows(10.min(chars.len())) {
        let part: String = w.iter().collect();
        assert!(
            !text.contains(&part),
            "part of a secret ('{part}') leaked into {what}:\n{text}"
        );
    }
}

/// Where the echo happens in an appr run: (method, path, needs username/password).
const APPR_ROUTES: [(&str, &str, bool); 4] = [
    ("POST", "/users/login", true),
    ("GET", "?media_type=helm", false),
    ("POST", "/packages/", false),
    ("GET", "/helm/pull", false),
];

#[test]
fn registry_errors_that_echo_the_request_never_leak_credentials() {
    let Some(url) = crate::support::peer("APPR_URL") else {
        return;
    };
    let token = SECRETS[0].1;
    let login = [SECRETS[1], SECRETS[2]];
    let mut runs = Vec::new();
    for (i, v) in VERBOSITY.iter().enumerate() {
        for (j, shape) in SHAPES.iter().enumerate() {
            let n = i * SHAPES.len() + j;
            let (method, path, needs_login) = APPR_ROUTES[n % APPR_ROUTES.len()];
            let by_login = needs_login || n % 2 == 1;
            // 500 is retried (each retry is reported), 400 is not.
            let status = if n.is_multiple_of(3) { 500 } else { 400 };
            runs.push((*v, *shape, method, path, by_login, status));
        }
    }
    std::thread::scope(|s| {
        for chunk in runs.chunks(7) {
            let handles: Vec<_> = chunk
                .iter()
                .map(|&(v, shape, method, path, by_login, status)| {
                    let url = &url;
                    s.spawn(move || {
                        let label = format!("{method} {path} {status} {shape:?} {v:?}");
                        let rule = Rule::on(Some(method), path, Fault::Echo { status, shape });
                        let proxy = Proxy::start(port_of(url), vec![rule]);
                        let work = Work::sample();
                        let ns = unique("echo");
                        let file = pipeline_at(
                            &work,
                            &format!("{}/cnr", proxy.origin),
                            &ns,
                            "  retries: 1\n",
                        );
                        let env: Vec<(&str, &str)> = if by_login {
                            login.to_vec()
                        } else {
                            vec![SECRETS[0]]
                        };
                        let o = run(&work, file, "0.1.0", v, &env);
                        assert_eq!(o.status.code(), Some(1), "{label}: {}", stderr(&o));
                        let echoed = proxy
                            .seen()
                            .into_iter()
                            .find(|s| s.fault.is_some())
                            .unwrap_or_else(|| panic!("{label}: the echo never happened"));
                        if !path.contains("login") {
                            let sent = if by_login {
                                echoed
                                    .authorization
                                    .clone()
                                    .expect("an Authorization header")
                            } else {
                                token.to_string()
                            };
                            assert_eq!(echoed.authorization.as_deref(), Some(sent.as_str()));
                        }
                        check_run(&work, &label, &o);
                        let all = format!("{}{}", stdout(&o), stderr(&o));
                        for secret in [token, login[1].1] {
                            assert_no_part(&label, &all, secret);
                        }
                        if let Some(auth) = &echoed.authorization {
                            assert_no_part(&label, &all, auth);
                        }
                    })
                })
                .collect();
            for h in handles {
                h.join().expect("an echo run leaked or failed (see above)");
            }
        }
    });
}

#[test]
fn registry_commands_never_print_echoed_credentials() {
    let Some(url) = crate::support::peer("APPR_URL") else {
        return;
    };
    let token = SECRETS[0];
    for (i, shape) in SHAPES.iter().enumerate() {
        let rule = Rule::on(
            Some("GET"),
            "/",
            Fault::Echo {
                status: 400,
                shape: *shape,
            },
        );
        let proxy = Proxy::start(port_of(&url), vec![rule]);
        let work = Work::sample();
        let registry = format!("{}/cnr", proxy.origin);
        let v = VERBOSITY[i % VERBOSITY.len()];
        for cmd in [
            vec!["registry", "list", "--registry", &registry, "someone"],
            vec!["registry", "show", "--registry", &registry, "someone/pkg"],
            vec![
                "registry",
                "pull",
                "--registry",
                &registry,
                "someone/pkg",
                "1.0.0",
                "--out",
                "_out/pulled",
            ],
        ] {
            let args: Vec<&str> = v.iter().copied().chain(cmd).collect();
            let o = work.run(&args, &[token]);
            assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
            check_run(&work, &format!("{args:?}"), &o);
            assert_no_part(
                &format!("{args:?}"),
                &format!("{}{}", stdout(&o), stderr(&o)),
                token.1,
            );
        }
        assert!(
            proxy
                .seen()
                .iter()
                .all(|s| s.authorization.as_deref() == Some(token.1)),
            "the token was sent with every request, so every echo held it"
        );
    }
}

/// Where the echo happens in a GitHub release: (method, path, status).
const GITHUB_ROUTES: [(&str, &str, u16); 5] = [
    ("GET", "/releases/tags/", 400),
    ("POST", "/repos/acme/sample-operator/releases$", 500),
    ("POST", "/assets?name=", 400),
    ("PATCH", "/repos/acme/sample-operator/releases/1$", 422),
    ("GET", "/assets?per_page", 403),
];

fn github_pipeline(work: &Work, api: &str) {
    let options = r#"retries: "2", retry_delay_ms: "5", timeout_seconds: "2""#;
    crate::github::write_pipeline(work, api, options, "");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn github_errors_that_echo_the_request_never_leak_the_token() {
    let mut n = 0;
    for v in VERBOSITY {
        let mut batch = Vec::new();
        for shape in SHAPES {
            let (method, path, status) = GITHUB_ROUTES[n % GITHUB_ROUTES.len()];
            n += 1;
            batch.push(tokio::spawn(async move {
                let label = format!("{method} {path} {status} {shape:?} {v:?}");
                let rule = Rule::on(Some(method), path, Fault::Echo { status, shape });
                let proxy = Proxy::start(0, vec![rule]);
                let _fake = crate::fault_proxy::github_fake_behind(&proxy).await;
                let work = Arc::new(Work::sample());
                github_pipeline(&work, &proxy.origin);
                let w = work.clone();
                let o = tokio::task::spawn_blocking(move || {
                    let mut args: Vec<&str> = v.to_vec();
                    args.extend(["run", "pipelines/gh.yaml"]);
                    w.run(&args, &[("GITHUB_TOKEN", TOKEN)])
                })
                .await
                .unwrap();
                assert_eq!(o.status.code(), Some(1), "{label}: {}", stderr(&o));
                let echoed = proxy.seen().into_iter().find(|s| s.fault.is_some());
                let auth = echoed
                    .and_then(|s| s.authorization)
                    .unwrap_or_else(|| panic!("{label}: no echo of an Authorization header"));
                assert!(auth.contains(TOKEN), "{label}: {auth}");
                let all = format!("{}{}", stdout(&o), stderr(&o));
                assert_no_part(&label, &all, TOKEN);
                for file in list_files(&work.path().join("_out")) {
                    let bytes = std::fs::read(work.path().join("_out").join(&file)).unwrap();
                    assert_no_part(&file, &String::from_utf8_lossy(&bytes), TOKEN);
                }
            }));
        }
        for h in batch {
            h.await.expect("an echo run leaked or failed (see above)");
        }
    }
}
