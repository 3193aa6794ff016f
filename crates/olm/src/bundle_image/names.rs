//! The file names of a bundle's `manifests/`. A bundle folder's own names are kept, by object
//! ([`super::BundleMetadata::file_names`], whichever source the object itself came from):
//! `opm` reads a bundle folder as it is, so a v1 and a v1beta1 ClusterRole of one name sit side
//! by side in files of their own. An object with no file of its own (one of a multi-document
//! file, which operator-registry's bundle loader would read only the first document of) or
//! whose name another object has too is named from the object itself: `<csv>.clusterserviceversion.yaml`,
//! `<crd>.crd.yaml`, `<name>.<kind>.yaml`, so those names never depend on how the inputs were
//! named or ordered on disk.

use std::collections::BTreeMap;

use super::error::BundleImageError as E;
use crate::{Manifest, crd_file_name, csv_file_name};

/// The manifests being built: each path's bytes, and the object written there.
#[derive(Default)]
pub(super) struct Files {
    pub(super) bytes: BTreeMap<String, Vec<u8>>,
    from: BTreeMap<String, Manifest>,
}

impl Files {
    /// Adds `m` as `path`. A second copy of the object already there, equal as data
    /// ([`Manifest::same_data`]; verify's `object-copies` warns of it), is carried once. Any
    /// other second object at the same path is an error naming both files, unless its
    /// `apiVersion` differs (a v1 and a v1beta1 ClusterRole of one name, as bundles written
    /// for clusters of both ages ship them, named from the objects): it goes to
    /// `NAME.KIND.VERSION.yaml`.
    pub(super) fn add(&mut self, path: String, m: &Manifest) -> Result<(), E> {
        let api = m.str_at("apiVersion").unwrap_or_default().to_string();
        let api_of = |first: &Manifest| first.str_at("apiVersion").unwrap_or_default().to_string();
        let path = match self.from.get(&path) {
            Some(first) if m.same_data(first) => return Ok(()),
            Some(first) if api_of(first) != api && !api.is_empty() => {
                let version = api.rsplit('/').next().unwrap_or_default();
                let versioned = path
                    .strip_suffix(".yaml")
                    .map(|p| format!("{p}.{version}.yaml"))
                    .unwrap_or_else(|| path.clone());
                match self.from.get(&versioned) {
                    Some(first) if m.same_data(first) => return Ok(()),
                    Some(first) => {
                        return Err(E::DuplicateFile {
                            path: versioned,
                            first: first.file.clone(),
                            second: m.file.clone(),
                        });
                    }
                    None => versioned,
                }
            }
            Some(first) => {
                return Err(E::DuplicateFile {
                    path,
                    first: first.file.clone(),
                    second: m.file.clone(),
                });
            }
            None => path,
        };
        self.from.insert(path.clone(), m.clone());
        self.bytes
            .insert(path, olm_release_base::yaml::to_string(&m.doc).into_bytes());
        Ok(())
    }
}

/// An object's identity in a bundle: `apiVersion`, `kind` and `metadata.name` (a v1 and a
/// v1beta1 ClusterRole of one name are two objects).
pub type ObjectKey = (String, String, String);

/// The identity of `m`.
pub fn object_key(m: &Manifest) -> ObjectKey {
    let s = |path: &str| m.str_at(path).unwrap_or_default().to_string();
    (s("apiVersion"), s("kind"), s("metadata.name"))
}

/// How the objects of one bundle are named: the project's own names, by object.
pub(super) struct Namer<'a> {
    own: &'a BTreeMap<ObjectKey, String>,
    uses: BTreeMap<&'a str, usize>,
}

impl<'a> Namer<'a> {
    /// Own names are kept where one object only has that name.
    pub(super) fn new(own: &'a BTreeMap<ObjectKey, String>) -> Self {
        let mut uses = BTreeMap::new();
        for name in own.values().filter_map(|f| own_name(f)) {
            *uses.entry(name).or_insert(0) += 1;
        }
        Namer { own, uses }
    }

    /// The file name of `m` in `manifests/`; `kind` and `name` are its kind and
    /// `metadata.name`.
    pub(super) fn name(&self, m: &Manifest, kind: &str, name: &str) -> String {
        let own = self
            .own
            .get(&object_key(m))
            .and_then(|f| own_name(f))
            .filter(|n| self.uses.get(n) == Some(&1));
        if let Some(own) = own {
            return own.to_string();
        }
        match kind {
            "ClusterServiceVersion" => csv_file_name(name),
            "CustomResourceDefinition" => crd_file_name(m),
            k => format!("{name}.{}.yaml", k.to_ascii_lowercase()),
        }
    }
}

/// The base name of `file` when it names a YAML or JSON file.
pub fn own_name(file: &str) -> Option<&str> {
    let base = file.rsplit(['/', '\\']).next()?;
    let ext_ok = [".yaml", ".yml", ".json"]
        .iter()
        .any(|e| base.len() > e.len() && base.ends_with(e));
    (ext_ok && !base.starts_with('.')).then_some(base)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(file: &str, doc: &str) -> Manifest {
        Manifest::new(file, serde_yaml_ng::from_str(doc).unwrap())
    }

    #[test]
    fn own_names_are_kept_unless_shared_or_not_asked() {
        let v1 = m(
            "bundle/manifests/metrics-reader_rbac.authorization.k8s.io_v1_clusterrole.yaml",
            "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: metrics-reader}\n",
        );
        let v1beta1 = m(
            "metrics-reader_rbac.authorization.k8s.io_v1beta1_clusterrole.yaml",
            "apiVersion: rbac.authorization.k8s.io/v1beta1\nkind: ClusterRole\nmetadata: {name: metrics-reader}\n",
        );
        let crd_a = m(
            "crds.yaml",
            "kind: CustomResourceDefinition\nmetadata: {name: a.example.com}\n",
        );
        let crd_b = m(
            "crds.yaml",
            "kind: CustomResourceDefinition\nmetadata: {name: b.example.com}\n",
        );
        let own = BTreeMap::from([
            (object_key(&v1), v1.file.clone()),
            (object_key(&v1beta1), v1beta1.file.clone()),
            (object_key(&crd_a), "a.yaml".to_string()),
            (object_key(&crd_b), "dir/a.yaml".to_string()),
        ]);
        let namer = Namer::new(&own);
        assert_eq!(
            namer.name(&v1, "ClusterRole", "metrics-reader"),
            "metrics-reader_rbac.authorization.k8s.io_v1_clusterrole.yaml"
        );
        assert_eq!(
            namer.name(&v1beta1, "ClusterRole", "metrics-reader"),
            "metrics-reader_rbac.authorization.k8s.io_v1beta1_clusterrole.yaml"
        );
        assert_eq!(
            namer.name(&crd_a, "CustomResourceDefinition", "a.example.com"),
            crd_file_name(&crd_a),
            "two objects of one own name are named after themselves"
        );
        let none = BTreeMap::new();
        assert_eq!(
            Namer::new(&none).name(&v1, "ClusterRole", "metrics-reader"),
            "metrics-reader.clusterrole.yaml"
        );
        assert_eq!(own_name("op"), None);
        assert_eq!(own_name(".yaml"), None);
    }
}
