//! The registry+v1 bundle folder: built from a CSV, its objects and the package's channels, or
//! read back from disk.
//!
//! Layout (operator-registry `docs/design/operator-bundle.md`): `manifests/` holds the CSV and
//! every other object, one file each (named as [`super::names`] says: the bundle folder's own
//! names, or names from the objects themselves; two objects at one name are an error naming
//! both source files); `metadata/annotations.yaml` holds the six bundle keys and the project's
//! other annotations ([`super::annotations`]); `tests/scorecard/` the project's scorecard
//! configuration, where it has one (operator-sdk's bundle layout); `bundle.Dockerfile` repeats
//! the annotations as `LABEL`s for people who build with a container tool.
//! Only the kinds OLM installs from a bundle are accepted (operator-registry
//! `pkg/lib/bundle/supported_resources.go`, plus the console and network kinds later releases
//! added). Objects are written with the project's YAML writer, which quotes every string a
//! YAML 1.1 reader would retype.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use super::annotations::{annotations_yaml, labels, parse_annotations};
use super::error::BundleImageError as E;
use super::metadata::{BundleMetadata, TESTS_DIR};
use super::names::{Files, Namer};
use crate::Manifest;

/// The kinds OLM accepts in a registry+v1 bundle besides the CSV.
pub const SUPPORTED_KINDS: &[&str] = &[
    "CustomResourceDefinition",
    "Secret",
    "ClusterRole",
    "ClusterRoleBinding",
    "ConfigMap",
    "ServiceAccount",
    "Service",
    "Role",
    "RoleBinding",
    "PrometheusRule",
    "ServiceMonitor",
    "PodDisruptionBudget",
    "PriorityClass",
    "VerticalPodAutoscaler",
    "ConsoleYAMLSample",
    "ConsoleQuickStart",
    "ConsoleCLIDownload",
    "ConsoleLink",
    "NetworkPolicy",
];

/// Where a bundle goes: its package and channels (from the pipeline file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BundleSpec {
    /// The OLM package the bundle belongs to (its
    /// `operators.operatorframework.io.bundle.package.v1` annotation).
    pub package: String,
    /// The channels this bundle joins, in the order given; at least one.
    pub channels: Vec<String>,
    /// The package's default channel; the first channel when `None` (as `opm alpha bundle
    /// generate` does).
    pub default_channel: Option<String>,
}

/// Everything one bundle is built from, as plain data.
#[derive(Debug, Clone)]
pub struct BundleInput {
    /// The package and channels.
    pub spec: BundleSpec,
    /// The rendered ClusterServiceVersion.
    pub csv: Manifest,
    /// Its CRDs and the other objects shipped with it, in any order.
    pub objects: Vec<Manifest>,
    /// Its dependencies and properties files, other annotations, scorecard tests and the
    /// project's file names, if any.
    pub metadata: BundleMetadata,
}

/// A registry+v1 bundle: the files of the image (paths like `manifests/x.yaml`, sorted) and
/// its annotations (the six bundle keys first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BundleFolder {
    files: BTreeMap<String, Vec<u8>>,
    labels: Vec<(String, String)>,
}

impl BundleFolder {
    /// Builds the folder's contents from a CSV, its objects and the spec.
    pub fn build(input: &BundleInput) -> Result<Self, E> {
        let labels = labels(&input.spec, &input.metadata.annotations)?;
        let mut files = Files::default();
        let namer = Namer::new(&input.metadata.file_names);
        let csv = &input.csv;
        if csv.kind() != Some("ClusterServiceVersion") {
            return Err(E::Manifest {
                file: csv.file.clone(),
                why: format!(
                    "kind is {}, not ClusterServiceVersion",
                    csv.kind().unwrap_or("missing")
                ),
            });
        }
        let name = required_name(csv)?;
        let file = namer.name(csv, "ClusterServiceVersion", name);
        files.add(format!("manifests/{file}"), csv)?;
        for object in &input.objects {
            let kind = object.kind().unwrap_or("");
            let file = match kind {
                k if SUPPORTED_KINDS.contains(&k) => namer.name(object, k, required_name(object)?),
                "ClusterServiceVersion" => {
                    return Err(E::Manifest {
                        file: object.file.clone(),
                        why:
                            "a second ClusterServiceVersion; a registry+v1 bundle holds exactly one"
                                .into(),
                    });
                }
                other => {
                    return Err(E::Manifest {
                        file: object.file.clone(),
                        why: format!(
                            "kind '{other}' cannot be shipped in a registry+v1 bundle (OLM installs only {})",
                            SUPPORTED_KINDS.join(", ")
                        ),
                    });
                }
            };
            files.add(format!("manifests/{file}"), object)?;
        }
        let mut files = files.bytes;
        files.insert(
            "metadata/annotations.yaml".into(),
            annotations_yaml(&labels).into_bytes(),
        );
        files.extend(input.metadata.files());
        Ok(BundleFolder { files, labels })
    }

