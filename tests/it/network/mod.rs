//! One network policy for every client, tested on the wire: loopback TLS servers made here
//! (a private CA and a self-signed certificate, generated with rcgen) in front of the app
//! registry fake and the GitHub fake, and a loopback CONNECT proxy.
//!
//! The TLS front terminates TLS and forwards the plain bytes to a fake; it counts the
//! connections it accepted, so a test can tell that a certificate error was not retried and
//! that every connection came through the proxy. The proxy answers `CONNECT host:port` with a
//! tunnel and records each target.

mod oci;
mod wire;

use std::sync::Arc;

use crate::github_fake::{self, TOKEN};
use crate::quay_fake;
use crate::support::{self, Work, stderr};
use wire::{Pki, Proxy, TlsFront};

/// `registry list` over TLS: refused with a readable message and one attempt without the CA;
/// listed with `SSL_CERT_FILE` pointing at it; and through `HTTPS_PROXY` when set.
#[test]
fn the_registry_client_trusts_ssl_cert_file_and_goes_through_the_proxy() {
    let pki = Pki::new();
    let work = Work::sample();
    let ca = pki.write_ca(work.path());
    let fake = quay_fake::Fake::start();
    let backend = fake.url.trim_start_matches("http://");
    let backend = backend.split('/').next().unwrap().parse().unwrap();
    let front = TlsFront::start(pki.private_ca_server(), Some(backend));
    let url = format!("https://127.0.0.1:{}/cnr", front.port);
    let list =
        |env: &[(&str, &str)]| work.run(&["registry", "list", "--registry", &url, "acme"], env);

    let o = list(&[]);
    support::assert_code(&o, 1);
    assert!(
        stderr(&o).contains("self-signed or issued by an unknown CA; set SSL_CERT_FILE"),
        "{}",
        stderr(&o)
    );
    assert_eq!(front.connections(), 1, "a certificate error was retried");

    let o = list(&[("SSL_CERT_FILE", ca.to_str().unwrap())]);
    support::assert_code(&o, 0);
    assert!(
        fake.seen().iter().any(|s| s.path.contains("/packages")),
        "{:?}",
        fake.seen()
    );

    let proxy = Proxy::start();
    let before = front.connections();
    let o = list(&[
        ("SSL_CERT_DIR", ca.parent().unwrap().to_str().unwrap()),
        ("https_proxy", &proxy.url()),
    ]);
    support::assert_code(&o, 0);
    let tunnels = proxy.targets();
    assert_eq!(tunnels, vec![format!("127.0.0.1:{}", front.port)]);
    assert_eq!(
        front.connections() - before,
        tunnels.len(),
        "a connection bypassed the proxy"
    );

    // NO_PROXY bypasses it.
    let o = list(&[
        ("SSL_CERT_FILE", ca.to_str().unwrap()),
        ("HTTPS_PROXY", &proxy.url()),
        ("NO_PROXY", "127.0.0.1"),
    ]);
    support::assert_code(&o, 0);
    assert_eq!(proxy.targets().len(), 1, "NO_PROXY was ignored");
}

