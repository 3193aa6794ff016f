//! The catalog image built on a base, as exact bytes: the new layer, one config and one
//! manifest per platform of the base, and an index when the base is one.
//!
//! The base's layers are kept as its manifests describe them (digest, size, media type), so
//! they are mounted or copied unchanged; the config is the base's JSON with the catalog's
//! label, `Entrypoint`, `Cmd`, its `rootfs.diff_ids` entry and a `history` entry added, and
//! `created` set to the epoch. The new manifests and index are OCI ones (image-spec
//! `manifest.md`, `image-index.md`); a platform's entry keeps the base's `platform`.

use serde_json::{Value, json};

use crate::OciError;
use olm_release_base::digest::sha256_hex;
use olm_release_olm::bundle_image::Blob;
use olm_release_olm::bundle_image::image::{
    CONFIG_MEDIA_TYPE, LAYER_MEDIA_TYPE, MANIFEST_MEDIA_TYPE,
};

/// The label that tells opm (and OLM) where the catalog is.
pub const INDEX_LABEL: &str = "operators.operatorframework.io.index.configs.v1";
/// The catalog folder in the image.
const CONFIGS: &str = "/configs";
/// The entrypoint opm's generated Dockerfile sets.
pub const ENTRYPOINT: [&str; 1] = ["/bin/opm"];
/// The command opm's generated Dockerfile sets (without `--cache-only`: the catalog layer
/// holds no pre-built cache, so `opm serve` builds it on start).
pub const CMD: [&str; 3] = ["serve", "/configs", "--cache-dir=/tmp/cache"];
pub(crate) const INDEX_MEDIA_TYPE: &str = "application/vnd.oci.image.index.v1+json";
/// The `created_by` of the layer's history entry.
const CREATED_BY: &str = "olm-release catalog-image: ADD catalog /configs";

/// One platform of the base.
#[derive(Debug, Clone)]
pub(crate) struct BasePlatform {
    /// The base index's entry for it (`None`: the base is a single manifest).
    pub(crate) entry: Option<Value>,
    /// Its manifest, parsed.
    pub(crate) manifest: Value,
    /// Its config, parsed.
    pub(crate) config: Value,
}

/// A base image, read by digest.
#[derive(Debug, Clone)]
pub struct BaseImage {
    /// How it reads in messages (`HOST/REPOSITORY@sha256:…`).
    pub name: String,
    pub(crate) platforms: Vec<BasePlatform>,
    /// The base is an index (a multi-platform image).
    pub(crate) multi: bool,
}

impl BaseImage {
    /// The base's layers, each once, in order: digest and size (checked against the blob when
    /// the base was read).
    pub(crate) fn layers(&self) -> Vec<(String, u64)> {
        let mut out: Vec<(String, u64)> = Vec::new();
        for p in &self.platforms {
            for l in layers_of(&p.manifest) {
                if let Some(d) = l.get("digest").and_then(Value::as_str)
                    && !out.iter().any(|(o, _)| o == d)
                {
                    let size = l.get("size").and_then(Value::as_u64).unwrap_or_default();
                    out.push((d.to_string(), size));
                }
            }
        }
        out
    }

    /// How many platforms it has.
    pub fn platforms(&self) -> usize {
        self.platforms.len()
    }
}

/// A built catalog image.
#[derive(Debug, Clone)]
pub struct CatalogImage {
    /// What the tag names: the index, or the one manifest.
    pub root: Blob,
    /// One manifest per platform when `root` is an index (empty otherwise).
    pub(crate) manifests: Vec<Blob>,
    /// One config per platform.
    pub(crate) configs: Vec<Blob>,
    /// The catalog layer.
    pub layer: Blob,
    /// The base's layers: digest and size.
    pub(crate) base_layers: Vec<(String, u64)>,
}

impl CatalogImage {
    /// The image's digest: the root's.
    pub fn digest(&self) -> &str {
        &self.root.digest
    }
}

/// `configs/PATH` in the layer for a catalog file at `PATH`.
pub fn catalog_path_of(file: &str) -> String {
    format!("{}/{file}", &CONFIGS[1..])
}

/// The config lines a catalog image gets, as `docker inspect` would show them.
pub fn config_lines() -> Vec<String> {
    vec![
        format!("label {INDEX_LABEL}={CONFIGS}"),
        format!(
            "Entrypoint {}",
            serde_json::to_string(&ENTRYPOINT).unwrap_or_default()
        ),
        format!("Cmd {}", serde_json::to_string(&CMD).unwrap_or_default()),
    ]
}

