//! Catalog images: `pipelines/sample-catalog.yaml` with `catalog.target: image:…`
//! on a stand-in opm base the test builds (a layer with `bin/opm` as a text file, a config
//! with a label of its own), against the real registry of `scripts/peers/oci-registry.sh` and
//! an `oci:` layout; skopeo and umoci read the images back. fetch-previous reads the tag's
//! catalog; a rerun moves nothing; a dry-run shows the layer's listing and labels and pushes
//! nothing; a tag another job moved between the read and the move is decided again.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use serde_json::{Value, json};

use crate::catalog_git::pipeline;
use crate::fault_proxy::{Fault, Hook, Proxy, Rule};
use crate::oci::run as ok;
use crate::support::{Work, assert_code, peer, stderr};
use olm_release_base::digest::sha256_hex;

const EPOCH: (&str, &str) = ("SOURCE_DATE_EPOCH", "1570449600");
const BASE_LABEL: &str = "org.example.stand-in";
const INDEX_LABEL: &str = "operators.operatorframework.io.index.configs.v1";
const CATALOG_FILE: &str = "configs/sample-operator/catalog.yaml";

fn put(layout: &Path, bytes: &[u8]) -> (String, usize) {
    let hex = sha256_hex(bytes);
    let dir = layout.join("blobs/sha256");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(&hex), bytes).unwrap();
    (format!("sha256:{hex}"), bytes.len())
}

/// A stand-in opm base as an OCI layout at `layout`, tagged `base`; its digest and its layer's.
pub fn base_layout(layout: &Path) -> (String, String) {
    let files = vec![(
        "bin/opm".to_string(),
        b"#!/bin/sh\necho stand-in opm\n".to_vec(),
    )];
    let packed = olm_release_olm::archive::pack(&files, 0).unwrap();
    let (layer, layer_size) = put(layout, &packed.gz);
    let config = json!({
        "architecture": "amd64", "os": "linux",
        "config": {"Labels": {BASE_LABEL: "yes"}, "Entrypoint": ["/bin/sh"]},
        "rootfs": {"type": "layers", "diff_ids": [format!("sha256:{}", packed.digest)]},
        "history": [{"created": "1970-01-01T00:00:00Z", "created_by": "stand-in"}],
    });
    let (config, config_size) = put(layout, &serde_json::to_vec(&config).unwrap());
    let manifest = json!({
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "config": {"mediaType": "application/vnd.oci.image.config.v1+json", "digest": config, "size": config_size},
        "layers": [{"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip", "digest": layer, "size": layer_size}],
    });
    let (digest, size) = put(layout, &serde_json::to_vec(&manifest).unwrap());
    std::fs::write(
        layout.join("oci-layout"),
        r#"{"imageLayoutVersion":"1.0.0"}"#,
    )
    .unwrap();
    let index = json!({"schemaVersion": 2, "manifests": [{
        "mediaType": "application/vnd.oci.image.manifest.v1+json", "digest": digest, "size": size,
        "annotations": {"org.opencontainers.image.ref.name": "base"}}]});
    std::fs::write(layout.join("index.json"), index.to_string()).unwrap();
    (digest, layer)
}

/// The stand-in base pushed to `registry` as `test/opm`; its digest and its layer's.
fn push_base(registry: &str, tmp: &Path) -> (String, String) {
    let layout = tmp.join("base");
    let (digest, layer) = base_layout(&layout);
    ok(Command::new("skopeo")
        .args(["copy", "-q", "--dest-tls-verify=false"])
        .arg(format!("oci:{}:base", layout.display()))
        .arg(format!("docker://{registry}/test/opm:base")));
    (digest, layer)
}

fn skopeo_json(args: &[&str], image: &str) -> Value {
    let mut cmd = Command::new("skopeo");
    cmd.args(["inspect", "--tls-verify=false"])
        .args(args)
        .arg(image);
    serde_json::from_str(&ok(&mut cmd)).unwrap()
}