/// A whole release to GitHub over TLS with a private CA, every JSON call and every upload
/// through the CONNECT proxy; without the CA, one refused attempt and a readable message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn github_json_calls_and_uploads_follow_the_same_policy() {
    let pki = Pki::new();
    let front = TlsFront::start(pki.private_ca_server(), None);
    let origin = format!("https://127.0.0.1:{}", front.port);
    let fake = github_fake::Fake::start_on(0, Some(origin.clone()), false).await;
    front.forward_to(fake.backend());
    let work = Arc::new(Work::sample());
    let ca = pki.write_ca(work.path());
    let options = r#"retries: "3", retry_delay_ms: "5""#;
    let file = crate::github::write_pipeline(&work, &origin, options, "");
    let run = |env: Vec<(&'static str, String)>| {
        let work = work.clone();
        tokio::task::spawn_blocking(move || {
            let mut env: Vec<(&str, String)> = env;
            env.push(("GITHUB_TOKEN", TOKEN.to_string()));
            let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
            work.run(&["run", file], &env)
        })
    };

    let o = run(vec![]).await.unwrap();
    support::assert_code(&o, 1);
    assert!(
        stderr(&o).contains("self-signed or issued by an unknown CA; set SSL_CERT_FILE"),
        "{}",
        stderr(&o)
    );
    assert_eq!(front.connections(), 1, "a certificate error was retried");
    assert!(fake.world().log.is_empty());

    let proxy = Proxy::start();
    let before = front.connections();
    let o = run(vec![
        ("SSL_CERT_FILE", ca.display().to_string()),
        ("HTTPS_PROXY", proxy.url()),
    ])
    .await
    .unwrap();
    support::assert_code(&o, 0);
    let w = fake.world();
    let release = w.release("v0.1.0").expect("the release exists");
    assert!(!release.draft, "published");
    assert_eq!(release.assets.len(), 3, "{:?}", w.log);
    assert!(
        w.log
            .iter()
            .any(|l| l.starts_with("POST") && l.contains("/assets?name="))
    );
    assert!(w.log.iter().any(|l| l.starts_with("GET")));
    let tunnels = proxy.targets();
    assert!(!tunnels.is_empty());
    assert!(
        tunnels
            .iter()
            .all(|t| *t == format!("127.0.0.1:{}", front.port))
    );
    assert_eq!(
        front.connections() - before,
        tunnels.len(),
        "a connection bypassed the proxy"
    );
    assert!(!stderr(&o).contains(TOKEN));
}

/// A self-signed server certificate (no CA behind it): one attempt, and the message says what
/// to set; trusting the certificate itself is not enough for a CA flag it lacks, so the test
/// only checks the refusal.
#[test]
fn a_self_signed_certificate_is_refused_once_with_the_fix() {
    let pki = Pki::new();
    let work = Work::sample();
    let front = TlsFront::start(pki.self_signed_server(), None);
    let url = format!("https://127.0.0.1:{}/cnr", front.port);
    let o = work.run(&["registry", "list", "--registry", &url, "acme"], &[]);
    support::assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains("TLS: the server's certificate"), "{err}");
    assert!(err.contains("set SSL_CERT_FILE"), "{err}");
    assert!(
        !err.contains("UnknownIssuer") && !err.contains("OtherError"),
        "{err}"
    );
    assert_eq!(front.connections(), 1, "a certificate error was retried");
}

/// A GitHub API behind a self-signed certificate: one connection (certificate errors are not
/// retried, though the release options allow 3 retries) and a message saying what to set.
#[test]
fn a_self_signed_github_api_is_tried_once() {
    let pki = Pki::new();
    let front = TlsFront::start(pki.self_signed_server(), None);
    let origin = format!("https://127.0.0.1:{}", front.port);
    let work = Work::sample();
    let options = r#"retries: "3", retry_delay_ms: "5""#;
    let file = crate::github::write_pipeline(&work, &origin, options, "");
    let o = work.run(&["run", file], &[("GITHUB_TOKEN", TOKEN)]);
    support::assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains("TLS: the server's certificate"), "{err}");
    assert!(err.contains("set SSL_CERT_FILE"), "{err}");
    assert_eq!(front.connections(), 1, "a certificate error was retried");
}

/// A GitHub API that accepts connections and never answers: the run gives up when the retry
/// budget (`retry_max_seconds`, here 1 s) is spent, though one call may wait 60 s
/// (`timeout_seconds`): the attempts count against the budget, and the error says so.
#[test]
fn a_hanging_github_api_holds_the_run_no_longer_than_the_retry_budget() {
    let port = support::hanging_port();
    let work = Work::sample();
    let options =
        r#"retries: "5", retry_delay_ms: "5", timeout_seconds: "60", retry_max_seconds: "1""#;
    let file =
        crate::github::write_pipeline(&work, &format!("http://127.0.0.1:{port}"), options, "");
    let o = work.run(&["run", file], &[("GITHUB_TOKEN", TOKEN)]);
    support::assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("no answer within the retry budget of 1s"),
        "{err}"
    );
    assert!(!err.contains(TOKEN));
}

