//! The embedded target `oci:PATH`: an OCI image layout that skopeo and umoci read.

use std::process::Command;

use olm_release_oci::{
    ImageLocation, NoEvents, OciError, PushOutcome, PushRequest, Store, StoreOptions, push,
};

use super::{folder_files, image, push_tag, run, umoci_unpack};

fn open(path: &std::path::Path) -> Store {
    let target = ImageLocation::parse(&format!("oci:{}", path.display())).unwrap();
    Store::open(&target, StoreOptions::default(), &olm_release_oci::NoEvents).unwrap()
}

#[tokio::test]
async fn the_layout_is_read_by_skopeo_and_unpacked_by_umoci() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("oci");
    let store = open(&path);
    let (folder, img) = image("0.1.0");
    let outcome = push_tag(&store, &img, "0.1.0").await.unwrap();
    assert!(matches!(outcome, PushOutcome::Pushed { .. }), "{outcome:?}");

    assert_eq!(
        std::fs::read_to_string(path.join("oci-layout")).unwrap(),
        r#"{"imageLayoutVersion":"1.0.0"}"#
    );
    let index: serde_json::Value =
        serde_json::from_slice(&std::fs::read(path.join("index.json")).unwrap()).unwrap();
    assert_eq!(index["schemaVersion"], 2);
    assert_eq!(
        index["mediaType"],
        "application/vnd.oci.image.index.v1+json"
    );
    assert_eq!(index["manifests"][0]["digest"], img.digest());
    assert_eq!(
        index["manifests"][0]["annotations"]["org.opencontainers.image.ref.name"],
        "0.1.0"
    );
    for blob in std::iter::once(&img.manifest).chain(img.blobs()) {
        let hex = blob.digest.strip_prefix("sha256:").unwrap();
        assert_eq!(
            std::fs::read(path.join("blobs/sha256").join(hex)).unwrap(),
            blob.bytes.to_vec()
        );
    }

    let inspect: serde_json::Value = serde_json::from_str(&run(Command::new("skopeo")
        .arg("inspect")
        .arg(format!("oci:{}:0.1.0", path.display()))))
    .unwrap();
    assert_eq!(inspect["Digest"], img.digest());
    for (k, v) in folder.labels() {
        assert_eq!(inspect["Labels"][k], v.as_str(), "{k}");
    }
    assert_eq!(umoci_unpack(&path, "0.1.0"), folder_files(&folder));
}

#[tokio::test]
async fn the_layout_keeps_the_idempotency_rule_and_several_tags() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("oci");
    let store = open(&path);
    let (_, first) = image("0.1.0");
    let (_, second) = image("0.2.0");
    let req = |image, tag, force| PushRequest { image, tag, force };
    push(&store, &req(&first, "0.1.0", false), &NoEvents)
        .await
        .unwrap();
    let index_before = std::fs::read(path.join("index.json")).unwrap();
    assert_eq!(
        push(&store, &req(&first, "0.1.0", false), &NoEvents)
            .await
            .unwrap(),
        PushOutcome::Unchanged {
            digest: first.digest().into()
        }
    );
    assert_eq!(
        std::fs::read(path.join("index.json")).unwrap(),
        index_before
    );

    let e = push(&store, &req(&second, "0.1.0", false), &NoEvents)
        .await
        .unwrap_err();
    assert!(matches!(e, OciError::Conflict { .. }), "{e}");
    assert!(e.to_string().contains(first.digest()) && e.to_string().contains(second.digest()));
    assert!(
        e.to_string()
            .starts_with(&format!("oci:{}:0.1.0 already holds", path.display())),
        "{e}"
    );

    push(&store, &req(&second, "0.1.0", true), &NoEvents)
        .await
        .unwrap();
    push(&store, &req(&first, "0.0.9", false), &NoEvents)
        .await
        .unwrap();
    let index: serde_json::Value =
        serde_json::from_slice(&std::fs::read(path.join("index.json")).unwrap()).unwrap();
    let tags: Vec<(&str, &str)> = index["manifests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["annotations"]["org.opencontainers.image.ref.name"]
                    .as_str()
                    .unwrap(),
                m["digest"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        tags,
        [("0.0.9", first.digest()), ("0.1.0", second.digest())]
    );
}

#[tokio::test]
async fn a_folder_that_is_not_a_layout_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("oci-layout"),
        "{\"imageLayoutVersion\":\"9\"}",
    )
    .unwrap();
    let store = open(dir.path());
    let (_, img) = image("0.1.0");
    let e = push_tag(&store, &img, "0.1.0").await.unwrap_err();
    assert!(
        e.to_string()
            .contains("not an OCI image layout version 1.0.0 folder"),
        "{e}"
    );
}

#[tokio::test]
async fn a_bundle_image_reads_back_as_its_folder_by_tag_and_by_digest() {
    use olm_release_oci::bundle_read::{read_bundle, split_reference};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("oci");
    let store = open(&path);
    let (folder, img) = image("0.3.0");
    let req = PushRequest {
        image: &img,
        tag: "0.3.0",
        force: false,
    };
    push(&store, &req, &NoEvents).await.unwrap();
    let limits = olm_release_olm::archive::Limits::default();
    for reference in [
        format!("oci:{}:0.3.0", path.display()),
        format!("oci:{}@{}", path.display(), img.digest()),
    ] {
        let (location, r) = split_reference(&reference).unwrap();
        let store = Store::open(&location, StoreOptions::default(), &NoEvents).unwrap();
        let read = read_bundle(&store, &r, &limits, &NoEvents)
            .await
            .unwrap()
            .expect("the image is there");
        assert_eq!(read.digest, img.digest(), "{reference}");
        assert_eq!(&read.files, folder.files(), "{reference}");
    }
    assert!(
        read_bundle(&store, "9.9.9", &limits, &NoEvents)
            .await
            .unwrap()
            .is_none()
    );
}