/// The tag's digest in the registry, as skopeo reads it.
fn tag_digest(image: &str) -> String {
    skopeo_json(&[], image)["Digest"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The files of `image` unpacked by umoci, after skopeo copied it into a layout.
fn unpacked(image: &str, tmp: &Path) -> Vec<(String, Vec<u8>)> {
    let layout = tmp.join(format!("copy-{}", sha256_hex(image.as_bytes())));
    ok(Command::new("skopeo")
        .args(["copy", "-q", "--src-tls-verify=false"])
        .arg(image)
        .arg(format!("oci:{}:t", layout.display())));
    crate::oci::umoci_unpack(&layout, "t")
}

fn text_of<'a>(files: &'a [(String, Vec<u8>)], name: &str) -> &'a str {
    let (_, bytes) = files.iter().find(|(p, _)| p == name).unwrap_or_else(|| {
        panic!(
            "no {name} in {:?}",
            files.iter().map(|f| &f.0).collect::<Vec<_>>()
        )
    });
    std::str::from_utf8(bytes).unwrap()
}

fn run(work: &Work, file: &str, version: &str, extra: &[&str]) -> std::process::Output {
    let var = format!("VERSION={version}");
    let mut args = vec!["run", file, "--var", &var];
    args.extend(extra);
    work.run(&args, &[EPOCH])
}

fn image_pipeline(work: &Work, target: &str, base: &str) -> String {
    pipeline(
        work,
        "image.yaml",
        &format!("image:{target}"),
        &format!("  base_image: {base}\n"),
    )
}

#[test]
fn a_registry_tag_is_read_by_fetch_previous_built_on_the_base_and_a_rerun_moves_nothing() {
    let Some(registry) = peer("OCI_REGISTRY") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (base, base_layer) = push_base(&registry, tmp.path());
    let work = Work::sample();
    let repo = format!(
        "test/catalog-{}",
        &sha256_hex(work.path().to_string_lossy().as_bytes())[..8]
    );
    let image = format!("docker://{registry}/{repo}:latest");
    let file = image_pipeline(
        &work,
        &format!("{registry}/{repo}:latest"),
        &format!("{registry}/test/opm@{base}"),
    );

    let first = run(&work, &file, "0.1.0", &["-v"]);
    assert_code(&first, 0);
    // The base's layer is mounted from its repository, not uploaded.
    assert!(
        stderr(&first).contains("1 base layer(s) mounted"),
        "{}",
        stderr(&first)
    );
    let second = run(&work, &file, "0.2.0", &[]);
    assert_code(&second, 0);
    let err = stderr(&second);
    assert!(
        err.contains("channel alpha head sample-operator.v0.1.0 (0.1.0)"),
        "{err}"
    );

    // skopeo: the index label and the base's own, the base layer unchanged below the catalog's.
    let config = skopeo_json(&["--config"], &image);
    let labels = &config["config"]["Labels"];
    assert_eq!(labels[INDEX_LABEL], "/configs", "{config}");
    assert_eq!(labels[BASE_LABEL], "yes", "{config}");
    assert_eq!(config["config"]["Entrypoint"], json!(["/bin/opm"]));
    assert_eq!(
        config["config"]["Cmd"],
        json!(["serve", "/configs", "--cache-dir=/tmp/cache"])
    );
    let manifest = skopeo_json(&["--raw"], &image);
    let layers = manifest["layers"].as_array().unwrap();
    assert_eq!(layers.len(), 2, "{manifest}");
    assert_eq!(layers[0]["digest"], base_layer.as_str());

    // umoci: the base's file and the catalog under /configs, 0.2.0 replacing 0.1.0.
    let files = unpacked(&image, tmp.path());
    assert!(text_of(&files, "bin/opm").contains("stand-in opm"));
    let catalog = text_of(&files, CATALOG_FILE);
    assert!(
        catalog.contains("name: sample-operator.v0.2.0")
            && catalog.contains("replaces: sample-operator.v0.1.0"),
        "{catalog}"
    );

    // A rerun: the entry is there, no new image, the tag stays.
    let digest = tag_digest(&image);
    let again = run(&work, &file, "0.2.0", &[]);
    assert_code(&again, 0);
    assert!(
        stderr(&again).contains("unchanged: catalog entry"),
        "{}",
        stderr(&again)
    );
    assert_eq!(tag_digest(&image), digest);

    // A dry-run: the layer's listing and the labels, nothing pushed.
    let dry = run(&work, &file, "0.3.0", &["--dry-run"]);
    assert_code(&dry, 0);
    let err = stderr(&dry);
    for needle in [
        "+  replaces: sample-operator.v0.2.0",
        "new layer (1 file(s)):",
        CATALOG_FILE,
        "label operators.operatorframework.io.index.configs.v1=/configs",
        "Cmd [\"serve\",\"/configs\",\"--cache-dir=/tmp/cache\"]",
    ] {
        assert!(err.contains(needle), "missing {needle:?} in\n{err}");
    }
    assert_eq!(tag_digest(&image), digest);
}

