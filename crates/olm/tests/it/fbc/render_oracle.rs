//! Catalog entries as `opm render` writes them, against operator-registry's own test data
//! (`alpha/action/testdata`): the foo, bar and baz bundle folders, and the catalogs its tests
//! read and write for them (`foo-index-v0.2.0-declcfg` is what `opm render` gives for
//! foo-bundle-v0.1.0 and v0.2.0, `index-declcfgs/latest` holds bar and baz). The bundle image is
//! the one difference: olm-release lists it pinned by digest, so the bundle image in
//! `relatedImages` is that reference too.
//!
//! Two details of those catalogs predate today's `opm render` (`alpha/action/render.go`), which
//! sorts `relatedImages` by image and the `olm.bundle.object` properties by the bytes of their
//! value (`render_test.go`, "Success/BundleImage", lists the CRD's object before the CSV's): so
//! the objects and the related images are compared as sets, and their order is checked against
//! that rule separately.

use std::path::{Path, PathBuf};

use olm_release_olm::fbc::entry::{ObjectStyle, bundle_entry, read_bundle_dir};
use olm_release_olm::fbc::{self, BundleDoc, Property, RelatedImage};

use crate::support;

fn suite() -> Option<PathBuf> {
    let dir = support::shared()?.join("peer-suites/registry-render");
    assert!(dir.is_dir(), "{} is missing", dir.display());
    Some(dir)
}

/// The catalog at `dir` (read with olm-release's own reader).
fn oracle(dir: &Path) -> fbc::Catalog {
    fbc::disk::read(dir).unwrap().catalog
}

fn pinned(name: &str) -> String {
    format!(
        "test.registry/{name}@sha256:{}",
        olm_release_base::digest::sha256_hex(name.as_bytes())
    )
}

fn is_object(p: &Property) -> bool {
    p.type_ == "olm.bundle.object" || p.type_ == "olm.csv.metadata"
}

/// The entry olm-release writes for the bundle folder `name`, listed as `image`.
fn ours(suite: &Path, name: &str, image: &str, style: ObjectStyle) -> BundleDoc {
    let dir = read_bundle_dir(&suite.join(name)).unwrap();
    bundle_entry(&dir.source(image, style)).unwrap()
}

fn sorted<T: Clone + Ord>(items: &[T]) -> Vec<T> {
    let mut v = items.to_vec();
    v.sort();
    v
}

fn images(r: &[RelatedImage]) -> Vec<(String, String)> {
    r.iter()
        .map(|r| (r.image.clone(), r.name.clone().unwrap_or_default()))
        .collect()
}

fn object_data(props: &[Property]) -> Vec<String> {
    props
        .iter()
        .filter(|p| p.type_ == "olm.bundle.object")
        .map(|p| p.value["data"].as_str().unwrap().to_string())
        .collect()
}

