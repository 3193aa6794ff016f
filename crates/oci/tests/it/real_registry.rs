//! Against the real distribution registry (docker-registry 2.8 from scripts/peers/oci-registry.sh),
//! read back by skopeo and umoci, which share no code with olm-release.

use olm_release_base::Classified as _;
use std::process::Command;

use olm_release_base::secret::Secret;
use olm_release_oci::{
    Credentials, Decision, Event, ImageLocation, NoEvents, OciError, PushOutcome, PushRequest,
    Store, StoreOptions, check, push,
};

use super::{Recorder, folder_files, image, repo, run, umoci_unpack};
use crate::support::peer;

fn open(registry: &str, repository: &str, credentials: Option<Credentials>) -> Store {
    let target = ImageLocation::parse(&format!("{registry}/{repository}")).unwrap();
    Store::open(
        &target,
        StoreOptions::default().with_credentials(credentials),
        &olm_release_oci::NoEvents,
    )
    .unwrap()
}

fn req<'a>(
    image: &'a olm_release_olm::bundle_image::OciImage,
    tag: &'a str,
    force: bool,
) -> PushRequest<'a> {
    PushRequest { image, tag, force }
}

#[tokio::test]
async fn a_pushed_bundle_reads_back_in_skopeo_and_unpacks_in_umoci() {
    let Some(registry) = peer("OCI_REGISTRY") else {
        return;
    };
    let repository = repo("readers");
    let store = open(&registry, &repository, None);
    let (folder, img) = image("0.1.0");
    let events = Recorder::default();
    let outcome = push(&store, &req(&img, "0.1.0", false), &events)
        .await
        .unwrap();
    assert_eq!(
        outcome,
        PushOutcome::Pushed {
            digest: img.digest().into(),
            replaced: None,
            uploaded: vec![img.config.digest.clone(), img.layers[0].digest.clone()],
        }
    );
    let events = events.take();
    assert!(
        events.contains(&Event::ReadBack {
            digest: img.digest().into()
        }),
        "{events:?}"
    );

    // skopeo: the digest and the six labels, without unpacking.
    let reference = format!("docker://{registry}/{repository}:0.1.0");
    let inspect: serde_json::Value = serde_json::from_str(&run(Command::new("skopeo").args([
        "inspect",
        "--tls-verify=false",
        &reference,
    ])))
    .unwrap();
    assert_eq!(inspect["Digest"], img.digest());
    for (k, v) in folder.labels() {
        assert_eq!(inspect["Labels"][k], v.as_str(), "{k}");
    }
    assert_eq!(inspect["Labels"].as_object().unwrap().len(), 6);

    // skopeo copies it back to an OCI layout unchanged; umoci unpacks the bundle's files.
    let dir = tempfile::tempdir().unwrap();
    let layout = dir.path().join("copy");
    run(Command::new("skopeo")
        .args(["copy", "--src-tls-verify=false", &reference])
        .arg(format!("oci:{}:0.1.0", layout.display())));
    let index: serde_json::Value =
        serde_json::from_slice(&std::fs::read(layout.join("index.json")).unwrap()).unwrap();
    assert_eq!(
        index["manifests"][0]["digest"],
        img.digest(),
        "skopeo kept the exact bytes"
    );
    assert_eq!(umoci_unpack(&layout, "0.1.0"), folder_files(&folder));
}

#[tokio::test]
async fn a_second_push_of_the_same_image_writes_nothing() {
    let Some(registry) = peer("OCI_REGISTRY") else {
        return;
    };
    let store = open(&registry, &repo("idempotent"), None);
    let (_, img) = image("0.1.0");
    // The dry-run's question writes nothing.
    let decision = check(&store, &req(&img, "0.1.0", false), &NoEvents).await;
    assert_eq!(decision.unwrap(), Decision::New);
    assert_eq!(store.resolve("0.1.0", &NoEvents).await.unwrap(), None);
    push(&store, &req(&img, "0.1.0", false), &NoEvents)
        .await
        .unwrap();
    let events = Recorder::default();
    let again = push(&store, &req(&img, "0.1.0", false), &events)
        .await
        .unwrap();
    assert_eq!(
        again,
        PushOutcome::Unchanged {
            digest: img.digest().into()
        }
    );
    assert_eq!(events.take(), [], "no blob or manifest was written");
    assert_eq!(
        check(&store, &req(&img, "0.1.0", false), &NoEvents)
            .await
            .unwrap(),
        Decision::Unchanged
    );
}