/// A blob of `bytes`, its digest computed.
pub(crate) fn blob(media_type: &str, bytes: Vec<u8>) -> Blob {
    Blob {
        media_type: media_type.to_string(),
        digest: format!("sha256:{}", sha256_hex(&bytes)),
        bytes: bytes.into(),
    }
}

fn descriptor(b: &Blob) -> Value {
    json!({ "mediaType": b.media_type, "digest": b.digest, "size": b.size() })
}

pub(crate) fn layers_of(manifest: &Value) -> Vec<Value> {
    manifest
        .get("layers")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

/// Builds the catalog image of `files` (catalog paths relative to the catalog root, with `/`)
/// on `base`, every time the `epoch`.
pub fn build(
    base: &BaseImage,
    files: &[(String, Vec<u8>)],
    epoch: u64,
) -> Result<CatalogImage, OciError> {
    let bad = |detail: String| OciError::CatalogImage {
        image: base.name.clone(),
        detail,
    };
    let in_layer: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|(p, c)| (catalog_path_of(p), c.clone()))
        .collect();
    let packed = olm_release_olm::archive::pack(&in_layer, epoch)
        .map_err(|e| bad(format!("packing the catalog layer: {e}")))?;
    let diff_id = format!("sha256:{}", packed.digest);
    let layer = blob(LAYER_MEDIA_TYPE, packed.gz);
    let created = olm_release_base::time::rfc3339(epoch);
    let mut manifests = Vec::new();
    let mut configs = Vec::new();
    for p in &base.platforms {
        let config = config_for(&p.config, &diff_id, &created).map_err(bad)?;
        let config = blob(CONFIG_MEDIA_TYPE, to_bytes(&config));
        let mut layers = layers_of(&p.manifest);
        layers.push(descriptor(&layer));
        let manifest = json!({
            "schemaVersion": 2,
            "mediaType": MANIFEST_MEDIA_TYPE,
            "config": descriptor(&config),
            "layers": layers,
        });
        manifests.push(blob(MANIFEST_MEDIA_TYPE, to_bytes(&manifest)));
        configs.push(config);
    }
    let root = if base.multi {
        let entries: Vec<Value> = base
            .platforms
            .iter()
            .zip(&manifests)
            .map(|(p, m)| {
                let mut d = descriptor(m);
                if let Some(platform) = p.entry.as_ref().and_then(|e| e.get("platform")) {
                    d["platform"] = platform.clone();
                }
                d
            })
            .collect();
        let index = json!({
            "schemaVersion": 2,
            "mediaType": INDEX_MEDIA_TYPE,
            "manifests": entries,
        });
        blob(INDEX_MEDIA_TYPE, to_bytes(&index))
    } else {
        manifests
            .pop()
            .ok_or_else(|| bad("the base has no image".into()))?
    };
    Ok(CatalogImage {
        root,
        manifests,
        configs,
        layer,
        base_layers: base.layers(),
    })
}

/// The base's config with the catalog's label, entrypoint, command, diff ID and history added.
fn config_for(base: &Value, diff_id: &str, created: &str) -> Result<Value, String> {
    let mut config = base.clone();
    let Some(root) = config.as_object_mut() else {
        return Err("its config is not a JSON object".into());
    };
    root.insert("created".into(), json!(created));
    let inner = root
        .entry("config")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .ok_or("its config's \"config\" is not an object")?;
    let labels = inner.entry("Labels").or_insert_with(|| json!({}));
    if labels.is_null() {
        *labels = json!({});
    }
    labels
        .as_object_mut()
        .ok_or("its config's Labels is not an object")?
        .insert(INDEX_LABEL.into(), json!(CONFIGS));
    inner.insert("Entrypoint".into(), json!(ENTRYPOINT));
    inner.insert("Cmd".into(), json!(CMD));
    let rootfs = root
        .entry("rootfs")
        .or_insert_with(|| json!({"type": "layers", "diff_ids": []}));
    rootfs
        .get_mut("diff_ids")
        .and_then(Value::as_array_mut)
        .ok_or("its config has no rootfs.diff_ids list")?
        .push(json!(diff_id));
    let history = root.entry("history").or_insert_with(|| json!([]));
    if let Some(h) = history.as_array_mut() {
        h.push(json!({ "created": created, "created_by": CREATED_BY }));
    }
    Ok(config)
}

