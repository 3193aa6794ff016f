//! Builders for unit tests of the code that decides on bundles (fetch-previous, converge): a
//! CSV of the package `op` at a version (`op.vX.Y.Z`, with its `replaces`), a package file
//! with channels and their heads, and a bundle of both.

use super::{Bundle, Channel, Manifest, PackageManifest};

/// The CSV `op.v{v}`, version `v`, replacing `replaces`.
pub fn csv(v: &str, replaces: Option<&str>) -> Manifest {
    let text = format!(
        "kind: ClusterServiceVersion\nmetadata:\n  name: op.v{v}\nspec:\n  version: {v}\n{}",
        replaces
            .map(|r| format!("  replaces: {r}\n"))
            .unwrap_or_default()
    );
    Manifest::new(
        format!("op.v{v}.csv.yaml"),
        serde_yaml_ng::from_str(&text).expect("a test CSV parses"),
    )
}

/// The package file of `op` with `(channel, head)` pairs and no default channel.
pub fn package(channels: &[(&str, &str)]) -> PackageManifest {
    PackageManifest {
        package_name: "op".into(),
        channels: channels
            .iter()
            .map(|(n, h)| Channel {
                name: (*n).into(),
                current_csv: (*h).into(),
            })
            .collect(),
        default_channel: None,
    }
}

/// A bundle of `op` with those channels and CSVs, and no CRDs.
pub fn bundle(channels: &[(&str, &str)], csvs: Vec<Manifest>) -> Bundle {
    Bundle {
        package: package(channels),
        csvs,
        crds: Vec::new(),
    }
}
