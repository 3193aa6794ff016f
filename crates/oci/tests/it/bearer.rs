//! The Bearer challenge flow (quay.io, Docker Hub) and read-back faults, against the
//! in-process fake registry.

use olm_release_base::secret::Secret;
use olm_release_http::retry::RetryPolicy;
use olm_release_oci::{
    Credentials, Event, ImageLocation, NoEvents, OciError, PushOutcome, PushRequest, Store,
    StoreOptions, push,
};

use super::fake::{Fake, PASSWORD, TOKEN, USER};
use super::{Recorder, image, push_tag};

fn store(fake: &Fake, repository: &str, password: Option<&str>) -> Store {
    let target = ImageLocation::parse(&fake.target(repository)).unwrap();
    Store::open(
        &target,
        StoreOptions::default()
            .with_credentials(password.map(|p| Credentials {
                username: USER.into(),
                password: Secret::new(p),
            }))
            .with_retry(RetryPolicy {
                max_attempts: 3,
                base_delay: std::time::Duration::from_millis(5),
                max_delay: std::time::Duration::from_millis(20),
                max_total: std::time::Duration::from_secs(5),
            }),
        &olm_release_oci::NoEvents,
    )
    .unwrap()
}

#[tokio::test]
async fn a_bearer_challenge_is_answered_with_a_token_from_the_realm() {
    let fake = Fake::start();
    let s = store(&fake, "kubevirt/kubevirt-bundle", Some(PASSWORD));
    let (_, img) = image("0.1.0");
    let events = Recorder::default();
    let req = PushRequest {
        image: &img,
        tag: "0.1.0",
        force: false,
    };
    let outcome = push(&s, &req, &events).await.unwrap();
    assert!(matches!(outcome, PushOutcome::Pushed { .. }), "{outcome:?}");

    let st = fake.state.lock().unwrap();
    assert_eq!(
        st.manifests["0.1.0"].1,
        img.manifest.bytes.to_vec(),
        "exact bytes"
    );
    assert_eq!(
        st.manifests["0.1.0"].0,
        "application/vnd.oci.image.manifest.v1+json"
    );
    assert_eq!(
        st.scopes,
        ["repository:kubevirt/kubevirt-bundle:pull,push"],
        "one token, reused"
    );
    // The first request went without credentials, got the challenge; every later one carried
    // the token; the credentials went only to the token endpoint.
    assert_eq!(st.seen[0].2, None);
    assert_eq!(st.seen[1].1, "/token");
    for (_, path, auth) in &st.seen[2..] {
        assert_eq!(
            auth.as_deref(),
            Some(format!("Bearer {TOKEN}").as_str()),
            "{path}"
        );
    }
    drop(st);
    let events = events.take();
    assert!(
        events.contains(&Event::Token {
            service: "fake-registry".into(),
            scope: "repository:kubevirt/kubevirt-bundle:pull,push".into()
        }),
        "{events:?}"
    );
    let shown = format!("{s:?} {events:?}");
    assert!(
        !shown.contains(TOKEN) && !shown.contains(PASSWORD),
        "{shown}"
    );
}

#[tokio::test]
async fn refused_credentials_say_so_without_showing_them() {
    let fake = Fake::start();
    let wrong = "wrong-password-5678";
    let s = store(&fake, "kubevirt/bundle", Some(wrong));
    let (_, img) = image("0.1.0");
    let e = push_tag(&s, &img, "0.1.0").await.unwrap_err();
    let text = e.to_string();
    assert_eq!(e.status(), Some(401), "{text}");
    assert!(
        text.contains("token service refused the credentials"),
        "{text}"
    );
    for shown in [text, format!("{e:?}"), format!("{s:?}")] {
        assert!(
            !shown.contains(wrong) && !shown.contains(PASSWORD),
            "{shown}"
        );
    }

    let anonymous = store(&fake, "kubevirt/bundle", None);
    let e = push_tag(&anonymous, &img, "0.1.0").await.unwrap_err();
    assert!(
        e.to_string()
            .contains("anonymous token; credentials are needed"),
        "{e}"
    );
}

