//! Targets, tags, plain-HTTP rules and challenge parsing.

use olm_release::error::Class;
use olm_release::oci::registry::Challenge;
use olm_release::oci::{
    Credentials, NoEvents, OciError, PushRequest, Store, StoreOptions, Target, check_tag, push,
};
use olm_release::secret::Secret;

use super::fake::{Fake, PASSWORD, USER};
use super::image;

fn base(t: &str) -> String {
    match Target::parse(t).unwrap() {
        Target::Registry(r) => format!("{} {}", r.base, r.repository),
        Target::Layout(p) => format!("layout {}", p.display()),
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
    let Target::Registry(r) = Target::parse("quay.io/kubevirt/kubevirt-bundle").unwrap() else {
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
        let e = Target::parse(bad).unwrap_err();
        assert!(e.to_string().contains(why), "{bad}: {e}");
        assert_eq!(e.class(), Class::Input);
    }
    let e = Target::parse("https://robot:hunter2-secret@quay.io/x").unwrap_err();
    assert!(e.to_string().contains("must not hold credentials"), "{e}");
    assert!(!e.to_string().contains("hunter2"), "{e}");
}

#[test]
fn tags_follow_the_distribution_grammar() {
    for ok in ["0.1.0", "v0.22.0", "0.1.0-alpha.3", "latest", "_x"] {
        check_tag(ok).unwrap();
    }
    assert_eq!(
        olm_release::oci::tag_for_version("1.0.0+build.5"),
        "1.0.0_build.5"
    );
    check_tag(&olm_release::oci::tag_for_version("1.0.0+build.5")).unwrap();
    for bad in ["", "1.0.0+build.5", ".x", "-x", "a/b", &"x".repeat(129)] {
        assert!(check_tag(bad).is_err(), "{bad}");
    }
}

#[test]
fn plain_http_is_refused_off_loopback_unless_insecure() {
    let t = Target::parse("http://registry.example:5000/kubevirt/bundle").unwrap();
    let e = Store::open(&t, StoreOptions::default()).unwrap_err();
    assert!(matches!(e, OciError::InsecureHttp { .. }), "{e}");
    assert_eq!(e.class(), Class::Input);
    assert!(e.to_string().contains("plain http://"), "{e}");
    Store::open(&t, StoreOptions::default().with_insecure(true)).unwrap();
    // Loopback needs no flag; https never does.
    for ok in [
        "http://127.0.0.1:5000/x",
        "http://localhost:1/x",
        "https://registry.example/x",
    ] {
        Store::open(&Target::parse(ok).unwrap(), StoreOptions::default()).unwrap();
    }
}

#[tokio::test]
async fn a_plain_http_token_realm_off_loopback_gets_no_credentials() {
    let fake = Fake::start();
    fake.state.lock().unwrap().realm = Some("http://auth.example/token".into());
    let t = Target::parse(&fake.target("kubevirt/bundle")).unwrap();
    let s = Store::open(
        &t,
        StoreOptions::default().with_credentials(Some(Credentials {
            username: USER.into(),
            password: Secret::new(PASSWORD),
        })),
    )
    .unwrap();
    let (_, img) = image("0.1.0");
    let e = push(
        &s,
        &PushRequest {
            image: &img,
            tag: "0.1.0",
            force: false,
        },
        &NoEvents,
    )
    .await
    .unwrap_err();
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
