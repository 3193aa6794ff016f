//! One bundle per CSV from an app-registry bundle (what migrate publishes), by
//! `fbc::migrate::plan`, the one splitter.

use olm_release_olm::bundle_image::{BundleFolder, build_image};
use olm_release_olm::fbc::migrate;
use olm_release_olm::{Bundle, Channel, Manifest, PackageManifest};

fn csv(version: &str, replaces: Option<&str>, skips: &[&str], crd_version: &str) -> Manifest {
    let mut text = format!(
        "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: op.v{version}\nspec:\n  version: {version}\n  customresourcedefinitions:\n    owned:\n      - {{name: things.example.com, version: {crd_version}, kind: Thing}}\n"
    );
    if let Some(r) = replaces {
        text.push_str(&format!("  replaces: {r}\n"));
    }
    if !skips.is_empty() {
        text.push_str(&format!("  skips: [{}]\n", skips.join(", ")));
    }
    Manifest::new(
        format!("op.v{version}.yaml"),
        serde_yaml_ng::from_str(&text).unwrap(),
    )
}

fn crd(version: &str) -> Manifest {
    let text = format!(
        "apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nmetadata:\n  name: things.example.com\nspec:\n  group: example.com\n  version: {version}\n"
    );
    Manifest::new(
        format!("things.{version}.yaml"),
        serde_yaml_ng::from_str(&text).unwrap(),
    )
}

/// CSV, channels, default channel, CRD versions.
type Row = (String, Vec<String>, Option<String>, Vec<String>);

#[test]
fn each_csv_gets_its_crds_channels_and_default() {
    let bundle = Bundle {
        package: PackageManifest {
            package_name: "op".into(),
            channels: vec![
                Channel {
                    name: "alpha".into(),
                    current_csv: "op.v0.4.0".into(),
                },
                Channel {
                    name: "stable".into(),
                    current_csv: "op.v0.2.0".into(),
                },
            ],
            default_channel: Some("stable".into()),
        },
        csvs: vec![
            csv("0.4.0", Some("op.v0.2.0"), &["op.v0.3.0"], "v1"),
            csv("0.3.0", Some("op.v0.2.0"), &[], "v1"),
            csv("0.2.0", Some("op.v0.1.0"), &[], "v1alpha1"),
            csv("0.1.0", None, &[], "v1alpha1"),
            csv("0.0.1", None, &[], "v1alpha1"),
        ],
        crds: vec![crd("v1alpha1"), crd("v1")],
    };
    let m = migrate::plan(&bundle).unwrap();
    assert_eq!(m.left_out, ["op.v0.0.1"]);
    let inputs: Vec<_> = m.bundles.iter().map(|b| b.input()).collect();
    let got: Vec<Row> = inputs
        .iter()
        .map(|i| {
            (
                i.csv.name().unwrap().to_string(),
                i.spec.channels.clone(),
                i.spec.default_channel.clone(),
                i.objects
                    .iter()
                    .map(|o| o.spec_version().unwrap().to_string())
                    .collect(),
            )
        })
        .collect();
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(
        got,
        [
            (
                "op.v0.1.0".into(),
                s(&["alpha", "stable"]),
                Some("stable".into()),
                s(&["v1alpha1"])
            ),
            (
                "op.v0.2.0".into(),
                s(&["alpha", "stable"]),
                Some("stable".into()),
                s(&["v1alpha1"])
            ),
            // Skipped by the alpha head: in alpha, not in stable.
            ("op.v0.3.0".into(), s(&["alpha"]), None, s(&["v1"])),
            ("op.v0.4.0".into(), s(&["alpha"]), None, s(&["v1"])),
        ]
    );
    // Every one builds, each to its own digest.
    let mut digests: Vec<String> = inputs
        .iter()
        .map(|i| {
            build_image(&BundleFolder::build(i).unwrap(), 0)
                .unwrap()
                .digest()
                .to_string()
        })
        .collect();
    digests.dedup();
    assert_eq!(digests.len(), 4);
}