/// Properties, `relatedImages` and their order: `foo-index-v0.2.0-declcfg` is what `opm render`
/// writes for foo-bundle-v0.1.0 and foo-bundle-v0.2.0 (with `olm.bundle.object`, opm's default).
#[test]
fn foo_bundles_give_the_properties_and_related_images_opm_render_gives() {
    let Some(suite) = suite() else { return };
    let index = oracle(&suite.join("foo-index-v0.2.0-declcfg"));
    for (folder, bundle) in [
        ("foo-bundle-v0.1.0", "foo.v0.1.0"),
        ("foo-bundle-v0.2.0", "foo.v0.2.0"),
    ] {
        let want = index.bundle("foo", bundle).unwrap();
        let image = pinned(&format!("foo-operator/foo-bundle-{bundle}"));
        let got = ours(&suite, folder, &image, ObjectStyle::BundleObjects);
        assert_eq!((got.package.as_str(), got.name.as_str()), ("foo", bundle));
        assert_eq!(got.image, image);
        // Every property but the objects: the same, in the same order.
        let plain = |p: &[Property]| {
            p.iter()
                .filter(|p| !is_object(p))
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(plain(&got.properties), plain(&want.properties), "{bundle}");
        assert_eq!(
            got.properties
                .iter()
                .map(|p| p.type_.as_str())
                .collect::<Vec<_>>(),
            [
                "olm.gvk",
                "olm.gvk.required",
                "olm.package",
                "olm.package.required",
                "olm.bundle.object",
                "olm.bundle.object"
            ],
            "{bundle}: opm's order, the objects last"
        );
        // The objects: byte for byte the same base64 of the same Go JSON, in value order.
        let (got_data, want_data) = (object_data(&got.properties), object_data(&want.properties));
        assert_eq!(sorted(&got_data), sorted(&want_data), "{bundle}");
        assert_eq!(
            got_data,
            sorted(&got_data),
            "{bundle}: objects sorted by value"
        );
        // relatedImages: the same set once the bundle image is the pinned reference, sorted by
        // image, unnamed entries written `name: ""` as opm writes them.
        let tagged = want.image.clone();
        let want_images: Vec<(String, String)> = images(&want.related_images)
            .into_iter()
            .map(|(i, n)| (if i == tagged { image.clone() } else { i }, n))
            .collect();
        assert_eq!(
            sorted(&images(&got.related_images)),
            sorted(&want_images),
            "{bundle}"
        );
        let order: Vec<&str> = got
            .related_images
            .iter()
            .map(|r| r.image.as_str())
            .collect();
        let mut by_image = order.clone();
        by_image.sort();
        assert_eq!(order, by_image, "{bundle}: sorted by image");
        assert!(got.related_images.iter().all(|r| r.name.is_some()));
    }
}

/// The deployment images of foo v0.2.0 that the CSV also lists keep the CSV's name, and are
/// listed once; without `spec.relatedImages` every image is unnamed (`render_test.go`,
/// "Success/BundleImageWithNoCSVRelatedImages").
#[test]
fn related_images_are_deduplicated_and_named_as_opm_names_them() {
    let Some(suite) = suite() else { return };
    let image = pinned("foo-operator/foo-bundle-no-csv-related-images");
    let got = ours(
        &suite,
        "foo-bundle-v0.2.0-no-csv-related-images",
        &image,
        ObjectStyle::CsvMetadata,
    );
    let mut want = vec![
        (
            "test.registry/foo-operator/foo-2:v0.2.0".to_string(),
            String::new(),
        ),
        (image.clone(), String::new()),
        (
            "test.registry/foo-operator/foo-init-2:v0.2.0".into(),
            String::new(),
        ),
        (
            "test.registry/foo-operator/foo-init:v0.2.0".into(),
            String::new(),
        ),
        (
            "test.registry/foo-operator/foo:v0.2.0".into(),
            String::new(),
        ),
    ];
    want.sort();
    assert_eq!(images(&got.related_images), want);
    let named = ours(
        &suite,
        "foo-bundle-v0.2.0",
        &image,
        ObjectStyle::CsvMetadata,
    );
    let operator: Vec<_> = named
        .related_images
        .iter()
        .filter(|r| r.image == "test.registry/foo-operator/foo:v0.2.0")
        .collect();
    assert_eq!(operator.len(), 1);
    assert_eq!(operator[0].name.as_deref(), Some("operator"));
}

/// bar and baz, as the catalogs of operator-registry's other actions list them: the same
/// properties (objects as a set).
#[test]
fn bar_and_baz_bundles_give_the_properties_of_the_index_that_lists_them() {
    let Some(suite) = suite() else { return };
    let index = oracle(&suite.join("index-declcfgs/latest"));
    let mut compared = 0;
    for entry in std::fs::read_dir(&suite).unwrap() {
        let folder = entry.unwrap().file_name().to_string_lossy().into_owned();
        if !(folder.starts_with("bar-bundle") || folder.starts_with("baz-bundle")) {
            continue;
        }
        let dir = read_bundle_dir(&suite.join(&folder)).unwrap();
        let csv = dir.csv.name().unwrap().to_string();
        let Some(want) = index.bundle(&dir.package, &csv) else {
            continue;
        };
        let got = bundle_entry(&dir.source(&want.image, ObjectStyle::BundleObjects)).unwrap();
        let plain = |p: &[Property]| {
            p.iter()
                .filter(|p| !is_object(p))
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(plain(&got.properties), plain(&want.properties), "{folder}");
        assert_eq!(
            sorted(&object_data(&got.properties)),
            sorted(&object_data(&want.properties)),
            "{folder}"
        );
        compared += 1;
    }
    assert!(compared >= 3, "compared {compared} bundles");
}

/// By default the entry carries `olm.csv.metadata` (what `opm render --migrate-level
/// bundle-object-to-csv-metadata` writes) in place of the objects: the same other properties,
/// the one metadata property last.
#[test]
fn the_default_entry_has_csv_metadata_in_place_of_the_objects() {
    let Some(suite) = suite() else { return };
    let image = pinned("foo-operator/foo-bundle-v0.2.0");
    let objects = ours(
        &suite,
        "foo-bundle-v0.2.0",
        &image,
        ObjectStyle::BundleObjects,
    );
    let metadata = ours(
        &suite,
        "foo-bundle-v0.2.0",
        &image,
        ObjectStyle::CsvMetadata,
    );
    let plain = |p: &[Property]| {
        p.iter()
            .filter(|p| !is_object(p))
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(plain(&metadata.properties), plain(&objects.properties));
    let last = metadata.properties.last().unwrap();
    assert_eq!(last.type_, "olm.csv.metadata");
    assert_eq!(
        metadata.properties.iter().filter(|p| is_object(p)).count(),
        1
    );
    let text = olm_release_base::yaml::to_string(&last.value);
    assert_eq!(
        text,
        "annotations:\n  olm.skipRange: <0.2.0\napiServiceDefinitions: {}\ncrdDescriptions:\n  owned:\n  - kind: Foo\n    name: foos.test.foo\n    version: v1\ndisplayName: Foo Operator\nprovider: {}\n"
    );
}
