//! Targets, tags, plain-HTTP rules and challenge parsing.

use olm_release_base::Class;
use olm_release_base::Classified as _;
use olm_release_base::secret::Secret;
use olm_release_oci::distribution::Challenge;
use olm_release_oci::{
    Credentials, Event, ImageLocation, NoEvents, OciError, PushRequest, Store, StoreOptions,
    check_tag, push,
};

use super::fake::{Fake, PASSWORD, USER};
use super::{image, push_tag};

fn base(t: &str) -> String {
    match ImageLocation::parse(t).unwrap() {
        ImageLocation::Remote(r) => format!("{} {}", r.base, r.repository),
        ImageLocation::Layout(p) => format!("layout {}", p.display()),
    }
}

#[test]
fn targets_parse_with_the_scheme_rules() {
    assert_eq!(base("oci:_out/oci"), "layout _out/oci");
    assert_eq!(
        base("127.0.0.1:5000/kubevirt/bundle"),
        "http://127.0.0.1:5000/ kubevirt/bundle"
    );
    assert_eq!(base("localhost:5000/x"), "http://localhost:5000/ x");
    assert_eq!(base("[::1]:5000/x"), "http://[::1]:5000/ x");
    assert_eq!(
        base("quay.io/kubevirt/kubevirt-bundle"),
        "https://quay.io/ kubevirt/kubevirt-bundle"
    );
    assert_eq!(
        base("docker://quay.io/kubevirt/b"),
        "https://quay.io/ kubevirt/b"
    );
    assert_eq!(
        base("http://registry.lan:5000/x"),
        "http://registry.lan:5000/ x"
    );
    let ImageLocation::Remote(r) =
        ImageLocation::parse("quay.io/kubevirt/kubevirt-bundle").unwrap()
    else {
        unreachable!()
    };
    assert_eq!(
        r.pinned("sha256:ab"),
        "quay.io/kubevirt/kubevirt-bundle@sha256:ab"
    );
    for (bad, why) in [
        ("oci:", "needs a folder"),
        ("kubevirt/bundle", "does not name a registry host"),
        ("quay.io/Kubevirt/bundle", "not a repository name"),
        ("quay.io/kubevirt/bundle:0.1.0", "holds a tag or digest"),
        ("quay.io", "HOST[:PORT]/REPOSITORY"),
        ("ftp://quay.io/x", "unknown scheme"),
    ] {
        let e = ImageLocation::parse(bad).unwrap_err();
        assert!(e.to_string().contains(why), "{bad}: {e}");
        assert_eq!(e.class(), Class::Input);
    }
    let e = ImageLocation::parse("https://robot:hunter2-secret@quay.io/x").unwrap_err();
    assert!(e.to_string().contains("must not hold credentials"), "{e}");
    assert!(!e.to_string().contains("hunter2"), "{e}");
}

#[test]
fn tags_follow_the_distribution_grammar() {
    for ok in ["0.1.0", "v0.22.0", "0.1.0-alpha.3", "latest", "_x"] {
        check_tag(ok).unwrap();
    }
    assert_eq!(
        olm_release_oci::tag_for_version("1.0.0+build.5"),
        "1.0.0_build.5"
    );
    check_tag(&olm_release_oci::tag_for_version("1.0.0+build.5")).unwrap();
    for bad in ["", "1.0.0+build.5", ".x", "-x", "a/b", &"x".repeat(129)] {
        assert!(check_tag(bad).is_err(), "{bad}");
    }
}

/// The warnings a client gave, in order.
#[derive(Default)]
struct Warnings(std::sync::Mutex<Vec<String>>);

impl olm_release_oci::Events for Warnings {
    fn event(&self, e: Event) {
        if let Event::Warning(w) = e {
            self.0.lock().unwrap().push(w);
        }
    }
}

impl Warnings {
    fn taken(&self) -> Vec<String> {
        std::mem::take(&mut self.0.lock().unwrap())
    }
}

