//! The registry+v1 bundle folder: built from a CSV, its objects and the package's channels, or
//! read back from disk.
//!
//! Layout (operator-registry `docs/design/operator-bundle.md`): `manifests/` holds the CSV and
//! every other object, one file each, named from the object itself (`<csv>.clusterserviceversion.yaml`,
//! `<crd>.crd.yaml`, `<name>.<kind>.yaml`) so the names never depend on how the inputs were
//! named or ordered on disk (two objects of one kind and name are an error naming both source
//! files); `metadata/annotations.yaml` holds the six bundle keys;
//! `bundle.Dockerfile` repeats them as `LABEL`s for people who build with a container tool.
//! Only the kinds OLM installs from a bundle are accepted (operator-registry
//! `pkg/lib/bundle/supported_resources.go`, plus the console and network kinds later releases
//! added). Objects are written with the project's YAML writer, which quotes every string a
//! YAML 1.1 reader would retype.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use serde_yaml_ng::{Mapping, Value};

use super::metadata::BundleMetadata;
use super::{BundleImageError as E, LABEL_KEYS, REGISTRY_V1};
use crate::{Manifest, crd_file_name, csv_file_name};

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
    /// Its dependencies and properties files, if any.
    pub metadata: BundleMetadata,
}

/// A registry+v1 bundle: the files of the image (paths like `manifests/x.yaml`, sorted) and
/// the six annotations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BundleFolder {
    files: BTreeMap<String, Vec<u8>>,
    labels: Vec<(String, String)>,
}

