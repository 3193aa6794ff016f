//! KubeVirt's real v0.22.0 release as a bundle image: rendered by the release pipeline, cut
//! into a registry+v1 bundle, built twice to the same digest, pushed to the real registry and
//! read back by skopeo and umoci.

use std::process::Command;

use olm_release_oci::{
    ImageLocation, NoEvents, PushOutcome, PushRequest, Store, StoreOptions, push,
};
use olm_release_olm::bundle_image::{BundleFolder, build_image};
use olm_release_olm::fbc::migrate;

use super::{folder_files, repo, run, umoci_unpack};
use crate::support::{self, Work, assert_code, peer};

#[tokio::test]
async fn kubevirt_v0_22_0_as_a_bundle_image() {
    let Some(shared) = support::shared() else {
        return;
    };
    let work = Work::sample();
    let out = work.path().join("_out");
    let pipeline = support::root().join("pipelines/kubevirt-release.yaml");
    let source = shared.join("kubevirt/v0.22.0");
    let o = work.run(
        &[
            "render",
            pipeline.to_str().unwrap(),
            "--source",
            source.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        &[
            ("TRAVIS_TAG", "v0.22.0"),
            ("SOURCE_DATE_EPOCH", "1570449600"),
        ],
    );
    assert_code(&o, 0);
    let bundle =
        olm_release_olm::archive::read_path(&out.join("bundle"), &Default::default()).unwrap();
    let m = migrate::plan(&bundle).unwrap();
    assert_eq!(m.bundles.len(), 1);
    assert!(m.left_out.is_empty());
    let input = &m.bundles[0].input();
    assert_eq!(input.csv.name(), Some("kubevirtoperator.0.22.0"));
    assert!(!input.objects.is_empty(), "the CSV owns KubeVirt's CRD");

    let folder = BundleFolder::build(input).unwrap();
    // The CSV survives the trip through the bundle's YAML writer unchanged.
    let written = &folder.files()["manifests/kubevirtoperator.0.22.0.clusterserviceversion.yaml"];
    let back: serde_yaml_ng::Value = serde_yaml_ng::from_slice(written).unwrap();
    assert_eq!(back, input.csv.doc);
    let image = build_image(&folder, 1_570_449_600).unwrap();
    let again = build_image(
        &BundleFolder::build(&migrate::plan(&bundle).unwrap().bundles[0].input()).unwrap(),
        1_570_449_600,
    )
    .unwrap();
    assert_eq!(image.digest(), again.digest());

    let Some(registry) = peer("OCI_REGISTRY") else {
        return;
    };
    let repository = repo("kubevirt");
    let store = Store::open(
        &ImageLocation::parse(&format!("{registry}/{repository}")).unwrap(),
        StoreOptions::default(),
        &olm_release_oci::NoEvents,
    )
    .unwrap();
    let outcome = push(
        &store,
        &PushRequest {
            image: &image,
            tag: "0.22.0",
            force: false,
        },
        &NoEvents,
    )
    .await
    .unwrap();
    assert!(matches!(outcome, PushOutcome::Pushed { .. }), "{outcome:?}");

    let reference = format!("docker://{registry}/{repository}:0.22.0");
    let inspect: serde_json::Value = serde_json::from_str(&run(Command::new("skopeo").args([
        "inspect",
        "--tls-verify=false",
        &reference,
    ])))
    .unwrap();
    assert_eq!(inspect["Digest"], image.digest());
    assert_eq!(
        inspect["Labels"]["operators.operatorframework.io.bundle.package.v1"],
        bundle.package.package_name.as_str()
    );
    assert_eq!(inspect["Created"], "2019-10-07T12:00:00Z");
    let dir = tempfile::tempdir().unwrap();
    let layout = dir.path().join("copy");
    run(Command::new("skopeo")
        .args(["copy", "--src-tls-verify=false", &reference])
        .arg(format!("oci:{}:0.22.0", layout.display())));
    assert_eq!(umoci_unpack(&layout, "0.22.0"), folder_files(&folder));
}