/// Plain http off loopback is refused without `insecure`; with it the client warns once,
/// naming the host, in the app-registry client's words; loopback and https give no warning.
#[test]
fn plain_http_is_refused_off_loopback_unless_insecure_and_then_warned_about() {
    let warnings = Warnings::default();
    let t = ImageLocation::parse("http://registry.example:5000/kubevirt/bundle").unwrap();
    let e = Store::open(&t, StoreOptions::default(), &warnings).unwrap_err();
    assert!(matches!(e, OciError::InsecureHttp { .. }), "{e}");
    assert_eq!(e.class(), Class::Input);
    assert!(e.to_string().contains("plain http://"), "{e}");
    assert!(warnings.taken().is_empty());
    Store::open(&t, StoreOptions::default().with_insecure(true), &warnings).unwrap();
    assert_eq!(
        warnings.taken(),
        vec![
            "--insecure: plain http:// to registry.example; credentials and content travel unencrypted and can be read or changed on the way"
        ]
    );
    // Loopback needs no flag and gets no warning, with or without it; https never does.
    for ok in [
        "http://127.0.0.1:5000/x",
        "http://localhost:1/x",
        "http://[::1]:5000/x",
        "https://registry.example/x",
    ] {
        for insecure in [false, true] {
            let opts = StoreOptions::default().with_insecure(insecure);
            Store::open(&ImageLocation::parse(ok).unwrap(), opts, &warnings).unwrap();
            assert!(warnings.taken().is_empty(), "{ok}");
        }
    }
}

/// With `insecure`, a plain-http token realm on another host gets the credentials, so it is
/// named too, once, before they are sent; the loopback registry itself is not warned about.
#[tokio::test]
async fn an_insecure_plain_http_token_realm_is_warned_about_before_the_credentials_go() {
    let fake = Fake::start();
    fake.state.lock().unwrap().realm = Some("http://auth.invalid/token".into());
    let t = ImageLocation::parse(&fake.target("kubevirt/bundle")).unwrap();
    let warnings = Warnings::default();
    let opts = StoreOptions::default()
        .with_insecure(true)
        .with_retry(olm_release_http::retry::RetryPolicy {
            max_attempts: 1,
            ..Default::default()
        })
        .with_credentials(Some(Credentials {
            username: USER.into(),
            password: Secret::new(PASSWORD),
        }));
    let s = Store::open(&t, opts, &warnings).unwrap();
    assert!(warnings.taken().is_empty(), "loopback was warned about");
    let (_, img) = image("0.1.0");
    let req = PushRequest {
        image: &img,
        tag: "0.1.0",
        force: false,
    };
    // auth.invalid never resolves: the push fails after the warning.
    push(&s, &req, &warnings).await.unwrap_err();
    let got = warnings.taken();
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        got[0].starts_with("--insecure: plain http:// to auth.invalid;"),
        "{got:?}"
    );
}

#[tokio::test]
async fn a_plain_http_token_realm_off_loopback_gets_no_credentials() {
    let fake = Fake::start();
    fake.state.lock().unwrap().realm = Some("http://auth.example/token".into());
    let t = ImageLocation::parse(&fake.target("kubevirt/bundle")).unwrap();
    let s = Store::open(
        &t,
        StoreOptions::default().with_credentials(Some(Credentials {
            username: USER.into(),
            password: Secret::new(PASSWORD),
        })),
        &NoEvents,
    )
    .unwrap();
    let (_, img) = image("0.1.0");
    let e = push_tag(&s, &img, "0.1.0").await.unwrap_err();
    assert!(
        matches!(e, OciError::InsecureHttp { ref url } if url == "http://auth.example/token"),
        "{e}"
    );
    assert!(fake.seen().iter().all(|(_, p, _)| p != "/token"));
}

#[test]
fn challenges_parse_with_quoted_commas() {
    assert_eq!(
        Challenge::parse(
            r#"Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:samalba/my-app:pull,push""#
        ),
        Some(Challenge::Bearer {
            realm: "https://auth.docker.io/token".into(),
            service: Some("registry.docker.io".into()),
            scope: Some("repository:samalba/my-app:pull,push".into()),
        })
    );
    assert_eq!(
        Challenge::parse("bearer realm=https://quay.io/v2/auth, service=quay.io"),
        Some(Challenge::Bearer {
            realm: "https://quay.io/v2/auth".into(),
            service: Some("quay.io".into()),
            scope: None,
        })
    );
    assert_eq!(
        Challenge::parse(r#"Basic realm="Registry Realm""#),
        Some(Challenge::Basic)
    );
    assert_eq!(Challenge::parse("Negotiate abc"), None);
    assert_eq!(Challenge::parse("Bearer service=x"), None, "no realm");
}

#[test]
fn debug_output_of_credentials_hides_the_password() {
    let c = Credentials {
        username: "robot".into(),
        password: Secret::new("hunter2-pass"),
    };
    assert_eq!(
        format!("{c:?}"),
        r#"Credentials { username: "robot", password: Secret(****) }"#
    );
}
