//! The community layout read from `fixtures/community/widget-operator` (a package written in
//! the shape of community-operators' `operators/<package>/`: `ci.yaml`, four version folders
//! whose names sort otherwise than their versions, dependencies and properties in one), changed
//! in memory per test.

use std::collections::BTreeMap;
use std::path::Path;

use super::*;
use crate::archive::Limits;
use crate::fbc::ObjectStyle;
use crate::fbc::model::Catalog;

fn fixture() -> PackageFiles {
    let root =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/community/widget-operator");
    let mut files = PackageFiles::new();
    fn walk(root: &Path, dir: &Path, files: &mut PackageFiles) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, files);
            } else {
                let rel = p
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                files.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    walk(&root, &root, &mut files);
    files
}

fn set(files: &mut PackageFiles, path: &str, text: &str) {
    files.insert(path.to_string(), text.as_bytes().to_vec());
}

fn images(pkg: &CommunityPackage) -> BTreeMap<String, String> {
    pkg.versions
        .iter()
        .enumerate()
        .map(|(i, v)| {
            (
                v.name().to_string(),
                format!("quay.io/example/widget-bundle@sha256:{:064x}", i + 1),
            )
        })
        .collect()
}

#[test]
fn versions_come_in_semver_order_with_their_metadata() {
    let pkg = read(&fixture(), &Limits::default()).unwrap();
    assert_eq!(pkg.package, "widget-operator");
    let order: Vec<String> = pkg.versions.iter().map(|v| v.version.to_string()).collect();
    assert_eq!(order, ["0.1.0", "0.2.0", "0.3.0", "0.10.0"]);
    let v2 = &pkg.versions[1];
    assert_eq!(v2.channels, ["alpha", "stable"]);
    assert_eq!(v2.default_channel.as_deref(), Some("stable"));
    assert_eq!(v2.objects.len(), 2, "the CRD and the ClusterRole");
    let newest = &pkg.versions[3];
    let deps = newest.metadata.dependencies.as_ref().unwrap();
    assert_eq!(deps.file, "0.10.0/metadata/dependencies.yaml");
    assert!(newest.metadata.properties.is_some());
    assert!(pkg.versions[0].metadata.dependencies.is_none());
    assert_eq!(
        pkg.ci.as_ref().unwrap().update_graph.as_deref(),
        Some("replaces-mode")
    );
    assert!(!pkg.semver_mode());
    assert_eq!(pkg.default_channel(), Some("stable"));
    assert!(pkg.template().is_none());
    // The bundle image code builds every version from what was read.
    for v in &pkg.versions {
        let folder = crate::bundle_image::BundleFolder::build(&v.input(&pkg.package)).unwrap();
        assert!(
            folder
                .files()
                .contains_key("manifests/example.com_widgets.yaml")
        );
    }
}

#[test]
fn every_problem_is_named_with_its_file_and_field_at_once() {
    let mut files = fixture();
    files.remove("0.1.0/metadata/annotations.yaml");
    let csv = "0.2.0/manifests/widget-operator.clusterserviceversion.yaml";
    let text = String::from_utf8(files[csv].clone()).unwrap();
    set(
        &mut files,
        csv,
        &text.replace("version: 0.2.0\n", "version: two\n"),
    );
    let ann = "0.3.0/metadata/annotations.yaml";
    let text = String::from_utf8(files[ann].clone()).unwrap();
    set(
        &mut files,
        ann,
        &text.replace("channels.v1: stable", "channels.v1: \"\""),
    );
    let errors = read(&files, &Limits::default()).unwrap_err();
    let shown: Vec<String> = errors.0.iter().map(ToString::to_string).collect();
    assert_eq!(shown.len(), 3, "{shown:#?}");
    assert!(shown.contains(&"0.1.0/metadata/annotations.yaml: missing; the annotations name the package and its channels".to_string()));
    assert!(shown.contains(&format!(
        "{csv}: spec.version: 'two' is not a SemVer version"
    )));
    assert!(shown.iter().any(|s| s.starts_with(
        "0.3.0/metadata/annotations.yaml: annotations.operators.operatorframework.io.bundle.channels.v1: missing or empty"
    )));
    assert!(
        errors
            .to_string()
            .starts_with("the package folder has 3 problems:")
    );
}

#[test]
fn the_size_limit_is_per_bundle_not_per_package() {
    let files = fixture();
    let one: u64 = files
        .iter()
        .filter(|(p, _)| p.starts_with("0.10.0/") && !p.ends_with("Dockerfile"))
        .map(|(_, b)| b.len() as u64)
        .sum();
    let all: u64 = files.values().map(|b| b.len() as u64).sum();
    // Room for the largest version, far less than the package.
    let limits = Limits {
        max_bytes: one + 64,
        ..Limits::default()
    };
    assert!(all > limits.max_bytes);
    assert_eq!(read(&files, &limits).unwrap().versions.len(), 4);
    let tight = Limits {
        max_bytes: one - 1,
        ..Limits::default()
    };
    let errors = read(&files, &tight).unwrap_err();
    assert!(
        errors
            .0
            .iter()
            .any(|p| p.file == "0.10.0" && p.message.contains("--max-bundle-bytes"))
    );
}