#[tokio::test]
async fn another_digest_at_the_tag_is_refused_unless_forced() {
    let Some(registry) = peer("OCI_REGISTRY") else {
        return;
    };
    let store = open(&registry, &repo("conflict"), None);
    let (_, first) = image("0.1.0");
    let (_, second) = image("0.2.0");
    push(&store, &req(&first, "latest", false), &NoEvents)
        .await
        .unwrap();

    let e = push(&store, &req(&second, "latest", false), &NoEvents)
        .await
        .unwrap_err();
    assert!(matches!(e, OciError::Conflict { .. }), "{e}");
    let text = e.to_string();
    assert!(
        text.contains(first.digest()) && text.contains(second.digest()),
        "{text}"
    );
    assert!(text.contains("--force"), "{text}");
    assert_eq!(e.class(), olm_release_base::Class::Stage);
    assert_eq!(
        store.resolve("latest", &NoEvents).await.unwrap().as_deref(),
        Some(first.digest()),
        "the tag did not move"
    );

    assert_eq!(
        check(&store, &req(&second, "latest", true), &NoEvents)
            .await
            .unwrap(),
        Decision::Overwrite {
            existing: first.digest().into()
        }
    );
    let forced = push(&store, &req(&second, "latest", true), &NoEvents)
        .await
        .unwrap();
    assert!(
        matches!(&forced, PushOutcome::Pushed { replaced: Some(r), .. } if r == first.digest()),
        "{forced:?}"
    );
    assert_eq!(
        store.resolve("latest", &NoEvents).await.unwrap().as_deref(),
        Some(second.digest())
    );
}

#[tokio::test]
async fn basic_auth_against_the_real_registry() {
    let Some(registry) = peer("OCI_REGISTRY_AUTH") else {
        return;
    };
    let (Some(user), Some(password)) = (peer("OCI_REGISTRY_USER"), peer("OCI_REGISTRY_PASSWORD"))
    else {
        return;
    };
    let repository = repo("basic");
    let (_, img) = image("0.1.0");

    // No credentials: the registry's 401, said plainly.
    let anonymous = open(&registry, &repository, None);
    let e = push(&anonymous, &req(&img, "0.1.0", false), &NoEvents)
        .await
        .unwrap_err();
    assert_eq!(e.status(), Some(401), "{e}");
    assert!(e.to_string().contains("needs credentials"), "{e}");

    // Wrong password: refused, and the password appears nowhere.
    let wrong = "not-the-password-1234";
    let bad = open(
        &registry,
        &repository,
        Some(Credentials {
            username: user.clone(),
            password: Secret::new(wrong),
        }),
    );
    let e = push(&bad, &req(&img, "0.1.0", false), &NoEvents)
        .await
        .unwrap_err();
    assert_eq!(e.status(), Some(401), "{e}");
    for shown in [e.to_string(), format!("{e:?}"), format!("{bad:?}")] {
        assert!(!shown.contains(wrong), "{shown}");
    }

    // The right credentials: pushed and read back.
    let good = open(
        &registry,
        &repository,
        Some(Credentials {
            username: user.clone(),
            password: Secret::new(password.clone()),
        }),
    );
    let events = Recorder::default();
    let outcome = push(&good, &req(&img, "0.1.0", false), &events)
        .await
        .unwrap();
    assert!(matches!(outcome, PushOutcome::Pushed { .. }), "{outcome:?}");
    let shown = format!("{good:?} {:?}", events.take());
    assert!(!shown.contains(&password), "{shown}");
    let basic = base64::Engine::encode(
        &base64::engine::general_purpose::STANDARD,
        format!("{user}:{password}"),
    );
    assert!(!shown.contains(&basic), "{shown}");

    // skopeo with the same credentials sees it.
    let inspect = run(Command::new("skopeo").args([
        "inspect",
        "--tls-verify=false",
        "--creds",
        &format!("{user}:{password}"),
        &format!("docker://{registry}/{repository}:0.1.0"),
    ]));
    assert!(inspect.contains(img.digest()), "{inspect}");
}
