//! The embedded app registry: a folder with the same semantics as the CNR API.
//!
//! Layout under the root: `<ns>/<pkg>/releases.json` (release → digest, size) and
//! `<ns>/<pkg>/blobs/sha256/<digest>.tar.gz`. Releases must be strict SemVer (the server's 422),
//! pushing an existing release is refused unless forced (409), and `default` is the highest
//! SemVer. Writes are atomic (write a temporary file, then rename) and serialised by an exclusive
//! lock on `<root>/.lock`, so two CI jobs pushing to one folder cannot corrupt it.
//!
//! A whole publication (read the releases, decide `replaces`, package, push) is serialised by a
//! second lock, [`DirRegistry::hold`] on the namespace folder `<root>/<ns>` itself (an advisory
//! lock on the folder, so a run that stops before pushing leaves no file behind), which the
//! executor takes before fetch-previous reads and releases after the push: racing jobs on one
//! folder then publish one after the other, each on the head the previous one left, so the
//! channel cannot fork. It is not `.lock`, so the push can take that one inside it.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{PushOutcome, RegistryError, ReleaseInfo, Result};
use olm_release_base::atomic::write_atomic;

#[derive(Debug)]
/// The embedded app registry in the folder `root`.
pub struct DirRegistry {
    root: PathBuf,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct Releases {
    releases: BTreeMap<String, Stored>,
}

#[derive(Debug, Serialize, Deserialize)]
struct Stored {
    digest: String,
    size: u64,
}

impl DirRegistry {
    /// The registry in the folder `root` (created on the first push).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        DirRegistry { root: root.into() }
    }

    pub(crate) fn describe(&self) -> String {
        format!("dir:{}", self.root.display())
    }

    fn package_dir(&self, ns: &str, pkg: &str) -> Result<PathBuf> {
        for (what, part) in [("namespace", ns), ("package", pkg)] {
            let ok = !part.is_empty()
                && part
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
                && !part.starts_with('.');
            if !ok {
                return Err(RegistryError::Name {
                    what: if what == "namespace" {
                        "namespace name"
                    } else {
                        "package name"
                    },
                    value: part.into(),
                    allowed: "letters, digits, '-', '_', '.'",
                });
            }
        }
        Ok(self.root.join(ns).join(pkg))
    }

