//! The catalog documents olm-release writes for bundle folders, for comparing with what `opm`
//! rendered for the same bundles (`scripts/opm_agree.py`).
//!
//! `cargo run -p olm-release-olm --example fbc_entry -- DIR=IMAGE…` reads each registry+v1
//! bundle folder (`manifests/`, `metadata/`) as operator-registry reads it
//! ([`fbc::entry::read_bundle_dir`]) and adds it, listed as `IMAGE`, to an empty catalog as a
//! package's first release ([`fbc::add`]): in the channels of its `metadata/annotations.yaml`,
//! with its default channel as the pipeline's `default_channel` when it joins that channel. It prints one JSON object per
//! folder and line: `dir`, and either `error` or `csv_metadata` and `bundle_objects`, the
//! documents olm-release writes in each entry style (`olm.package`, `olm.channel`,
//! `olm.bundle`, as the catalog file holds them).

use std::path::Path;

use olm_release_olm::fbc::entry::{BundleDir, read_bundle_dir};
use olm_release_olm::fbc::{self, AddBundle, Catalog, ObjectStyle};
use serde_yaml_ng::Value;

const CHANNELS: &str = "operators.operatorframework.io.bundle.channels.v1";
const DEFAULT: &str = "operators.operatorframework.io.bundle.channel.default.v1";

/// The channels and default channel `metadata/annotations.yaml` names (`alpha` when none).
fn channels(dir: &Path) -> (Vec<String>, Option<String>) {
    let text = std::fs::read_to_string(dir.join("metadata/annotations.yaml")).unwrap_or_default();
    let doc: Value = serde_yaml_ng::from_str(&text).unwrap_or(Value::Null);
    let get = |k: &str| {
        doc.get("annotations")
            .and_then(|a| a.get(k))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let mut channels: Vec<String> = get(CHANNELS)
        .unwrap_or_default()
        .split(',')
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty())
        .collect();
    if channels.is_empty() {
        channels.push("alpha".into());
    }
    (channels, get(DEFAULT).filter(|d| !d.is_empty()))
}

/// The documents of the catalog holding only the bundle `read`, written in `style`.
fn documents(
    read: &BundleDir,
    dir: &Path,
    image: &str,
    style: ObjectStyle,
) -> Result<Value, String> {
    let (channels, default) = channels(dir);
    let mut request =
        AddBundle::from_source(&read.source(image, style), &channels).map_err(|e| e.to_string())?;
    // A default the bundle does not join is the package's, for a later release: not this one's.
    request.default_channel = default.filter(|d| channels.contains(d));
    // A first release: no head to replace, so the CSV's own edges are kept as written.
    request.replaces = None;
    let mut catalog = Catalog::default();
    fbc::add(&mut catalog, &request).map_err(|e| e.to_string())?;
    let files = fbc::write::render(&catalog).map_err(|e| e.to_string())?;
    let mut docs = Vec::new();
    for text in files.values() {
        for de in serde_yaml_ng::Deserializer::from_str(text) {
            docs.push(
                serde::Deserialize::deserialize(de)
                    .map_err(|e: serde_yaml_ng::Error| e.to_string())?,
            );
        }
    }
    Ok(Value::Sequence(docs))
}

fn main() {
    for arg in std::env::args().skip(1) {
        let (dir, image) = arg.split_once('=').unwrap_or((arg.as_str(), "bundle"));
        let path = Path::new(dir);
        let mut out = serde_json::Map::new();
        out.insert("dir".into(), dir.into());
        let result = read_bundle_dir(path)
            .map_err(|e| e.to_string())
            .and_then(|read| {
                Ok((
                    documents(&read, path, image, ObjectStyle::CsvMetadata)?,
                    documents(&read, path, image, ObjectStyle::BundleObjects)?,
                ))
            });
        match result {
            Ok((csv, objects)) => {
                out.insert("csv_metadata".into(), serde_json::to_value(csv).unwrap());
                out.insert(
                    "bundle_objects".into(),
                    serde_json::to_value(objects).unwrap(),
                );
            }
            Err(e) => {
                out.insert("error".into(), e.into());
            }
        }
        println!("{}", serde_json::Value::Object(out));
    }
}
