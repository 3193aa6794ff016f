//! A published release's catalog entry is what `opm render` writes for its bundle image: the
//! sample operator, published the modern way offline (`pipelines/sample-catalog.yaml`) from an
//! operator-sdk style bundle folder with `metadata/dependencies.yaml` and
//! `metadata/properties.yaml`, gets an entry whose properties and `relatedImages` equal those
//! olm-release's opm-faithful bundle reader (checked against operator-registry's own test data
//! in `fbc::render_oracle`) gives for the pushed image itself; the image carries the metadata
//! files; `catalog.bundle_objects: true` swaps `olm.csv.metadata` for the manifests. A bundle
//! that names another package anywhere stops the run before anything is written.

use std::path::Path;

use olm_release_olm::fbc::entry::{ObjectStyle, bundle_entry, read_bundle_dir};
use olm_release_olm::fbc::{self, BundleDoc};

use crate::support::{Work, assert_code, layout_digest, stderr};

const PIPELINE: &str = "pipelines/sample-catalog.yaml";
const EPOCH: (&str, &str) = ("SOURCE_DATE_EPOCH", "1570449600");
const OUT: &str = "_out/catalog-only";
const BUNDLE: &str = "fixtures/sample-operator/olm/bundle";

const DEPENDENCIES: &str = "dependencies:
- type: olm.package
  value: {packageName: etcd, version: '>=0.9.0 <0.10.0'}
- type: olm.gvk
  value: {group: etcd.database.coreos.com, kind: EtcdCluster, version: v1beta2}
- type: olm.constraint
  value:
    failureMessage: needs a cache
    cel: {rule: 'properties.exists(p, p.type == \"cache\")'}
";

const PROPERTIES: &str = "properties:
- type: olm.maxOpenShiftVersion
  value: '4.18'
";

/// The sample work folder with the metadata files in its bundle folder.
fn with_metadata() -> Work {
    let work = Work::sample();
    let meta = work.path().join(BUNDLE).join("metadata");
    std::fs::create_dir_all(&meta).unwrap();
    std::fs::write(meta.join("dependencies.yaml"), DEPENDENCIES).unwrap();
    std::fs::write(meta.join("properties.yaml"), PROPERTIES).unwrap();
    work
}

fn blob(layout: &Path, digest: &str) -> Vec<u8> {
    let hex = digest.strip_prefix("sha256:").unwrap();
    std::fs::read(layout.join("blobs/sha256").join(hex)).unwrap()
}

/// Unpacks the image the layout tags `tag` into `into` (its `manifests/` and `metadata/`).
fn unpack(work: &Work, tag: &str, into: &Path) {
    let layout = work.path().join(OUT).join("oci/sample-operator-bundle");
    let manifest = layout_digest(&layout, tag);
    let manifest: serde_json::Value = serde_json::from_slice(&blob(&layout, &manifest)).unwrap();
    let layer = blob(&layout, manifest["layers"][0]["digest"].as_str().unwrap());
    tar::Archive::new(flate2::read::GzDecoder::new(&layer[..]))
        .unpack(into)
        .unwrap();
}

fn published(work: &Work) -> BundleDoc {
    let loaded = fbc::disk::read(&work.path().join(OUT).join("catalog")).unwrap();
    loaded
        .catalog
        .bundle("sample-operator", "sample-operator.v0.1.0")
        .unwrap()
        .clone()
}

fn types(b: &BundleDoc) -> Vec<&str> {
    b.properties.iter().map(|p| p.type_.as_str()).collect()
}

#[test]
fn a_published_entry_is_what_opm_render_gives_for_the_pushed_image() {
    for (style, objects) in [
        (ObjectStyle::CsvMetadata, false),
        (ObjectStyle::BundleObjects, true),
    ] {
        let work = with_metadata();
        let pipeline = work.path().join(PIPELINE);
        if objects {
            let text = std::fs::read_to_string(&pipeline).unwrap();
            let text = text.replace("  older: refuse", "  older: refuse\n  bundle_objects: true");
            std::fs::write(&pipeline, text).unwrap();
        }
        let out = work.run(&["run", PIPELINE], &[EPOCH]);
        assert_code(&out, 0);
        let entry = published(&work);
        let tail = if objects {
            vec!["olm.bundle.object", "olm.bundle.object"]
        } else {
            vec!["olm.csv.metadata"]
        };
        let mut want = vec![
            "olm.constraint",
            "olm.gvk",
            "olm.gvk.required",
            "olm.maxOpenShiftVersion",
            "olm.package",
            "olm.package.required",
        ];
        want.extend(tail);
        assert_eq!(types(&entry), want, "{style:?}");
        let required = &entry.properties[5].value;
        assert_eq!(required["packageName"].as_str(), Some("etcd"));
        assert_eq!(required["versionRange"].as_str(), Some(">=0.9.0 <0.10.0"));
        let images: Vec<&str> = entry
            .related_images
            .iter()
            .map(|r| r.image.as_str())
            .collect();
        assert_eq!(
            images,
            [
                "quay.io/example/sample-operator:v0.1.0",
                entry.image.as_str(),
            ],
            "the operator's image and the bundle image, sorted"
        );
        // opm render of the image itself gives the same entry.
        let unpacked = tempfile::tempdir().unwrap();
        unpack(&work, "0.1.0", unpacked.path());
        for file in ["metadata/dependencies.yaml", "metadata/properties.yaml"] {
            assert!(
                unpacked.path().join(file).is_file(),
                "the image carries {file}"
            );
        }
        let dir = read_bundle_dir(unpacked.path()).unwrap();
        let rendered = bundle_entry(&dir.source(&entry.image, style)).unwrap();
        assert_eq!(rendered.properties, entry.properties, "{style:?}");
        assert_eq!(rendered.related_images, entry.related_images);
    }
}

