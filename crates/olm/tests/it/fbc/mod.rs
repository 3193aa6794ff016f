//! File-based catalogs (`olm::fbc`): the model's round trip and byte-identical reruns, adding a
//! release's bundle, the channel head, validation with `opm validate`'s rules, the release
//! models of both sources and their comparison, and the migration of app-registry releases.

mod add;
mod community_entry;
mod compare;
mod in_place;
mod migrate;
pub mod migration_check;
mod model;
mod render_oracle;
mod scope;
mod templates;
mod validate;

use std::path::Path;

use olm_release_olm::fbc::{self, Catalog};
use olm_release_olm::{Bundle, Channel, Manifest, PackageManifest};

/// An image reference pinned by a digest derived from `seed`.
pub fn image(seed: &str) -> String {
    format!(
        "quay.io/example/bundle@sha256:{}",
        olm_release_base::digest::sha256_hex(seed.as_bytes())
    )
}

/// A catalog parsed from one YAML text (as `catalog.yaml`).
pub fn catalog(yaml: &str) -> Catalog {
    let mut c = Catalog::default();
    fbc::parse::add_file(&mut c, "catalog.yaml", yaml.as_bytes()).unwrap();
    c
}

/// A CSV with the fields the graph reads, owning `things.example.com`.
pub fn csv(name: &str, version: &str, replaces: Option<&str>, skips: &[&str]) -> Manifest {
    let mut text = format!(
        "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: {name}\n  namespace: placeholder\nspec:\n  version: \"{version}\"\n  displayName: Example\n  icon:\n  - base64data: aWNvbg==\n    mediatype: image/png\n  customresourcedefinitions:\n    owned:\n    - name: things.example.com\n      version: v1\n      kind: Thing\n"
    );
    if let Some(r) = replaces {
        text.push_str(&format!("  replaces: {r}\n"));
    }
    if !skips.is_empty() {
        text.push_str(&format!("  skips: [{}]\n", skips.join(", ")));
    }
    Manifest::new(
        format!("{name}.clusterserviceversion.yaml"),
        serde_yaml_ng::from_str(&text).unwrap(),
    )
}

/// The CRD the CSVs above own, serving v1 and v1beta1.
pub fn crd() -> Manifest {
    let text = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: things.example.com\nspec:\n  group: example.com\n  names: {kind: Thing, plural: things}\n  scope: Namespaced\n  versions:\n  - {name: v1, served: true, storage: true}\n  - {name: v1beta1, served: true, storage: false}\n";
    Manifest::new(
        "things.example.com.crd.yaml",
        serde_yaml_ng::from_str(text).unwrap(),
    )
}

/// A cumulative app-registry bundle.
pub fn bundle(
    package: &str,
    channels: &[(&str, &str)],
    default: Option<&str>,
    csvs: Vec<Manifest>,
) -> Bundle {
    Bundle {
        package: PackageManifest {
            package_name: package.into(),
            channels: channels
                .iter()
                .map(|(n, h)| Channel {
                    name: n.to_string(),
                    current_csv: h.to_string(),
                })
                .collect(),
            default_channel: default.map(str::to_string),
        },
        csvs,
        crds: vec![crd()],
    }
}

/// Reads a catalog folder, panicking on errors.
pub fn read(root: &Path) -> fbc::Loaded {
    fbc::disk::read(root).unwrap()
}

/// The documents of a YAML file, as text, split at `---` lines.
pub fn documents(text: &str) -> Vec<String> {
    text.split("---\n")
        .filter(|d| !d.is_empty())
        .map(str::to_string)
        .collect()
}