impl BundleFolder {
    /// Builds the folder's contents from a CSV, its objects and the spec.
    pub fn build(input: &BundleInput) -> Result<Self, E> {
        let labels = labels(&input.spec)?;
        let mut files = Files::default();
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
        files.add(format!("manifests/{}", csv_file_name(name)), csv)?;
        for object in &input.objects {
            let kind = object.kind().unwrap_or("");
            let file = match kind {
                "CustomResourceDefinition" => crd_file_name(object),
                k if SUPPORTED_KINDS.contains(&k) => {
                    format!("{}.{}.yaml", required_name(object)?, k.to_ascii_lowercase())
                }
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
            required_name(object)?;
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

    /// Reads a bundle folder from disk: every file under `manifests/` and `metadata/` byte for
    /// byte (the annotations file decides the labels); anything else (`bundle.Dockerfile`) is
    /// not part of the image and is ignored.
    pub fn read(dir: &Path) -> Result<Self, E> {
        let mut files = BTreeMap::new();
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

    /// The bundle keys and values, in [`LABEL_KEYS`] order (the image's labels).
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

    /// `bundle.Dockerfile`: `FROM scratch`, the labels, and the two `COPY` lines, so
    /// `docker build -f bundle.Dockerfile .` in the folder builds the same content.
    pub fn dockerfile(&self) -> String {
        let mut out = String::from("FROM scratch\n\n");
        for (k, v) in &self.labels {
            out.push_str(&format!("LABEL {k}={v}\n"));
        }
        out.push_str("\nCOPY manifests /manifests/\nCOPY metadata /metadata/\n");
        out
    }
}

/// The six keys for a spec, checking the names.
fn labels(spec: &BundleSpec) -> Result<Vec<(String, String)>, E> {
    check_name("package", &spec.package)?;
    if spec.channels.is_empty() {
        return Err(E::Spec {
            field: "channels",
            why: "a bundle must join at least one channel".into(),
        });
    }
    for c in &spec.channels {
        check_name("channels", c)?;
    }
    let default = match &spec.default_channel {
        Some(d) if spec.channels.contains(d) => d.clone(),
        Some(d) => {
            return Err(E::Spec {
                field: "default_channel",
                why: format!(
                    "'{d}' is not one of this bundle's channels ({}); add it or pick one of them",
                    spec.channels.join(", ")
                ),
            });
        }
        None => spec.channels[0].clone(),
    };
    let values = [
        REGISTRY_V1.to_string(),
        "manifests/".into(),
        "metadata/".into(),
        spec.package.clone(),
        spec.channels.join(","),
        default,
    ];
    Ok(LABEL_KEYS
        .iter()
        .zip(values)
        .map(|(k, v)| (k.to_string(), v))
        .collect())
}

/// Package and channel names: letters, digits, `-`, `_`, `.` (they become label values and a
/// comma-separated list).
fn check_name(field: &'static str, name: &str) -> Result<(), E> {
    let ok = !name.is_empty()
        && name.len() <= 253
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(())
    } else {
        Err(E::Spec {
            field,
            why: format!("'{name}' is not a valid name (letters, digits, '-', '_', '.')"),
        })
    }
}

fn required_name(m: &Manifest) -> Result<&str, E> {
    m.name()
        .filter(|n| !n.is_empty())
        .ok_or_else(|| E::Manifest {
            file: m.file.clone(),
            why: "metadata.name is missing".into(),
        })
}

/// The manifests being built: each path's bytes, the file its object came from and its
/// `apiVersion`.
#[derive(Default)]
struct Files {
    bytes: BTreeMap<String, Vec<u8>>,
    from: BTreeMap<String, (String, String)>,
}

/// The `apiVersion` of `m` (empty when it has none).
fn api_version(m: &Manifest) -> String {
    m.doc
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

impl Files {
    /// Adds `m` as `path`. A second object at the same path is an error naming both files,
    /// unless its `apiVersion` differs (a v1 and a v1beta1 ClusterRole of one name, as bundles
    /// written for clusters of both ages ship them): it goes to `NAME.KIND.VERSION.yaml`.
    fn add(&mut self, path: String, m: &Manifest) -> Result<(), E> {
        let api = api_version(m);
        let path = match self.from.get(&path) {
            Some((_, first_api)) if *first_api != api && !api.is_empty() => {
                let version = api.rsplit('/').next().unwrap_or_default();
                let versioned = path
                    .strip_suffix(".yaml")
                    .map(|p| format!("{p}.{version}.yaml"))
                    .unwrap_or_else(|| path.clone());
                if let Some((first, _)) = self.from.get(&versioned) {
                    return Err(E::DuplicateFile {
                        path: versioned,
                        first: first.clone(),
                        second: m.file.clone(),
                    });
                }
                versioned
            }
            Some((first, _)) => {
                return Err(E::DuplicateFile {
                    path,
                    first: first.clone(),
                    second: m.file.clone(),
                });
            }
            None => path,
        };
        self.from.insert(path.clone(), (m.file.clone(), api));
        self.bytes
            .insert(path, olm_release_base::yaml::to_string(&m.doc).into_bytes());
        Ok(())
    }
}

fn annotations_yaml(labels: &[(String, String)]) -> String {
    let mut inner = Mapping::new();
    for (k, v) in labels {
        inner.insert(Value::from(k.as_str()), Value::from(v.as_str()));
    }
    let mut top = Mapping::new();
    top.insert(Value::from("annotations"), Value::Mapping(inner));
    olm_release_base::yaml::to_string(&Value::Mapping(top))
}

/// The bundle keys of an `annotations.yaml`, checked: the format must be registry+v1 with the
/// standard folders, and the package and channels must be set.
fn parse_annotations(path: &Path, bytes: &[u8]) -> Result<Vec<(String, String)>, E> {
    #[derive(serde::Deserialize)]
    struct File {
        annotations: BTreeMap<String, String>,
    }
    let bad = |why: String| E::Folder {
        path: path.to_path_buf(),
        why,
    };
    let text = std::str::from_utf8(bytes).map_err(|_| bad("not UTF-8".into()))?;
    let file: File =
        crate::archive::parse_single("annotations.yaml", text).map_err(|e| bad(e.to_string()))?;
    let mut labels = Vec::new();
    for key in LABEL_KEYS {
        match file.annotations.get(key) {
            Some(v) => labels.push((key.to_string(), v.clone())),
            None if key == super::DEFAULT_CHANNEL_KEY => {}
            None => return Err(bad(format!("'{key}' is missing"))),
        }
    }
    for (key, want) in [
        (super::MEDIATYPE_KEY, REGISTRY_V1),
        (super::MANIFESTS_KEY, "manifests/"),
        (super::METADATA_KEY, "metadata/"),
    ] {
        let got = &file.annotations[key];
        if got != want {
            return Err(bad(format!(
                "'{key}' is '{got}'; olm-release builds '{want}' bundles only"
            )));
        }
    }
    Ok(labels)
}
