//! A catalog image's base is checked byte for byte before anything names it: a manifest that
//! lies about a layer's or the config's size (+1,000,000 bytes, -10 bytes), names a blob the
//! store lacks or a blob of other bytes, or has more layers or bytes than the limits, is
//! refused naming the base and the blob; nothing is pushed.

use std::path::Path;

use olm_release_base::digest::sha256_hex;
use olm_release_oci::catalog_image::{BaseLimits, build, publish, read_base_within};
use olm_release_oci::{ImageLocation, NoEvents, Store, StoreOptions};
use serde_json::{Value, json};

fn put(layout: &Path, bytes: &[u8]) -> (String, u64) {
    let hex = sha256_hex(bytes);
    let dir = layout.join("blobs/sha256");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(&hex), bytes).unwrap();
    (format!("sha256:{hex}"), bytes.len() as u64)
}

/// A base of `layers` distinct layers in a layout at `dir`, its manifest changed by `edit`
/// before it is stored; the store and the manifest's digest.
fn base(dir: &Path, layers: usize, edit: impl FnOnce(&mut Value)) -> (Store, String) {
    let mut descriptors = Vec::new();
    let mut diff_ids = Vec::new();
    for i in 0..layers {
        let packed = olm_release_olm::archive::pack(
            &[(format!("bin/file-{i}"), format!("layer {i}\n").into_bytes())],
            0,
        )
        .unwrap();
        let (digest, size) = put(dir, &packed.gz);
        descriptors.push(json!({"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip", "digest": digest, "size": size}));
        diff_ids.push(format!("sha256:{}", packed.digest));
    }
    let config = json!({"architecture": "amd64", "os": "linux", "config": {},
        "rootfs": {"type": "layers", "diff_ids": diff_ids}});
    let (config, config_size) = put(dir, &serde_json::to_vec(&config).unwrap());
    let mut manifest = json!({
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "config": {"mediaType": "application/vnd.oci.image.config.v1+json", "digest": config, "size": config_size},
        "layers": descriptors,
    });
    edit(&mut manifest);
    let (digest, _) = put(dir, &serde_json::to_vec(&manifest).unwrap());
    std::fs::write(dir.join("oci-layout"), r#"{"imageLayoutVersion":"1.0.0"}"#).unwrap();
    std::fs::write(
        dir.join("index.json"),
        r#"{"schemaVersion":2,"manifests":[]}"#,
    )
    .unwrap();
    let target = ImageLocation::parse(&format!("oci:{}", dir.display())).unwrap();
    let store = Store::open(&target, StoreOptions::default(), &NoEvents).unwrap();
    (store, digest)
}

fn layer_size(m: &Value, i: usize) -> u64 {
    m["layers"][i]["size"].as_u64().unwrap()
}

async fn refused(store: &Store, digest: &str, limits: &BaseLimits) -> String {
    read_base_within(store, digest, limits, &NoEvents)
        .await
        .expect_err("the base must be refused")
        .to_string()
}

#[tokio::test]
async fn a_manifest_that_lies_about_a_size_is_refused_naming_the_blob_and_both_sizes() {
    for delta in [1_000_000i64, -10] {
        let tmp = tempfile::tempdir().unwrap();
        let mut real = 0;
        let mut layer = String::new();
        let (store, digest) = base(tmp.path(), 2, |m| {
            real = layer_size(m, 1);
            layer = m["layers"][1]["digest"].as_str().unwrap().to_string();
            m["layers"][1]["size"] = json!(real as i64 + delta);
        });
        let err = refused(&store, &digest, &BaseLimits::DEFAULT).await;
        let said = real as i64 + delta;
        assert!(
            err.contains(&format!(
                "the layer {layer} is {said} bytes, the blob is {real}"
            )),
            "{delta}: {err}"
        );
        assert!(err.contains(&digest), "the base is named: {err}");
    }
    // The config too.
    let tmp = tempfile::tempdir().unwrap();
    let (store, digest) = base(tmp.path(), 1, |m| {
        let s = m["config"]["size"].as_u64().unwrap();
        m["config"]["size"] = json!(s + 1);
    });
    let err = refused(&store, &digest, &BaseLimits::DEFAULT).await;
    assert!(err.contains("the config sha256:"), "{err}");
}

#[tokio::test]
async fn a_missing_blob_or_a_blob_of_other_bytes_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let wrong = format!("sha256:{}", "ab".repeat(32));
    let (store, digest) = base(tmp.path(), 2, |m| m["layers"][0]["digest"] = json!(wrong));
    let err = refused(&store, &digest, &BaseLimits::DEFAULT).await;
    assert!(
        err.contains(&format!("its layer {wrong} is missing")),
        "{err}"
    );

    let tmp = tempfile::tempdir().unwrap();
    let mut layer = String::new();
    let (store, digest) = base(tmp.path(), 1, |m| {
        layer = m["layers"][0]["digest"].as_str().unwrap().to_string();
    });
    let path = tmp
        .path()
        .join("blobs/sha256")
        .join(layer.strip_prefix("sha256:").unwrap());
    let len = std::fs::metadata(&path).unwrap().len() as usize;
    std::fs::write(&path, vec![b'x'; len]).unwrap();
    let err = refused(&store, &digest, &BaseLimits::DEFAULT).await;
    assert!(
        err.contains(&format!("blob {layer} holds content of sha256:")),
        "{err}"
    );
}

#[tokio::test]
async fn a_base_past_the_limits_is_refused_before_its_blobs_are_read() {
    let tmp = tempfile::tempdir().unwrap();
    let (store, digest) = base(tmp.path(), 129, |_| {});
    let err = refused(&store, &digest, &BaseLimits::DEFAULT).await;
    assert!(err.contains("more than 128 layers"), "{err}");
    let tight = BaseLimits {
        max_layers: 200,
        max_bytes: 1000,
    };
    let err = refused(&store, &digest, &tight).await;
    assert!(err.contains("more than the limit of 1000"), "{err}");
    // Within the limits, checked and usable.
    let ok = BaseLimits {
        max_layers: 129,
        max_bytes: 1 << 20,
    };
    let read = read_base_within(&store, &digest, &ok, &NoEvents)
        .await
        .unwrap();
    assert_eq!(read.platforms(), 1);
}

#[tokio::test]
async fn a_layer_changed_after_the_check_is_not_copied_and_nothing_is_tagged() {
    let tmp = tempfile::tempdir().unwrap();
    let mut layer = String::new();
    let (base_store, digest) = base(&tmp.path().join("base"), 1, |m| {
        layer = m["layers"][0]["digest"].as_str().unwrap().to_string();
    });
    let base_image = read_base_within(&base_store, &digest, &BaseLimits::DEFAULT, &NoEvents)
        .await
        .unwrap();
    let image = build(&base_image, &[("p/a.yaml".into(), b"a: 1\n".to_vec())], 0).unwrap();
    let path = tmp
        .path()
        .join("base/blobs/sha256")
        .join(layer.strip_prefix("sha256:").unwrap());
    std::fs::write(&path, b"other bytes").unwrap();
    let target =
        ImageLocation::parse(&format!("oci:{}", tmp.path().join("target").display())).unwrap();
    let store = Store::open(&target, StoreOptions::default(), &NoEvents).unwrap();
    let zero = std::time::Duration::ZERO;
    let err = publish(&store, &base_store, &image, "latest", None, zero, &NoEvents)
        .await
        .expect_err("a changed layer must not be pushed")
        .to_string();
    assert!(err.contains(&format!("the layer {layer} is")), "{err}");
    assert_eq!(store.resolve("latest", &NoEvents).await.unwrap(), None);
}