    /// Reads a bundle folder from disk: every file under `manifests/`, `metadata/` and
    /// `tests/scorecard/` byte for byte (the annotations file decides the labels); anything
    /// else (`bundle.Dockerfile`) is not part of the image and is ignored.
    pub fn read(dir: &Path) -> Result<Self, E> {
        let mut files = BTreeMap::new();
        read_tree(dir, TESTS_DIR, &mut files)?;
        for sub in ["manifests", "metadata"] {
            let path = dir.join(sub);
            let entries = fs::read_dir(&path).map_err(|e| E::io(&path, e))?;
            for entry in entries {
                let entry = entry.map_err(|e| E::io(&path, e))?;
                let p = entry.path();
                let kind = entry.file_type().map_err(|e| E::io(&p, e))?;
                if !kind.is_file() {
                    return Err(E::Folder {
                        path: p,
                        why: "only regular files may sit in a bundle's manifests/ and metadata/ (no folders or links)".into(),
                    });
                }
                let name = entry.file_name().into_string().map_err(|_| E::Folder {
                    path: p.clone(),
                    why: "the file name is not UTF-8".into(),
                })?;
                let bytes =
                    olm_release_base::input::read(&p, olm_release_base::input::MAX_FILE_BYTES)
                        .map_err(|e| E::io(&p, e))?;
                files.insert(format!("{sub}/{name}"), bytes);
            }
        }
        let path = dir.join("metadata/annotations.yaml");
        let text = files
            .get("metadata/annotations.yaml")
            .ok_or_else(|| E::Folder {
                path: path.clone(),
                why: "missing; a registry+v1 bundle needs its annotations".into(),
            })?;
        let labels = parse_annotations(&path, text)?;
        if !files.keys().any(|k| k.starts_with("manifests/")) {
            return Err(E::Folder {
                path: dir.join("manifests"),
                why: "empty; a bundle needs at least its CSV".into(),
            });
        }
        Ok(BundleFolder { files, labels })
    }

    /// Writes the folder (`manifests/`, `metadata/`, `bundle.Dockerfile`) to `dir`, replacing
    /// what was there: it is written beside `dir` first and moved into place, so a crash never
    /// leaves a half-written bundle and stale files never survive. The staged and the replaced
    /// folders are `.NAME.tmp-PID` and `.NAME.old.tmp-PID` ([`olm_release_base::atomic::temp_beside`]):
    /// what a killed run leaves is removed by the next write beside `dir`.
    pub fn write(&self, dir: &Path) -> Result<(), E> {
        let parent = dir.parent().unwrap_or(Path::new("."));
        fs::create_dir_all(parent).map_err(|e| E::io(parent, e))?;
        olm_release_base::atomic::remove_stale_temps(parent);
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "bundle".into());
        let tmp = olm_release_base::atomic::temp_beside(&parent.join(&name));
        let old = olm_release_base::atomic::temp_beside(&parent.join(format!("{name}.old")));
        let _ = fs::remove_dir_all(&tmp);
        let _ = fs::remove_dir_all(&old);
        let written = (|| {
            for (rel, bytes) in self
                .files
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_slice()))
                .chain([("bundle.Dockerfile", self.dockerfile().as_bytes())])
            {
                let path = tmp.join(rel);
                if let Some(p) = path.parent() {
                    fs::create_dir_all(p).map_err(|e| E::io(p, e))?;
                }
                fs::write(&path, bytes).map_err(|e| E::io(&path, e))?;
            }
            if dir.exists() {
                fs::rename(dir, &old).map_err(|e| E::io(dir, e))?;
            }
            fs::rename(&tmp, dir).map_err(|e| E::io(dir, e))
        })();
        let _ = fs::remove_dir_all(&old);
        if written.is_err() {
            let _ = fs::remove_dir_all(&tmp);
        }
        written
    }

    /// The image's files: `manifests/…` and `metadata/…`, sorted by path.
    pub fn files(&self) -> &BTreeMap<String, Vec<u8>> {
        &self.files
    }

    /// The annotations, the six bundle keys first in [`super::LABEL_KEYS`] order (the image's
    /// labels).
    pub fn labels(&self) -> &[(String, String)] {
        &self.labels
    }

    /// The value of one bundle key.
    pub fn label(&self, key: &str) -> Option<&str> {
        self.labels
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// `bundle.Dockerfile`: `FROM scratch`, the labels, and the `COPY` lines (the scorecard
    /// tests' too, where the bundle has them, as operator-sdk writes it), so
    /// `docker build -f bundle.Dockerfile .` in the folder builds the same content.
    pub fn dockerfile(&self) -> String {
        let mut out = String::from("FROM scratch\n\n");
        for (k, v) in &self.labels {
            out.push_str(&format!("LABEL {k}={v}\n"));
        }
        out.push_str("\nCOPY manifests /manifests/\nCOPY metadata /metadata/\n");
        if self.files.keys().any(|k| k.starts_with(TESTS_DIR)) {
            out.push_str(&format!("COPY {TESTS_DIR} /{TESTS_DIR}/\n"));
        }
        out
    }
}

/// Every regular file under `dir/sub` (when it exists), by its path from `dir`.
fn read_tree(dir: &Path, sub: &str, files: &mut BTreeMap<String, Vec<u8>>) -> Result<(), E> {
    let path = dir.join(sub);
    if !path.is_dir() {
        return Ok(());
    }
    let entries = fs::read_dir(&path).map_err(|e| E::io(&path, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| E::io(&path, e))?;
        let p = entry.path();
        let name = entry.file_name().into_string().map_err(|_| E::Folder {
            path: p.clone(),
            why: "the file name is not UTF-8".into(),
        })?;
        let rel = format!("{sub}/{name}");
        let kind = entry.file_type().map_err(|e| E::io(&p, e))?;
        if kind.is_dir() {
            read_tree(dir, &rel, files)?;
        } else if kind.is_file() {
            let bytes = olm_release_base::input::read(&p, olm_release_base::input::MAX_FILE_BYTES)
                .map_err(|e| E::io(&p, e))?;
            files.insert(rel, bytes);
        }
    }
    Ok(())
}

fn required_name(m: &Manifest) -> Result<&str, E> {
    m.name()
        .filter(|n| !n.is_empty())
        .ok_or_else(|| E::Manifest {
            file: m.file.clone(),
            why: "metadata.name is missing".into(),
        })
}