#[test]
fn an_unpinned_base_is_refused_at_plan_time_naming_the_line() {
    let work = Work::sample();
    let file = image_pipeline(
        &work,
        "127.0.0.1:5000/test/catalog:latest",
        "127.0.0.1:5000/test/opm:latest",
    );
    let o = run(&work, &file, "0.1.0", &["--dry-run"]);
    assert_code(&o, 2);
    let err = stderr(&o);
    assert!(
        err.contains("image.yaml:")
            && err.contains("catalog.base_image")
            && err.contains("not pinned by digest"),
        "{err}"
    );
}

#[test]
fn an_oci_layout_target_is_built_on_a_layout_base_and_unpacks_in_umoci() {
    let work = Work::sample();
    let base_dir: PathBuf = work.path().join("_out/opm-base");
    let (base, _) = base_layout(&base_dir);
    let file = image_pipeline(
        &work,
        "oci:_out/catalog-image:latest",
        &format!("oci:_out/opm-base@{base}"),
    );
    assert_code(&run(&work, &file, "0.1.0", &[]), 0);
    assert_code(&run(&work, &file, "0.2.0", &[]), 0);
    let layout = work.path().join("_out/catalog-image");
    let digest = crate::support::layout_digest(&layout, "latest");
    let files = crate::oci::umoci_unpack(&layout, "latest");
    assert!(text_of(&files, "bin/opm").contains("stand-in opm"));
    assert!(text_of(&files, CATALOG_FILE).contains("replaces: sample-operator.v0.1.0"));
    assert_code(&run(&work, &file, "0.2.0", &[]), 0);
    assert_eq!(crate::support::layout_digest(&layout, "latest"), digest);
}

