//! The bundle folder and its image: exact, reproducible bytes.

use olm_release_base::Classified as _;
use std::io::Read;

use olm_release_base::Class;
use olm_release_olm::Manifest;
use olm_release_olm::bundle_image::image::{
    CONFIG_MEDIA_TYPE, LAYER_MEDIA_TYPE, MANIFEST_MEDIA_TYPE,
};
use olm_release_olm::bundle_image::{BundleFolder, BundleImageError, LABEL_KEYS, build_image};

use super::{image, input};

#[test]
fn the_folder_holds_manifests_annotations_and_a_dockerfile() {
    let (folder, _) = image("0.1.0");
    let names: Vec<&str> = folder.files().keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "manifests/sample-metrics.service.yaml",
            "manifests/sample-operator.v0.1.0.clusterserviceversion.yaml",
            "manifests/samples.example.com.crd.yaml",
            "metadata/annotations.yaml",
        ]
    );
    assert_eq!(
        String::from_utf8_lossy(&folder.files()["metadata/annotations.yaml"]),
        "annotations:\n  operators.operatorframework.io.bundle.mediatype.v1: registry+v1\n  operators.operatorframework.io.bundle.manifests.v1: manifests/\n  operators.operatorframework.io.bundle.metadata.v1: metadata/\n  operators.operatorframework.io.bundle.package.v1: sample-operator\n  operators.operatorframework.io.bundle.channels.v1: alpha,stable\n  operators.operatorframework.io.bundle.channel.default.v1: stable\n"
    );
    let docker = folder.dockerfile();
    assert!(docker.starts_with("FROM scratch\n"), "{docker}");
    assert!(
        docker.contains("LABEL operators.operatorframework.io.bundle.channels.v1=alpha,stable\n")
    );
    assert!(docker.ends_with("COPY manifests /manifests/\nCOPY metadata /metadata/\n"));

    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bundle");
    std::fs::create_dir_all(out.join("manifests")).unwrap();
    std::fs::write(out.join("manifests/stale.yaml"), "old").unwrap();
    folder.write(&out).unwrap();
    assert_eq!(
        crate::support::list_files(&out),
        [
            "bundle.Dockerfile",
            "manifests/sample-metrics.service.yaml",
            "manifests/sample-operator.v0.1.0.clusterserviceversion.yaml",
            "manifests/samples.example.com.crd.yaml",
            "metadata/annotations.yaml",
        ],
        "the stale file is gone"
    );
    assert_eq!(BundleFolder::read(&out).unwrap(), folder);
}

#[test]
fn the_default_channel_is_the_first_when_not_given() {
    let mut i = input("0.1.0");
    i.spec.default_channel = None;
    let f = BundleFolder::build(&i).unwrap();
    assert_eq!(f.label(LABEL_KEYS[5]), Some("alpha"));
}

#[test]
fn same_inputs_give_the_same_bytes_twice_and_in_any_order() {
    let (_, a) = image("0.1.0");
    let (_, b) = image("0.1.0");
    assert_eq!(a, b);
    let mut reversed = input("0.1.0");
    reversed.objects.reverse();
    let c = build_image(&BundleFolder::build(&reversed).unwrap(), 0).unwrap();
    assert_eq!(a.digest(), c.digest());
    let (_, other) = image("0.2.0");
    assert_ne!(a.digest(), other.digest());
}

#[test]
fn a_folder_on_disk_gives_the_same_digest_whatever_its_file_order_and_mtimes() {
    let (folder, img) = image("0.1.0");
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a");
    folder.write(&a).unwrap();
    // The same files written in the reverse order, each with its own mtime.
    let b = dir.path().join("b");
    let mut files: Vec<_> = folder.files().iter().collect();
    files.reverse();
    for (i, (rel, bytes)) in files.into_iter().enumerate() {
        let p = b.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, bytes).unwrap();
        let t =
            std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_600_000_000 + i as u64 * 7777);
        std::fs::File::options()
            .write(true)
            .open(&p)
            .unwrap()
            .set_modified(t)
            .unwrap();
    }
    for dir in [&a, &b] {
        let read = BundleFolder::read(dir).unwrap();
        assert_eq!(
            build_image(&read, 0).unwrap().digest(),
            img.digest(),
            "{}",
            dir.display()
        );
    }
}