    fn read_index(&self, dir: &Path) -> Result<Releases> {
        let path = dir.join("releases.json");
        match olm_release_base::input::read(&path, super::appr::transport::MAX_JSON) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| RegistryError::CorruptIndex {
                path: path.clone(),
                message: e.to_string(),
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Releases::default()),
            Err(e) => Err(RegistryError::io(&path, e)),
        }
    }

    /// Every release of `ns/pkg`, highest SemVer first; empty when the package does not exist.
    pub fn releases(&self, ns: &str, pkg: &str) -> Result<Vec<ReleaseInfo>> {
        let index = self.read_index(&self.package_dir(ns, pkg)?)?;
        let mut out: Vec<ReleaseInfo> = index
            .releases
            .into_iter()
            .map(|(release, s)| ReleaseInfo {
                release,
                digest: s.digest,
                size: s.size,
            })
            .collect();
        out.sort_by_key(|r| std::cmp::Reverse(r.version()));
        Ok(out)
    }

    /// The packages of a namespace, by name.
    pub fn packages(&self, ns: &str) -> Result<Vec<String>> {
        let dir = self.root.join(ns);
        let entries = match fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(RegistryError::io(&dir, e)),
        };
        let mut names = Vec::new();
        for entry in entries.flatten() {
            if entry.path().join("releases.json").is_file() {
                names.push(entry.file_name().to_string_lossy().into_owned());
            }
        }
        names.sort();
        Ok(names)
    }

    /// The blob (`.tar.gz` bytes) whose uncompressed tar has this digest.
    pub fn pull(&self, ns: &str, pkg: &str, digest: &str) -> Result<Vec<u8>> {
        if digest.len() != 64 || !digest.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(RegistryError::Digest(format!("invalid digest '{digest}'")));
        }
        let path = self
            .package_dir(ns, pkg)?
            .join("blobs/sha256")
            .join(format!("{digest}.tar.gz"));
        // Regular files only, within the cap on a blob an app registry serves.
        let cap = olm_release_http::HttpOptions::default().max_body;
        olm_release_base::input::read(&path, cap).map_err(|source| RegistryError::Io {
            doing: "pulling blob: ",
            path,
            source,
        })
    }

    /// Publishes `gz` as `release` of `ns/pkg` (refused as existing unless `force`).
    pub fn push(
        &self,
        ns: &str,
        pkg: &str,
        release: &str,
        gz: &[u8],
        force: bool,
    ) -> Result<PushOutcome> {
        semver::Version::parse(release).map_err(|e| RegistryError::NotSemver {
            release: release.into(),
            reason: e.to_string(),
        })?;
        let dir = self.package_dir(ns, pkg)?;
        fs::create_dir_all(&self.root).map_err(|e| RegistryError::io(&self.root, e))?;
        let _lock = lock(&self.root.join(".lock"))?;
        let mut index = self.read_index(&dir)?;
        if index.releases.contains_key(release) && !force {
            return Ok(PushOutcome::Exists);
        }
        // The blob is this process's own packing: check it is a tar of files and take its
        // digest without holding it unpacked, at whatever size it has.
        let limits = olm_release_olm::archive::Limits {
            max_bytes: u64::MAX,
            max_ratio: u64::MAX,
            ..Default::default()
        };
        let inspected =
            olm_release_olm::archive::inspect(gz, &limits).map_err(|e| RegistryError::Refused {
                release: release.into(),
                reason: e.to_string(),
            })?;
        let digest = inspected.digest;
        if inspected.files == 0 {
            return Err(RegistryError::Refused {
                release: release.into(),
                reason: "the archive is empty".into(),
            });
        }
        let blob = dir.join("blobs/sha256").join(format!("{digest}.tar.gz"));
        write_atomic(&blob, gz).map_err(|e| RegistryError::io(&blob, e))?;
        index.releases.insert(
            release.to_string(),
            Stored {
                digest,
                size: gz.len() as u64,
            },
        );
        let json = serde_json::to_vec_pretty(&index).expect("index serialises");
        let index = dir.join("releases.json");
        write_atomic(&index, &json).map_err(|e| RegistryError::io(&index, e))?;
        Ok(PushOutcome::Pushed)
    }
}

/// A held publication lock of one package (see [`DirRegistry::hold`]); dropping it releases
/// the lock.
#[derive(Debug)]
pub struct Held {
    _lock: olm_release_base::lock::FolderLock,
    /// Where the lock file is, for messages.
    pub path: PathBuf,
    /// Whether another job held it first (this one waited).
    pub waited: bool,
}

impl DirRegistry {
    /// Holds the publication lock of `ns/pkg` (the namespace folder's, shared by its packages)
    /// until the returned value is dropped, waiting for another job that holds it. The folder
    /// is created if needed (only runs that will write take the lock).
    pub fn hold(&self, ns: &str, pkg: &str) -> Result<Held> {
        let dir = self.package_dir(ns, pkg)?;
        let path = dir.parent().unwrap_or(&self.root).to_path_buf();
        fs::create_dir_all(&path).map_err(|e| RegistryError::io(&path, e))?;
        let held =
            olm_release_base::lock::lock_folder(&path).map_err(|source| RegistryError::Io {
                doing: "locking the package for publishing: ",
                path: path.clone(),
                source,
            })?;
        Ok(Held {
            waited: held.waited,
            _lock: held,
            path,
        })
    }
}

/// Takes an exclusive lock on `path`, held until the returned file is dropped.
pub(crate) fn lock(path: &Path) -> Result<fs::File> {
    olm_release_base::lock::lock_file(path).map_err(|source| RegistryError::Io {
        doing: "locking the registry: ",
        path: path.to_path_buf(),
        source,
    })
}