#[test]
fn a_tag_another_job_moved_before_the_move_is_decided_again() {
    let Some(registry) = peer("OCI_REGISTRY") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (base, _) = push_base(&registry, tmp.path());
    let work = Work::sample();
    let other = Work::sample();
    let repo = format!(
        "test/race-{}",
        &sha256_hex(work.path().to_string_lossy().as_bytes())[..8]
    );
    let base_ref = format!("{registry}/test/opm@{base}");
    let direct = format!("{registry}/{repo}:latest");
    let other_file = image_pipeline(&other, &direct, &base_ref);
    assert_code(&run(&other, &other_file, "0.1.0", &[]), 0);

    // This job publishes 0.3.0 through a proxy; right before its first manifest goes up by
    // digest (after its read, before its tag moves), another job publishes 0.2.0 directly.
    let port: u16 = registry.rsplit(':').next().unwrap().parse().unwrap();
    let (dir, bin, other_path) = (
        other.path().to_path_buf(),
        env!("CARGO_BIN_EXE_olm-release").to_string(),
        other_file.clone(),
    );
    let hook = Hook(Arc::new(move || {
        let o = Command::new(&bin)
            .current_dir(&dir)
            .args(["run", &other_path, "--var", "VERSION=0.2.0"])
            .env(EPOCH.0, EPOCH.1)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }));
    let proxy = Proxy::start(
        port,
        vec![Rule::on(Some("PUT"), "/manifests/sha256:", Fault::Before(hook)).times(1)],
    );
    let via = format!("127.0.0.1:{}/{repo}:latest", proxy.port);
    let file = image_pipeline(&work, &via, &base_ref);
    let o = run(&work, &file, "0.3.0", &[]);
    assert_code(&o, 0);
    let err = stderr(&o);
    for needle in [
        "is pushed but not tagged",
        "another job published meanwhile; package sample-operator changed; deciding again on what it published (attempt 2, for up to 300 s, after ",
        "channel alpha head sample-operator.v0.2.0 (0.2.0)",
    ] {
        assert!(err.contains(needle), "missing {needle:?} in\n{err}");
    }
    let files = unpacked(&format!("docker://{direct}"), tmp.path());
    let catalog = text_of(&files, CATALOG_FILE);
    for needle in [
        "name: sample-operator.v0.2.0",
        "name: sample-operator.v0.3.0",
        "replaces: sample-operator.v0.2.0",
        "replaces: sample-operator.v0.1.0",
    ] {
        assert!(catalog.contains(needle), "missing {needle:?} in\n{catalog}");
    }
}

#[test]
fn credentials_come_from_oci_username_and_password_and_are_never_shown() {
    let (Some(registry), Some(user), Some(password)) = (
        peer("OCI_REGISTRY_AUTH"),
        peer("OCI_REGISTRY_USER"),
        peer("OCI_REGISTRY_PASSWORD"),
    ) else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let layout = tmp.path().join("base");
    let (base, _) = base_layout(&layout);
    let creds = format!("{user}:{password}");
    ok(Command::new("skopeo")
        .args([
            "copy",
            "-q",
            "--dest-tls-verify=false",
            "--dest-creds",
            &creds,
        ])
        .arg(format!("oci:{}:base", layout.display()))
        .arg(format!("docker://{registry}/test/opm:base")));
    let work = Work::sample();
    let repo = format!(
        "test/auth-{}",
        &sha256_hex(work.path().to_string_lossy().as_bytes())[..8]
    );
    let file = image_pipeline(
        &work,
        &format!("{registry}/{repo}:latest"),
        &format!("{registry}/test/opm@{base}"),
    );
    // Without credentials the registry refuses, and the run says so.
    let refused = run(&work, &file, "0.1.0", &[]);
    assert_code(&refused, 1);
    assert!(
        stderr(&refused).contains("HTTP 401"),
        "{}",
        stderr(&refused)
    );
    let var = "VERSION=0.1.0";
    let o = work.run(
        &["run", &file, "--var", var, "-v"],
        &[EPOCH, ("OCI_USERNAME", &user), ("OCI_PASSWORD", &password)],
    );
    assert_code(&o, 0);
    let all = format!("{}{}", stderr(&o), String::from_utf8_lossy(&o.stdout));
    assert!(!all.contains(&password), "the password is shown:\n{all}");
    let config = {
        let mut cmd = Command::new("skopeo");
        cmd.args([
            "inspect",
            "--tls-verify=false",
            "--config",
            "--creds",
            &creds,
        ])
        .arg(format!("docker://{registry}/{repo}:latest"));
        serde_json::from_str::<Value>(&ok(&mut cmd)).unwrap()
    };
    assert_eq!(config["config"]["Labels"][INDEX_LABEL], "/configs");
}