#[test]
fn the_manifest_and_config_are_exact() {
    let (folder, img) = image("0.1.0");
    let m: serde_json::Value = serde_json::from_slice(&img.manifest.bytes).unwrap();
    assert_eq!(m["schemaVersion"], 2);
    assert_eq!(
        m["mediaType"], MANIFEST_MEDIA_TYPE,
        "oci-spec's builder leaves it unset"
    );
    assert_eq!(m["config"]["mediaType"], CONFIG_MEDIA_TYPE);
    assert_eq!(m["config"]["digest"], img.config.digest.as_str());
    assert_eq!(m["config"]["size"], img.config.bytes.len());
    assert_eq!(m["layers"][0]["mediaType"], LAYER_MEDIA_TYPE);
    assert_eq!(m["layers"][0]["digest"], img.layers[0].digest.as_str());
    assert_eq!(m["layers"][0]["size"], img.layers[0].bytes.len());
    // Canonical: compact, keys sorted (what a re-serialisation would give).
    let again = serde_json::to_vec(&m).unwrap();
    assert_eq!(again, img.manifest.bytes.to_vec());

    let c: serde_json::Value = serde_json::from_slice(&img.config.bytes).unwrap();
    assert_eq!(
        c["architecture"], "amd64",
        "fixed, not the building machine's"
    );
    assert_eq!(c["os"], "linux");
    assert_eq!(c["created"], "1970-01-01T00:00:00Z");
    assert_eq!(c["history"][0]["created"], "1970-01-01T00:00:00Z");
    let labels = c["config"]["Labels"].as_object().unwrap();
    assert_eq!(labels.len(), 6);
    for (k, v) in folder.labels() {
        assert_eq!(labels[k], v.as_str(), "{k}");
    }
    let mut tar = Vec::new();
    flate2::read::GzDecoder::new(&img.layers[0].bytes[..])
        .read_to_end(&mut tar)
        .unwrap();
    let diff_id = format!("sha256:{}", olm_release_base::digest::sha256_hex(&tar));
    assert_eq!(
        c["rootfs"],
        serde_json::json!({"type": "layers", "diff_ids": [diff_id]})
    );

    // The same inputs give this digest on any machine and any run (a snapshot: it changes
    // only when the bytes of the bundle or the image format change on purpose).
    assert_eq!(
        img.digest(),
        GOLDEN_DIGEST,
        "manifest: {}",
        String::from_utf8_lossy(&img.manifest.bytes)
    );
}

const GOLDEN_DIGEST: &str =
    "sha256:894460a71005993cbd5028fca32874288e25f99501a3cbfa41c9ed027984dd59";

#[test]
fn the_layer_is_a_reproducible_tar_gz() {
    let epoch = 1_570_449_600;
    let folder = BundleFolder::build(&input("0.1.0")).unwrap();
    let img = build_image(&folder, epoch).unwrap();
    let gz = &img.layers[0].bytes;
    assert_eq!(&gz[..3], &[0x1f, 0x8b, 8]);
    assert_eq!(gz[3] & 0x08, 0, "no file name in the gzip header");
    assert_eq!(&gz[4..8], &[0, 0, 0, 0], "no time in the gzip header");
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(&gz[..]));
    let mut seen = Vec::new();
    for e in archive.entries().unwrap() {
        let e = e.unwrap();
        let h = e.header();
        assert_eq!((h.uid().unwrap(), h.gid().unwrap()), (0, 0));
        assert_eq!(h.mtime().unwrap(), epoch);
        let path = e.path().unwrap().to_string_lossy().into_owned();
        let mode = h.mode().unwrap();
        assert_eq!(
            mode,
            if path.ends_with('/') { 0o755 } else { 0o644 },
            "{path}"
        );
        seen.push(path);
    }
    let mut sorted = seen.clone();
    sorted.sort();
    assert_eq!(seen, sorted);
    assert_eq!(seen[0], "manifests/");
    assert!(seen.contains(&"metadata/annotations.yaml".to_string()));
    let c: serde_json::Value = serde_json::from_slice(&img.config.bytes).unwrap();
    assert_eq!(c["created"], "2019-10-07T12:00:00Z");
    assert_ne!(
        img.digest(),
        image("0.1.0").1.digest(),
        "the epoch is an input"
    );
}