#[test]
fn every_version_keeps_its_own_edges_in_the_catalog() {
    let pkg = read(&fixture(), &Limits::default()).unwrap();
    let mut catalog = Catalog::default();
    let followed =
        follow_template(&mut catalog, &pkg, &images(&pkg), ObjectStyle::default()).unwrap();
    assert!(followed.left_out.is_empty() && followed.unlisted.is_empty());
    assert_eq!(followed.last.unwrap().name, "widget-operator.v0.10.0");
    let stable = catalog.channel("widget-operator", "stable").unwrap();
    let e = |n: &str| stable.entry(&format!("widget-operator.v{n}")).unwrap();
    assert_eq!(
        e("0.3.0").replaces.as_deref(),
        Some("widget-operator.v0.2.0")
    );
    assert_eq!(e("0.3.0").skip_range.as_deref(), Some(">=0.1.0 <0.3.0"));
    assert_eq!(
        e("0.10.0").replaces.as_deref(),
        Some("widget-operator.v0.3.0")
    );
    assert_eq!(e("0.10.0").skips, ["widget-operator.v0.2.0"]);
    let alpha = catalog.channel("widget-operator", "alpha").unwrap();
    assert_eq!(alpha.entries.len(), 2);
    assert_eq!(
        catalog
            .package("widget-operator")
            .unwrap()
            .default_channel
            .as_deref(),
        Some("stable")
    );
    // The dependencies file reaches the entry.
    let newest = catalog
        .bundle("widget-operator", "widget-operator.v0.10.0")
        .unwrap();
    assert!(
        newest
            .properties
            .iter()
            .any(|p| p.type_ == "olm.package.required")
    );
    // A second pass over the same catalog changes nothing.
    let before = catalog.clone();
    follow_template(&mut catalog, &pkg, &images(&pkg), ObjectStyle::default()).unwrap();
    assert_eq!(catalog, before);
}

#[test]
fn a_semver_template_is_followed_with_the_imported_images() {
    let mut files = fixture();
    set(
        &mut files,
        "catalog-templates/semver.yaml",
        "Schema: olm.semver\nGenerateMajorChannels: true\nGenerateMinorChannels: false\nStable:\n  Bundles:\n  - Image: quay.io/community-operator-pipeline-prod/widget-operator:0.2.0\n  - Image: quay.io/community-operator-pipeline-prod/widget-operator:0.3.0\n  - Image: quay.io/community-operator-pipeline-prod/widget-operator:0.9.0\n  - Image: quay.io/community-operator-pipeline-prod/widget-operator:0.10.0\n",
    );
    let pkg = read(&files, &Limits::default()).unwrap();
    assert_eq!(pkg.template().unwrap().name, "semver.yaml");
    let mut catalog = Catalog::default();
    let imgs = images(&pkg);
    let followed = follow_template(&mut catalog, &pkg, &imgs, ObjectStyle::default()).unwrap();
    assert_eq!(
        followed.left_out,
        ["quay.io/community-operator-pipeline-prod/widget-operator:0.9.0"]
    );
    assert_eq!(followed.unlisted, ["widget-operator.v0.1.0"]);
    let channels: Vec<&str> = catalog.channels.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(channels, ["stable-v0"]);
    assert_eq!(catalog.channels[0].entries.len(), 3);
    assert_eq!(catalog.bundles.len(), 3);
    assert!(
        catalog
            .bundles
            .iter()
            .all(|b| imgs.values().any(|i| *i == b.image))
    );
}