#[tokio::test]
async fn a_read_back_that_differs_fails_the_push() {
    let fake = Fake::start();
    fake.state.lock().unwrap().tamper_read_back = true;
    let s = store(&fake, "kubevirt/bundle", Some(PASSWORD));
    let (_, img) = image("0.1.0");
    let e = push_tag(&s, &img, "0.1.0").await.unwrap_err();
    assert!(matches!(e, OciError::ReadBack { .. }), "{e}");
    assert!(e.to_string().starts_with("read-back of 127.0.0.1:"), "{e}");
    assert!(
        e.to_string()
            .contains(&format!("/kubevirt/bundle@{} failed", img.digest())),
        "{e}"
    );
    assert!(e.to_string().contains("serves other bytes"), "{e}");
}

#[tokio::test]
async fn unavailable_answers_are_retried_and_reported() {
    let fake = Fake::start();
    fake.state.lock().unwrap().unavailable = 2;
    let s = store(&fake, "kubevirt/bundle", Some(PASSWORD));
    let (_, img) = image("0.1.0");
    let events = Recorder::default();
    push(
        &s,
        &PushRequest {
            image: &img,
            tag: "0.1.0",
            force: false,
        },
        &events,
    )
    .await
    .unwrap();
    let retries: Vec<_> = events
        .take()
        .into_iter()
        .filter_map(|e| match e {
            Event::Retry {
                attempt, of, why, ..
            } => Some((attempt, of, why)),
            _ => None,
        })
        .collect();
    assert_eq!(retries.len(), 2, "{retries:?}");
    assert_eq!((retries[0].0, retries[0].1), (2, 3));
    assert_eq!(
        retries[0].2,
        "HEAD /v2/kubevirt/bundle/manifests/0.1.0: HTTP 503"
    );

    // More 503s than attempts: the last one is the error.
    fake.state.lock().unwrap().unavailable = 10;
    let (_, other) = image("0.2.0");
    let e = push_tag(&s, &other, "0.2.0").await.unwrap_err();
    assert_eq!(e.status(), Some(503), "{e}");
}

#[tokio::test]
async fn an_upload_location_on_another_host_is_refused() {
    let fake = Fake::start();
    fake.state.lock().unwrap().upload_location =
        Some("https://storage.example/upload?session=1".into());
    let s = store(&fake, "kubevirt/bundle", Some(PASSWORD));
    let (_, img) = image("0.1.0");
    let e = push_tag(&s, &img, "0.1.0").await.unwrap_err();
    assert!(matches!(e, OciError::Invalid { .. }), "{e}");
    assert!(
        e.to_string()
            .contains("the upload location: a redirect to another host (https://storage.example)"),
        "{e}"
    );
    assert!(
        fake.seen().iter().all(|(m, _, _)| m != "PUT"),
        "nothing was sent elsewhere or stored"
    );
}

/// A registry that accepts connections and never answers: the client gives up when the retry
/// budget (here 1 s) is spent, though one request may wait 60 s: the attempts count against
/// the budget, and the error says so.
#[tokio::test]
async fn a_hanging_registry_holds_the_client_no_longer_than_the_retry_budget() {
    let port = crate::support::hanging_port();
    let target = ImageLocation::parse(&format!("127.0.0.1:{port}/acme/bundle")).unwrap();
    let s = Store::open(
        &target,
        StoreOptions::default().with_retry(RetryPolicy {
            max_attempts: 5,
            base_delay: std::time::Duration::from_millis(5),
            max_delay: std::time::Duration::from_millis(20),
            max_total: std::time::Duration::from_secs(1),
        }),
        &NoEvents,
    )
    .unwrap();
    let e = s.resolve("0.1.0", &NoEvents).await.unwrap_err();
    assert!(matches!(e, OciError::Transport { .. }), "{e}");
    assert!(
        e.to_string()
            .contains("no answer within the retry budget of 1s"),
        "{e}"
    );
}

#[tokio::test]
async fn a_bundle_image_reads_back_from_a_registry_by_tag_and_by_digest() {
    let fake = Fake::start();
    let s = store(&fake, "example/op-bundle", Some(PASSWORD));
    let (folder, img) = image("0.4.0");
    let req = PushRequest {
        image: &img,
        tag: "0.4.0",
        force: false,
    };
    push(&s, &req, &NoEvents).await.unwrap();
    let limits = olm_release_olm::archive::Limits::default();
    for reference in ["0.4.0", img.digest()] {
        let read = olm_release_oci::bundle_read::read_bundle(&s, reference, &limits, &NoEvents)
            .await
            .unwrap()
            .expect("pushed");
        assert_eq!(read.digest, img.digest(), "{reference}");
        assert_eq!(&read.files, folder.files(), "{reference}");
    }
}