#[test]
fn what_cannot_go_into_a_bundle_is_refused_with_its_file() {
    let m = |file: &str, text: &str| Manifest::new(file, serde_yaml_ng::from_str(text).unwrap());
    let mut i = input("0.1.0");
    i.objects
        .push(m("deploy.yaml", "kind: Deployment\nmetadata: {name: x}\n"));
    let e = BundleFolder::build(&i).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("deploy.yaml: kind 'Deployment' cannot be shipped"),
        "{e}"
    );
    assert_eq!(e.class(), Class::Stage);

    let mut i = input("0.1.0");
    i.objects.push(i.csv.clone());
    let e = BundleFolder::build(&i).unwrap_err();
    assert!(
        e.to_string().contains("a second ClusterServiceVersion"),
        "{e}"
    );

    let mut i = input("0.1.0");
    i.objects.push(m(
        "svc2.yaml",
        "kind: Service\nmetadata: {name: sample-metrics}\n",
    ));
    let e = BundleFolder::build(&i).unwrap_err();
    assert!(matches!(e, BundleImageError::DuplicateFile { .. }), "{e}");
    // A v1 and a v1beta1 ClusterRole of one name (bundles written for clusters of both ages):
    // both shipped, the second under its version.
    let mut both = input("0.1.0");
    for (file, api) in [
        ("role.yaml", "rbac.authorization.k8s.io/v1"),
        ("role_v1beta1.yaml", "rbac.authorization.k8s.io/v1beta1"),
    ] {
        both.objects.push(m(
            file,
            &format!("apiVersion: {api}\nkind: ClusterRole\nmetadata: {{name: viewer}}\n"),
        ));
    }
    let built = BundleFolder::build(&both).unwrap();
    let paths: Vec<&str> = built.files().keys().map(String::as_str).collect();
    assert!(
        paths.contains(&"manifests/viewer.clusterrole.yaml")
            && paths.contains(&"manifests/viewer.clusterrole.v1beta1.yaml"),
        "{paths:?}"
    );
    // A second file holding the same object with the same data (a generator's
    // `creationTimestamp: null` aside) is carried once.
    let mut copies = input("0.1.0");
    for (file, extra) in [
        ("sa.yaml", ""),
        ("sa_v1_serviceaccount.yaml", "  creationTimestamp: null\n"),
    ] {
        copies.objects.push(m(
            file,
            &format!("apiVersion: v1\nkind: ServiceAccount\nmetadata:\n{extra}  name: daemon\n"),
        ));
    }
    let built = BundleFolder::build(&copies).unwrap();
    let accounts: Vec<&str> = built
        .files()
        .keys()
        .map(String::as_str)
        .filter(|p| p.contains("serviceaccount") || p.ends_with("sa.yaml"))
        .collect();
    assert_eq!(accounts.len(), 1, "{accounts:?}");
    // The message names both source files and the path they would share.
    assert!(
        e.to_string().starts_with(
            "svc.yaml and svc2.yaml would both be written as manifests/sample-metrics.service.yaml"
        ),
        "{e}"
    );

    let mut i = input("0.1.0");
    i.spec.default_channel = Some("beta".into());
    let e = BundleFolder::build(&i).unwrap_err();
    assert_eq!(e.class(), Class::Input);
    assert!(
        e.to_string()
            .contains("'beta' is not one of this bundle's channels (alpha, stable)"),
        "{e}"
    );

    let mut i = input("0.1.0");
    i.spec.channels = vec!["a,b".into()];
    assert!(BundleFolder::build(&i).is_err());
}

#[test]
fn a_folder_without_registry_v1_annotations_is_refused() {
    let (folder, _) = image("0.1.0");
    let dir = tempfile::tempdir().unwrap();
    folder.write(dir.path().join("b").as_path()).unwrap();
    let ann = dir.path().join("b/metadata/annotations.yaml");
    let text = std::fs::read_to_string(&ann)
        .unwrap()
        .replace("registry+v1", "plain+v0");
    std::fs::write(&ann, text).unwrap();
    let e = BundleFolder::read(&dir.path().join("b")).unwrap_err();
    assert!(
        e.to_string().contains(
            "annotations.yaml: 'operators.operatorframework.io.bundle.mediatype.v1' is 'plain+v0'"
        ),
        "{e}"
    );
}
