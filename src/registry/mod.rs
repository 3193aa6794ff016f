//! App registries: the CNR/"appr" HTTP API ([`appr`]) and the embedded directory-backed registry
//! ([`dir`]), behind one type with the same semantics.
//!
//! A registry holds, per namespace and package, releases named by strict SemVer, each pointing at
//! a blob (the bundle `.tar.gz`) by the sha256 of its uncompressed tar. `default` is the highest
//! SemVer release, pre-releases included (fact sheet §2.6). Pushing a release that exists is a
//! conflict unless forced. Stages talk to [`Registry`] only; they never know which kind it is.

pub mod appr;
pub mod dir;

use std::path::PathBuf;

use crate::error::Result;

/// One published release of a package.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ReleaseInfo {
    pub release: String,
    /// sha256 (hex) of the uncompressed tar.
    pub digest: String,
    /// Size of the compressed blob in bytes.
    pub size: u64,
}

impl ReleaseInfo {
    pub fn version(&self) -> Option<semver::Version> {
        semver::Version::parse(&self.release).ok()
    }
}

/// What a push did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PushOutcome {
    /// The release was stored.
    Pushed,
    /// The release already exists and the push was not forced (HTTP 409).
    Exists,
}

/// Where a registry lives, as written in the pipeline file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// `dir:PATH`, the embedded registry.
    Dir(PathBuf),
    /// An `http(s)://…` base URL of the CNR API, e.g. `https://quay.io/cnr`.
    Http(String),
}

impl Location {
    /// Parses `dir:PATH` or an `http(s)://` URL. Relative paths are kept relative.
    pub fn parse(url: &str) -> std::result::Result<Self, String> {
        if let Some(path) = url.strip_prefix("dir:") {
            if path.is_empty() {
                return Err("dir: needs a path, e.g. dir:_out/registry".into());
            }
            Ok(Location::Dir(PathBuf::from(path)))
        } else if url.starts_with("https://") || url.starts_with("http://") {
            Ok(Location::Http(url.trim_end_matches('/').to_string()))
        } else {
            Err(format!("'{url}' is neither dir:PATH nor an http(s):// URL"))
        }
    }
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Location::Dir(p) => write!(f, "dir:{}", p.display()),
            Location::Http(u) => f.write_str(u),
        }
    }
}

/// A registry client of either kind.
#[derive(Debug)]
pub enum Registry {
    Dir(dir::DirRegistry),
    Appr(appr::ApprClient),
}

impl Registry {
    /// Every release of `ns/pkg`, highest SemVer first; empty when the package does not exist.
    pub async fn releases(&self, ns: &str, pkg: &str) -> Result<Vec<ReleaseInfo>> {
        match self {
            Registry::Dir(r) => r.releases(ns, pkg),
            Registry::Appr(r) => r.releases(ns, pkg).await,
        }
    }

    /// The blob (`.tar.gz` bytes) whose uncompressed tar has this digest.
    pub async fn pull(&self, ns: &str, pkg: &str, digest: &str) -> Result<Vec<u8>> {
        match self {
            Registry::Dir(r) => r.pull(ns, pkg, digest),
            Registry::Appr(r) => r.pull_blob(ns, pkg, digest).await,
        }
    }

    /// Publishes `gz` as `release` of `ns/pkg`.
    pub async fn push(
        &self,
        ns: &str,
        pkg: &str,
        release: &str,
        gz: &[u8],
        force: bool,
    ) -> Result<PushOutcome> {
        match self {
            Registry::Dir(r) => r.push(ns, pkg, release, gz, force),
            Registry::Appr(r) => r.push(ns, pkg, release, gz, force).await,
        }
    }

    /// Names of the packages in a namespace (without the namespace).
    pub async fn packages(&self, ns: &str) -> Result<Vec<String>> {
        match self {
            Registry::Dir(r) => r.packages(ns),
            Registry::Appr(r) => r.packages(ns).await,
        }
    }

    /// Where this registry is, for messages.
    pub fn describe(&self) -> String {
        match self {
            Registry::Dir(r) => r.describe(),
            Registry::Appr(r) => r.describe(),
        }
    }
}