/// A stand-in multi-platform base (amd64 and arm64, each `bin/opm` naming its platform) as an
/// OCI layout whose tag `base` names an index; the index's digest.
fn multi_base_layout(layout: &Path) -> String {
    let mut entries = Vec::new();
    for arch in ["amd64", "arm64"] {
        let files = vec![(
            "bin/opm".to_string(),
            format!("#!/bin/sh\necho opm {arch}\n").into_bytes(),
        )];
        let packed = olm_release_olm::archive::pack(&files, 0).unwrap();
        let (layer, layer_size) = put(layout, &packed.gz);
        let config = json!({
            "architecture": arch, "os": "linux",
            "config": {"Labels": {BASE_LABEL: arch}},
            "rootfs": {"type": "layers", "diff_ids": [format!("sha256:{}", packed.digest)]},
        });
        let (config, config_size) = put(layout, &serde_json::to_vec(&config).unwrap());
        let manifest = json!({
            "schemaVersion": 2,
            "mediaType": "application/vnd.oci.image.manifest.v1+json",
            "config": {"mediaType": "application/vnd.oci.image.config.v1+json", "digest": config, "size": config_size},
            "layers": [{"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip", "digest": layer, "size": layer_size}],
        });
        let (digest, size) = put(layout, &serde_json::to_vec(&manifest).unwrap());
        entries.push(json!({
            "mediaType": "application/vnd.oci.image.manifest.v1+json", "digest": digest, "size": size,
            "platform": {"os": "linux", "architecture": arch}}));
    }
    let index = json!({"schemaVersion": 2, "mediaType": "application/vnd.oci.image.index.v1+json", "manifests": entries});
    let (digest, size) = put(layout, &serde_json::to_vec(&index).unwrap());
    std::fs::write(
        layout.join("oci-layout"),
        r#"{"imageLayoutVersion":"1.0.0"}"#,
    )
    .unwrap();
    let top = json!({"schemaVersion": 2, "manifests": [{
        "mediaType": "application/vnd.oci.image.index.v1+json", "digest": digest, "size": size,
        "annotations": {"org.opencontainers.image.ref.name": "base"}}]});
    std::fs::write(layout.join("index.json"), top.to_string()).unwrap();
    digest
}

#[test]
fn a_multi_platform_base_gives_an_index_with_one_catalog_image_per_platform() {
    let Some(registry) = peer("OCI_REGISTRY") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let layout = tmp.path().join("multi");
    let base = multi_base_layout(&layout);
    ok(Command::new("skopeo")
        .args([
            "copy",
            "-q",
            "--all",
            "--preserve-digests",
            "--dest-tls-verify=false",
        ])
        .arg(format!("oci:{}:base", layout.display()))
        .arg(format!("docker://{registry}/test/opm-multi:base")));
    let work = Work::sample();
    let repo = format!(
        "test/multi-{}",
        &sha256_hex(work.path().to_string_lossy().as_bytes())[..8]
    );
    let file = image_pipeline(
        &work,
        &format!("{registry}/{repo}:latest"),
        &format!("{registry}/test/opm-multi@{base}"),
    );
    assert_code(&run(&work, &file, "0.1.0", &[]), 0);
    let image = format!("docker://{registry}/{repo}:latest");
    let index = skopeo_json(&["--raw"], &image);
    let entries = index["manifests"].as_array().unwrap();
    let archs: Vec<&str> = entries
        .iter()
        .map(|e| e["platform"]["architecture"].as_str().unwrap())
        .collect();
    assert_eq!(archs, ["amd64", "arm64"], "{index}");
    let mut catalog_layers = Vec::new();
    for arch in ["amd64", "arm64"] {
        let config = skopeo_json(&["--config", "--override-arch", arch], &image);
        assert_eq!(config["config"]["Labels"][BASE_LABEL], arch);
        assert_eq!(config["config"]["Labels"][INDEX_LABEL], "/configs");
        let inspect = skopeo_json(&["--override-arch", arch], &image);
        let layers = inspect["Layers"].as_array().unwrap().clone();
        assert_eq!(layers.len(), 2, "{inspect}");
        catalog_layers.push(layers[1].clone());
    }
    // One catalog layer, shared by both platforms.
    assert_eq!(catalog_layers[0], catalog_layers[1]);
}
