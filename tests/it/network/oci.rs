//! The OCI client on the one network policy, end to end: the built binary pushes the sample's
//! bundle image (`run` with the bundle-image stage) to the in-process OCI registry fake behind
//! the loopback TLS front, as a user would — untrusted, trusted through `SSL_CERT_FILE`, and
//! through the CONNECT proxy (`HTTPS_PROXY`, `NO_PROXY`). The environment is the process's
//! own, so only a subprocess can set it. And `--insecure` warns for the OCI client exactly
//! when the app-registry client does: plain http to a host off loopback.

use crate::oci::fake::{Fake, PASSWORD, USER};
use crate::support::{self, Work, stderr};

use super::wire::{Pki, Proxy, TlsFront};

const EPOCH: (&str, &str) = ("SOURCE_DATE_EPOCH", "1570449600");

/// The sample pipeline with only the stages up to bundle-image, pushing to `target`.
fn pipeline(work: &Work, target: &str) -> &'static str {
    let sample = std::fs::read_to_string(work.path().join("pipelines/sample.yaml")).unwrap();
    let text = sample
        .replace(
            "target: oci:_out/oci/sample-operator-bundle",
            &format!("target: {target}"),
        )
        .lines()
        .map(|l| {
            if l.starts_with("stages:") {
                "stages: [render, package, verify, bundle-image]"
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert!(text.contains(target), "the sample's image target moved");
    std::fs::write(work.path().join("pipelines/oci.yaml"), text).unwrap();
    "pipelines/oci.yaml"
}

/// The fake registry behind a TLS front whose certificate `pki` issued; its token realm is
/// served through the front too, so every request crosses TLS.
fn fake_behind_tls(config: rustls::ServerConfig) -> (Fake, TlsFront) {
    let fake = Fake::start();
    let front = TlsFront::start(config, Some(fake.addr));
    fake.state.lock().unwrap().realm = Some(format!("https://127.0.0.1:{}/token", front.port));
    (fake, front)
}

fn run(work: &Work, file: &str, env: &[(&str, &str)]) -> std::process::Output {
    let mut all = vec![EPOCH, ("OCI_USERNAME", USER), ("OCI_PASSWORD", PASSWORD)];
    all.extend_from_slice(env);
    work.run(&["run", file], &all)
}

/// Untrusted (self-signed): refused on the first attempt, in words, nothing stored.
#[test]
fn a_bundle_image_push_to_a_self_signed_registry_is_refused_once_in_words() {
    let pki = Pki::new();
    let (fake, front) = fake_behind_tls(pki.self_signed_server());
    let work = Work::sample();
    let file = pipeline(
        &work,
        &format!("https://127.0.0.1:{}/sample/bundle", front.port),
    );
    let o = run(&work, file, &[]);
    support::assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains("TLS: the server's certificate"), "{err}");
    assert!(err.contains("set SSL_CERT_FILE"), "{err}");
    assert!(
        !err.contains("UnknownIssuer") && !err.contains("retrying"),
        "{err}"
    );
    assert_eq!(front.connections(), 1, "a certificate error was retried");
    assert!(fake.seen().is_empty());
}

/// A private CA through `SSL_CERT_FILE`: pushed (token, blobs, manifest) and read back, a
/// rerun finds it unchanged; the next version through `HTTPS_PROXY`, every connection a
/// CONNECT tunnel to the registry; and one with `NO_PROXY`, direct.
#[test]
fn a_bundle_image_is_pushed_over_a_private_ca_and_through_the_proxy() {
    let pki = Pki::new();
    let (fake, front) = fake_behind_tls(pki.private_ca_server());
    let work = Work::sample();
    let ca = pki.write_ca(work.path());
    let ca = ca.to_str().unwrap();
    let file = pipeline(
        &work,
        &format!("https://127.0.0.1:{}/sample/bundle", front.port),
    );

    let o = run(&work, file, &[("SSL_CERT_FILE", ca)]);
    support::assert_code(&o, 0);
    {
        let st = fake.state.lock().unwrap();
        assert!(st.manifests.contains_key("0.1.0"), "{:?}", st.seen);
        assert_eq!(st.blobs.len(), 2, "config and layer");
        assert!(!st.scopes.is_empty(), "the token came through the front");
    }
    let seen = fake.seen();
    let read_back = seen
        .iter()
        .any(|(m, p, _)| m == "GET" && p.contains("/manifests/sha256:"));
    assert!(read_back, "no read-back by digest: {seen:?}");
    assert!(!stderr(&o).contains(PASSWORD));

    let o = run(&work, file, &[("SSL_CERT_FILE", ca)]);
    support::assert_code(&o, 0);
    assert!(
        stderr(&o).contains("unchanged: bundle image"),
        "{}",
        stderr(&o)
    );

    // Another version, every request through the proxy: token, blobs, manifest, read-back.
    let proxy = Proxy::start();
    let before = front.connections();
    let o = run(
        &work,
        file,
        &[
            ("SSL_CERT_FILE", ca),
            ("HTTPS_PROXY", &proxy.url()),
            ("VERSION", "0.2.0"),
        ],
    );
    support::assert_code(&o, 0);
    assert!(fake.state.lock().unwrap().manifests.contains_key("0.2.0"));
    let tunnels = proxy.targets();
    assert!(!tunnels.is_empty(), "the proxy saw no CONNECT");
    let front_at = format!("127.0.0.1:{}", front.port);
    assert!(tunnels.iter().all(|t| *t == front_at), "{tunnels:?}");
    assert_eq!(
        front.connections() - before,
        tunnels.len(),
        "a connection bypassed the proxy"
    );

    let before = front.connections();
    let o = run(
        &work,
        file,
        &[
            ("SSL_CERT_FILE", ca),
            ("HTTPS_PROXY", &proxy.url()),
            ("NO_PROXY", "127.0.0.1"),
            ("VERSION", "0.3.0"),
        ],
    );
    support::assert_code(&o, 0);
    assert!(fake.state.lock().unwrap().manifests.contains_key("0.3.0"));
    assert_eq!(proxy.targets(), tunnels, "NO_PROXY was ignored");
    assert!(front.connections() > before);
}

/// `--insecure` to a registry off loopback: each run warns once, naming the host, in the
/// app-registry client's words (the request goes to `HTTP_PROXY`, whose refusal ends it).
/// Plain http to the loopback fake gets no warning, with `--insecure` or without.
#[test]
fn insecure_plain_http_to_an_image_registry_is_warned_about_exactly_off_loopback() {
    let work = Work::sample();
    let proxy = Proxy::start();
    let file = pipeline(&work, "http://registry.example/sample/bundle");
    let warning = "warning: --insecure: plain http:// to registry.example; credentials and content travel unencrypted";
    for _ in 0..2 {
        let o = work.run(
            &["run", file, "--insecure"],
            &[
                EPOCH,
                ("OCI_USERNAME", USER),
                ("OCI_PASSWORD", PASSWORD),
                ("HTTP_PROXY", &proxy.url()),
            ],
        );
        support::assert_code(&o, 1);
        let err = stderr(&o);
        assert_eq!(err.matches(warning).count(), 1, "{err}");
        assert!(!err.contains(PASSWORD), "{err}");
    }
    // Without the flag it is refused before any request, with no warning.
    let o = run(&work, file, &[("HTTP_PROXY", &proxy.url())]);
    support::assert_code(&o, 2);
    assert!(
        !stderr(&o).contains("warning: --insecure"),
        "{}",
        stderr(&o)
    );

    let fake = Fake::start();
    let file = pipeline(&work, &format!("http://{}/sample/bundle", fake.addr));
    for args in [&["run", file][..], &["run", file, "--insecure"][..]] {
        let o = work.run(
            args,
            &[EPOCH, ("OCI_USERNAME", USER), ("OCI_PASSWORD", PASSWORD)],
        );
        support::assert_code(&o, 0);
        assert!(!stderr(&o).contains("--insecure: plain"), "{}", stderr(&o));
    }
    assert!(fake.state.lock().unwrap().manifests.contains_key("0.1.0"));
}

/// A retried request of the image registry reads as the app registry's do: the call once, the
/// attempt that comes next.
#[test]
fn image_registry_retries_read_as_the_app_registry_s() {
    let work = Work::sample();
    let fake = Fake::start();
    fake.state.lock().unwrap().unavailable = 1;
    let file = pipeline(&work, &format!("http://{}/sample/bundle", fake.addr));
    let o = run(&work, file, &[]);
    support::assert_code(&o, 0);
    let err = stderr(&o);
    let line = err
        .lines()
        .find(|l| l.contains("retrying in"))
        .unwrap_or_else(|| panic!("no retry line in\n{err}"));
    assert!(
        line.starts_with("warning: HEAD /v2/sample/bundle/manifests/0.1.0: HTTP 503"),
        "{line}"
    );
    assert!(line.ends_with("(attempt 2 of 5)"), "{line}");
    assert_eq!(line.matches("/v2/").count(), 1, "{line}");
}