#[test]
fn a_bundle_naming_another_package_stops_before_any_write() {
    let cases = [
        (
            "properties.yaml",
            "properties:\n- type: olm.package\n  value: {packageName: other-operator, version: 0.1.0}\n",
            "metadata/properties.yaml",
        ),
        (
            "annotations.yaml",
            "annotations:\n  operators.operatorframework.io.bundle.package.v1: other-operator\n",
            "annotations.yaml (operators.operatorframework.io.bundle.package.v1)",
        ),
    ];
    for (file, text, from) in cases {
        let work = Work::sample();
        let meta = work.path().join(BUNDLE).join("metadata");
        std::fs::create_dir_all(&meta).unwrap();
        std::fs::write(meta.join(file), text).unwrap();
        let out = work.run(&["run", PIPELINE], &[EPOCH]);
        assert_code(&out, 2);
        let err = stderr(&out);
        assert!(
            err.contains("bundle sample-operator.v0.1.0 is package sample-operator version 0.1.0")
                && err.contains(from)
                && err.contains("other-operator"),
            "{err}"
        );
        assert!(
            !work.path().join(OUT).exists(),
            "nothing was written: {err}"
        );
    }
}

/// `migrate` lists the package under its package file's name (`packageName`), whatever the
/// app-registry repository is called, replaces that package's documents (no second
/// `olm.package`), and writes entries of the same shape as a published release's.
#[test]
fn migrate_names_the_package_as_its_package_file_does() {
    let work = Work::sample();
    assert_code(&work.run(&["run", "pipelines/sample.yaml"], &[EPOCH]), 0);
    let out = work.path().join("_out");
    std::fs::rename(
        out.join("registry/sample/sample-operator"),
        out.join("registry/sample/renamed-repo"),
    )
    .unwrap();
    crate::support::copy_dir(&out.join("catalog"), &out.join("migrated"));
    let migrate = work.run(
        &[
            "migrate",
            "--registry",
            "dir:_out/registry",
            "--namespace",
            "sample",
            "--package",
            "renamed-repo",
            "--image-target",
            "oci:_out/migrated-oci",
            "--image",
            "quay.io/sample/migrated",
            "--catalog",
            "_out/migrated",
        ],
        &[EPOCH],
    );
    assert_code(&migrate, 0);
    let migrated = fbc::disk::read(&out.join("migrated")).unwrap();
    assert_eq!(migrated.files, ["sample-operator/catalog.yaml"]);
    assert_eq!(migrated.catalog.packages.len(), 1);
    assert!(fbc::validate(&migrated.catalog).is_empty());
    let published = fbc::disk::read(&out.join("catalog")).unwrap();
    let (p, m) = (
        published.catalog.bundles[0].clone(),
        migrated.catalog.bundles[0].clone(),
    );
    assert_eq!(types(&p), types(&m), "one shape");
    let plain = |b: &BundleDoc| {
        b.properties
            .iter()
            .filter(|p| p.type_ != "olm.csv.metadata")
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(plain(&p), plain(&m));
    assert_eq!(p.related_images.len(), m.related_images.len());
}

/// A release added to a catalog whose entries carry `olm.bundle.object` writes its entry the
/// same way when the pipeline does not choose, and edits the catalog file in place: its license
/// header and the first entry's bytes stay.
#[test]
fn a_release_keeps_the_catalogs_entry_style_and_its_file_as_written() {
    const HEADER: &str =
        "# Copyright 2024 The Sample Authors\n# SPDX-License-Identifier: Apache-2.0\n";
    let work = Work::sample();
    let pipeline = work.path().join(PIPELINE);
    let text = std::fs::read_to_string(&pipeline).unwrap();
    let objects = text.replace("  older: refuse", "  older: refuse\n  bundle_objects: true");
    std::fs::write(&pipeline, objects).unwrap();
    assert_code(&work.run(&["run", PIPELINE], &[EPOCH]), 0);
    std::fs::write(&pipeline, &text).unwrap();
    let file = work
        .path()
        .join(OUT)
        .join("catalog/sample-operator/catalog.yaml");
    let first = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, format!("{HEADER}{first}")).unwrap();
    let out = work.run(&["run", PIPELINE], &[EPOCH, ("VERSION", "0.2.0")]);
    assert_code(&out, 0);
    let after = std::fs::read_to_string(&file).unwrap();
    assert!(after.starts_with(HEADER), "{after}");
    let loaded = fbc::disk::read(&work.path().join(OUT).join("catalog")).unwrap();
    assert_eq!(loaded.files, ["sample-operator/catalog.yaml"]);
    let new = loaded
        .catalog
        .bundle("sample-operator", "sample-operator.v0.2.0")
        .unwrap();
    assert!(
        types(new).contains(&"olm.bundle.object") && !types(new).contains(&"olm.csv.metadata"),
        "{:?}",
        types(new)
    );
    let old = published(&work);
    let old_text = fbc::write::render(&{
        let mut c = fbc::Catalog::default();
        c.bundles.push(old);
        c
    })
    .unwrap();
    let old_doc = old_text.values().next().unwrap();
    let old_doc = &old_doc[old_doc.find("schema: olm.bundle").unwrap()..];
    assert!(after.contains(old_doc), "the first entry keeps its bytes");
}