#[test]
fn a_basic_template_gives_the_channels_and_the_newest_catalog_is_chosen() {
    let mut files = fixture();
    let basic = |channel: &str| {
        format!(
            "schema: olm.template.basic\nentries:\n- schema: olm.package\n  name: widget-operator\n  defaultChannel: {channel}\n- schema: olm.channel\n  package: widget-operator\n  name: {channel}\n  entries:\n  - name: widget-operator.v0.1.0\n  - name: widget-operator.v0.2.0\n    replaces: widget-operator.v0.1.0\n  - name: widget-operator.v0.10.0\n    replaces: widget-operator.v0.2.0\n    skipRange: '>=0.1.0 <0.10.0'\n  - name: widget-operator.v0.0.1\n- schema: olm.bundle\n  image: quay.io/openshift-community-operators/widget-operator@sha256:{:064x}\n",
            7
        )
    };
    set(&mut files, "catalog-templates/v4.9.yaml", &basic("old"));
    set(
        &mut files,
        "catalog-templates/v4.18.yaml",
        &basic("maintained"),
    );
    set(
        &mut files,
        "ci.yaml",
        "fbc:\n  enabled: true\n  catalog_mapping:\n  - template_name: v4.18.yaml\n    catalog_names: [\"v4.18\", \"v4.19\"]\n    type: olm.template.basic\n  - template_name: v4.9.yaml\n    catalog_names: [\"v4.9\"]\n    type: olm.template.basic\n",
    );
    let pkg = read(&files, &Limits::default()).unwrap();
    assert_eq!(pkg.template().unwrap().name, "v4.18.yaml");
    let mut catalog = Catalog::default();
    let followed =
        follow_template(&mut catalog, &pkg, &images(&pkg), ObjectStyle::default()).unwrap();
    assert_eq!(followed.left_out, ["widget-operator.v0.0.1"]);
    assert_eq!(followed.unlisted, ["widget-operator.v0.3.0"]);
    assert_eq!(catalog.channels.len(), 1);
    let ch = &catalog.channels[0];
    assert_eq!(ch.name, "maintained");
    let newest = ch.entry("widget-operator.v0.10.0").unwrap();
    assert_eq!(newest.replaces.as_deref(), Some("widget-operator.v0.2.0"));
    assert_eq!(newest.skip_range.as_deref(), Some(">=0.1.0 <0.10.0"));
    assert_eq!(catalog.bundles.len(), 3);
    assert_eq!(
        catalog
            .package("widget-operator")
            .unwrap()
            .default_channel
            .as_deref(),
        Some("maintained")
    );
}

#[test]
fn a_patch_of_an_older_line_keeps_its_own_replaces_and_the_catalog_is_checked_whole() {
    let mut files = fixture();
    // 0.2.1 patches the 0.2 line after 0.3.0 (which replaces 0.2.0) was out; 0.10.0 skips it.
    let moved: Vec<(String, Vec<u8>)> = files
        .iter()
        .filter(|(p, _)| p.starts_with("0.2.0/"))
        .map(|(p, b)| (p.replacen("0.2.0/", "0.2.1/", 1), b.clone()))
        .collect();
    files.extend(moved);
    let csv = "0.2.1/manifests/widget-operator.clusterserviceversion.yaml";
    let text = String::from_utf8(files[csv].clone()).unwrap();
    let text = text
        .replace("widget-operator.v0.2.0", "widget-operator.v0.2.1")
        .replace("version: 0.2.0\n", "version: 0.2.1\n")
        .replace(
            "replaces: widget-operator.v0.1.0",
            "replaces: widget-operator.v0.2.0",
        );
    set(&mut files, csv, &text);
    let newest = "0.10.0/manifests/widget-operator.clusterserviceversion.yaml";
    let text = String::from_utf8(files[newest].clone()).unwrap();
    set(
        &mut files,
        newest,
        &text.replace(
            "    - widget-operator.v0.2.0\n",
            "    - widget-operator.v0.2.0\n    - widget-operator.v0.2.1\n",
        ),
    );
    let pkg = read(&files, &Limits::default()).unwrap();
    let mut catalog = Catalog::default();
    follow_template(&mut catalog, &pkg, &images(&pkg), ObjectStyle::default()).unwrap();
    let stable = catalog.channel("widget-operator", "stable").unwrap();
    let e = |n: &str| stable.entry(&format!("widget-operator.v{n}")).unwrap();
    assert_eq!(
        e("0.2.1").replaces.as_deref(),
        Some("widget-operator.v0.2.0")
    );
    assert_eq!(
        e("0.3.0").replaces.as_deref(),
        Some("widget-operator.v0.2.0")
    );
    let errors: Vec<String> = crate::fbc::validate(&catalog)
        .iter()
        .filter(|f| f.level == crate::Level::Error)
        .map(ToString::to_string)
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

#[test]
fn semver_mode_orders_each_channel_by_version_as_the_community_pipeline_did() {
    let mut files = fixture();
    set(&mut files, "ci.yaml", "updateGraph: semver-mode\n");
    let csv = "0.3.0/manifests/widget-operator.clusterserviceversion.yaml";
    let text = String::from_utf8(files[csv].clone()).unwrap();
    // A replaces the graph of semver-mode ignores.
    set(
        &mut files,
        csv,
        &text.replace(
            "replaces: widget-operator.v0.2.0",
            "replaces: widget-operator.v0.1.0",
        ),
    );
    let pkg = read(&files, &Limits::default()).unwrap();
    assert!(pkg.semver_mode());
    let mut catalog = Catalog::default();
    follow_template(&mut catalog, &pkg, &images(&pkg), ObjectStyle::default()).unwrap();
    let stable = catalog.channel("widget-operator", "stable").unwrap();
    let e3 = stable.entry("widget-operator.v0.3.0").unwrap();
    assert_eq!(e3.replaces.as_deref(), Some("widget-operator.v0.2.0"));
    assert_eq!(
        e3.skip_range.as_deref(),
        Some(">=0.1.0 <0.3.0"),
        "its own range kept"
    );
}