/// Compact JSON; object keys in the order serde_json keeps them (sorted, or the base's order),
/// the same for the same input.
fn to_bytes(v: &Value) -> Vec<u8> {
    serde_json::to_vec(v).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn base(multi: bool) -> BaseImage {
        let platform = |arch: &str| BasePlatform {
            entry: multi.then(|| json!({"platform": {"os": "linux", "architecture": arch}})),
            manifest: json!({
                "schemaVersion": 2,
                "config": {"mediaType": CONFIG_MEDIA_TYPE, "digest": format!("sha256:{}", "c".repeat(64)), "size": 2},
                "layers": [{"mediaType": LAYER_MEDIA_TYPE, "digest": format!("sha256:{}", if arch == "amd64" { "a" } else { "b" }.repeat(64)), "size": 10}],
            }),
            config: json!({
                "architecture": arch, "os": "linux",
                "config": {"Labels": {"org.example.base": "yes"}, "Entrypoint": ["/bin/sh"]},
                "rootfs": {"type": "layers", "diff_ids": [format!("sha256:{}", "d".repeat(64))]},
            }),
        };
        BaseImage {
            name: "example.org/opm@sha256:…".into(),
            platforms: if multi {
                vec![platform("amd64"), platform("arm64")]
            } else {
                vec![platform("amd64")]
            },
            multi,
        }
    }

    fn files() -> Vec<(String, Vec<u8>)> {
        vec![
            (
                "demo/package.yaml".into(),
                b"schema: olm.package\n".to_vec(),
            ),
            ("demo/bundles.yaml".into(), b"schema: olm.bundle\n".to_vec()),
        ]
    }

    #[test]
    fn the_same_catalog_on_the_same_base_is_the_same_digest() {
        let a = build(&base(false), &files(), 7).unwrap();
        let b = build(&base(false), &files(), 7).unwrap();
        assert_eq!(a.digest(), b.digest());
        assert_eq!(a.layer, b.layer);
        let mut other = files();
        other[0].1.push(b'#');
        assert_ne!(build(&base(false), &other, 7).unwrap().digest(), a.digest());
    }

    #[test]
    fn the_config_keeps_the_base_and_adds_the_label_entrypoint_command_and_layer() {
        let image = build(&base(false), &files(), 0).unwrap();
        assert!(image.manifests.is_empty());
        let config: Value = serde_json::from_slice(&image.configs[0].bytes).unwrap();
        let c = &config["config"];
        assert_eq!(c["Labels"]["org.example.base"], "yes");
        assert_eq!(c["Labels"][INDEX_LABEL], "/configs");
        assert_eq!(c["Entrypoint"], json!(["/bin/opm"]));
        assert_eq!(
            c["Cmd"],
            json!(["serve", "/configs", "--cache-dir=/tmp/cache"])
        );
        let diff_ids = config["rootfs"]["diff_ids"].as_array().unwrap();
        assert_eq!(diff_ids.len(), 2);
        let manifest: Value = serde_json::from_slice(&image.root.bytes).unwrap();
        let layers = manifest["layers"].as_array().unwrap();
        assert_eq!(layers[0]["digest"], format!("sha256:{}", "a".repeat(64)));
        assert_eq!(layers[1]["digest"], image.layer.digest.as_str());
        assert_eq!(
            manifest["config"]["digest"],
            image.configs[0].digest.as_str()
        );
        let (listed, _) = olm_release_olm::archive::unpack(
            &image.layer.bytes,
            olm_release_olm::archive::Limits::default(),
        )
        .unwrap();
        let names: Vec<&str> = listed.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            names,
            ["configs/demo/bundles.yaml", "configs/demo/package.yaml"]
        );
    }

    #[test]
    fn a_multi_platform_base_keeps_its_platforms_with_one_manifest_each() {
        let image = build(&base(true), &files(), 0).unwrap();
        assert_eq!(image.manifests.len(), 2);
        assert_eq!(image.base_layers.len(), 2);
        let index: Value = serde_json::from_slice(&image.root.bytes).unwrap();
        assert_eq!(index["mediaType"], INDEX_MEDIA_TYPE);
        let entries = index["manifests"].as_array().unwrap();
        assert_eq!(entries[0]["platform"]["architecture"], "amd64");
        assert_eq!(entries[1]["platform"]["architecture"], "arm64");
        assert_eq!(entries[1]["digest"], image.manifests[1].digest.as_str());
        let arm: Value = serde_json::from_slice(&image.manifests[1].bytes).unwrap();
        assert_eq!(
            arm["layers"][0]["digest"],
            format!("sha256:{}", "b".repeat(64))
        );
    }
}