/// An app registry that accepts connections and never answers: the run gives up when the
/// registry's retry budget (`registry.retry_max_seconds`, here 1 s) is spent, though one call
/// may wait 60 s (`registry.timeout_seconds`), as GitHub's calls do.
#[test]
fn a_hanging_app_registry_holds_the_run_no_longer_than_the_retry_budget() {
    let port = support::hanging_port();
    let work = Work::sample();
    let p = work.path().join("pipelines/sample.yaml");
    let text = std::fs::read_to_string(&p).unwrap().replace(
        "  url: dir:_out/registry\n",
        &format!(
            "  url: http://127.0.0.1:{port}/cnr\n  retries: 5\n  retry_max_seconds: 1\n  timeout_seconds: 60\n"
        ),
    );
    assert!(text.contains("retry_max_seconds: 1"), "{text}");
    std::fs::write(&p, text).unwrap();
    let o = work.run(&["run", "pipelines/sample.yaml"], &[]);
    support::assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("no answer within the retry budget of 1s"),
        "{err}"
    );
}

/// Unusable network variables are input errors naming the variable (exit 2).
#[test]
fn unusable_network_variables_are_input_errors() {
    let work = Work::sample();
    let args = [
        "registry",
        "list",
        "--registry",
        "http://127.0.0.1:9/cnr",
        "acme",
    ];
    let o = work.run(&args, &[("SSL_CERT_FILE", "/nonexistent/ca.pem")]);
    support::assert_code(&o, 2);
    assert!(
        stderr(&o).contains("SSL_CERT_FILE=/nonexistent/ca.pem: cannot read it"),
        "{}",
        stderr(&o)
    );
    let o = work.run(&args, &[("HTTPS_PROXY", "::bad")]);
    support::assert_code(&o, 2);
    assert!(
        stderr(&o).contains("HTTPS_PROXY: '::bad' is not a proxy URL"),
        "{}",
        stderr(&o)
    );
}

/// `--insecure` to a host off loopback: each run warns, naming the host. The request goes
/// through `HTTP_PROXY` (plain http is proxied too), whose refusal ends the run quickly.
#[test]
fn insecure_plain_http_is_warned_about_each_run() {
    let work = Work::sample();
    let proxy = Proxy::start();
    let args = [
        "registry",
        "list",
        "--registry",
        "http://registry.example/cnr",
        "--insecure",
        "acme",
    ];
    for _ in 0..2 {
        let o = work.run(&args, &[("HTTP_PROXY", &proxy.url())]);
        support::assert_code(&o, 1);
        assert!(
            stderr(&o).contains("warning: --insecure: plain http:// to registry.example;"),
            "{}",
            stderr(&o)
        );
    }
}

/// The OCI distribution client is built on the same policy: a certificate it cannot trust is
/// refused on the first attempt (never retried), in words.
#[tokio::test]
async fn the_oci_client_refuses_an_untrusted_certificate_once_in_words() {
    use olm_release_oci::{ImageLocation, NoEvents, PushRequest, Store, StoreOptions, push};
    let pki = Pki::new();
    let fake = crate::oci::fake::Fake::start();
    let front = TlsFront::start(pki.self_signed_server(), Some(fake.addr));
    let target =
        ImageLocation::parse(&format!("https://127.0.0.1:{}/kubevirt/bundle", front.port)).unwrap();
    let store = Store::open(&target, StoreOptions::default(), &olm_release_oci::NoEvents).unwrap();
    let (_, img) = crate::oci::image("0.1.0");
    let req = PushRequest {
        image: &img,
        tag: "0.1.0",
        force: false,
    };
    let e = push(&store, &req, &NoEvents).await.unwrap_err().to_string();
    assert!(e.contains("TLS: the server's certificate"), "{e}");
    assert!(e.contains("set SSL_CERT_FILE"), "{e}");
    assert_eq!(
        front.connections(),
        1,
        "a certificate error was retried: {e}"
    );
    assert!(fake.seen().is_empty());
}
