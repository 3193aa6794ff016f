//! An `oci:` layout is checked before it is trusted: an image is "unchanged" at its tag (or kept
//! and pinned) only when its manifest and every blob it names are present, regular files and of
//! the right digest, and the folder is a layout (`oci-layout`); otherwise the push fails naming
//! the blob, and `--force` writes the image again. `index.json` is read as a stream: an index
//! other tools wrote, unsorted and with fields of their own, keeps every entry byte for byte.
//! The pipeline's rerun on a broken layout is the application's test
//! (tests/it/oci/layout_checks.rs).

use std::path::{Path, PathBuf};

use olm_release_oci::{
    ImageLocation, NoEvents, OciError, PushOutcome, PushRequest, Store, StoreOptions, push,
};

use super::{image, push_tag};

fn open(path: &Path) -> Store {
    let target = ImageLocation::parse(&format!("oci:{}", path.display())).unwrap();
    Store::open(&target, StoreOptions::default(), &NoEvents).unwrap()
}

fn blob_path(layout: &Path, digest: &str) -> PathBuf {
    layout
        .join("blobs/sha256")
        .join(digest.strip_prefix("sha256:").unwrap())
}

async fn push_once(
    store: &Store,
    img: &olm_release_olm::bundle_image::OciImage,
    force: bool,
) -> Result<PushOutcome, OciError> {
    push(
        store,
        &PushRequest {
            image: img,
            tag: "0.1.0",
            force,
        },
        &NoEvents,
    )
    .await
}

#[tokio::test]
async fn a_broken_blob_is_never_reported_unchanged() {
    let (_, img) = image("0.1.0");
    let layer = img.blobs().last().unwrap().digest.clone();
    let config = img.blobs().next().unwrap().digest.clone();
    // (what breaks, the blob named, what the message says)
    type Break = fn(&Path, &str);
    let cases: [(&str, Break, &str, &str); 4] = [
        (
            "removed layer",
            |p, d| std::fs::remove_file(blob_path(p, d)).unwrap(),
            &layer,
            "is missing",
        ),
        (
            "config replaced by other bytes",
            |p, d| std::fs::write(blob_path(p, d), b"{}").unwrap(),
            &config,
            "holds content of sha256:",
        ),
        (
            "layer replaced by a symbolic link to the same bytes",
            |p, d| {
                let path = blob_path(p, d);
                let copy = p.join("copy");
                std::fs::rename(&path, &copy).unwrap();
                std::os::unix::fs::symlink(&copy, &path).unwrap();
            },
            &layer,
            "is a symbolic link",
        ),
        (
            "manifest replaced by a folder",
            |p, d| {
                let path = blob_path(p, d);
                std::fs::remove_file(&path).unwrap();
                std::fs::create_dir(&path).unwrap();
            },
            img.digest(),
            "is a folder, not a regular file",
        ),
    ];
    for (case, break_it, digest, says) in cases {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("oci");
        let store = open(&path);
        assert!(matches!(
            push_once(&store, &img, false).await.unwrap(),
            PushOutcome::Pushed { .. }
        ));
        break_it(&path, digest);
        let err = push_once(&store, &img, false)
            .await
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&format!("blob {digest} {says}")),
            "{case}: {err}"
        );
        if case.starts_with("manifest") {
            continue; // a folder in the way is not ours to remove
        }
        let forced = push_once(&store, &img, true).await.unwrap();
        assert!(
            matches!(forced, PushOutcome::Pushed { .. }),
            "{case}: {forced:?}"
        );
        assert!(
            matches!(
                push_once(&store, &img, false).await.unwrap(),
                PushOutcome::Unchanged { .. }
            ),
            "{case}: repaired"
        );
        assert!(
            std::fs::symlink_metadata(blob_path(&path, digest))
                .unwrap()
                .is_file()
        );
    }
}

#[tokio::test]
async fn a_folder_without_oci_layout_is_not_a_layout() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("oci");
    let store = open(&path);
    let (_, img) = image("0.1.0");
    push_once(&store, &img, false).await.unwrap();
    std::fs::remove_file(path.join("oci-layout")).unwrap();
    let err = push_once(&store, &img, false)
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("oci-layout: is missing"), "{err}");
    let (_, other) = image("0.2.0");
    let err = push_tag(&store, &other, "0.2.0")
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("oci-layout: is missing"), "{err}");
}

#[tokio::test]
async fn an_index_written_by_other_tools_keeps_every_entry() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("oci");
    std::fs::create_dir_all(&path).unwrap();
    std::fs::write(path.join("oci-layout"), r#"{"imageLayoutVersion":"1.0.0"}"#).unwrap();
    // Unsorted, pretty-printed, with an untagged entry and fields olm-release does not know.
    let entry = |tag: &str, n: usize| {
        format!(
            "{{\n  \"mediaType\": \"application/vnd.oci.image.manifest.v1+json\", \"digest\": \"sha256:{n:064x}\", \"size\": {n},\n  \"annotations\": {{\"org.opencontainers.image.ref.name\": \"{tag}\", \"x\": \"y\"}}, \"platform\": {{\"os\": \"linux\"}}\n}}"
        )
    };
    let mut entries: Vec<String> = (0..1000)
        .rev()
        .map(|i| entry(&format!("t{i:04}"), i + 1))
        .collect();
    entries.push(r#"{"digest":"sha256:0000000000000000000000000000000000000000000000000000000000000000","size":1}"#.into());
    let text = format!(
        "{{\"schemaVersion\": 2, \"annotations\": {{\"a\": \"b\"}}, \"manifests\": [\n{}\n]}}",
        entries.join(",\n")
    );
    std::fs::write(path.join("index.json"), &text).unwrap();
    let store = open(&path);
    let (_, img) = image("0.1.0");
    push_once(&store, &img, false).await.unwrap();
    let index: serde_json::Value =
        serde_json::from_slice(&std::fs::read(path.join("index.json")).unwrap()).unwrap();
    let manifests = index["manifests"].as_array().unwrap();
    assert_eq!(manifests.len(), 1002);
    assert!(manifests[0]["annotations"].is_null(), "untagged first");
    let tags: Vec<&str> = manifests[1..]
        .iter()
        .map(|m| {
            m["annotations"]["org.opencontainers.image.ref.name"]
                .as_str()
                .unwrap()
        })
        .collect();
    let mut sorted = tags.clone();
    sorted.sort();
    assert_eq!(tags, sorted);
    assert!(tags.contains(&"0.1.0"));
    let t7 = manifests
        .iter()
        .find(|m| m["annotations"]["org.opencontainers.image.ref.name"] == "t0007")
        .unwrap();
    assert_eq!(t7["platform"]["os"], "linux", "other fields kept");
    assert_eq!(t7["annotations"]["x"], "y");
}
