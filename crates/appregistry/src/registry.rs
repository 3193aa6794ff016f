//! The app registry behind one type: an appr/Quay server over HTTP, or a `dir:` folder, with
//! where it lives, a package as a listing shows it, and how a push would be sent.

use std::path::PathBuf;

use crate::error::RegistryError;
use crate::release::{PushOutcome, ReleaseInfo, Result};

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

/// A package as a namespace listing shows it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PackageSummary {
    /// The package name, without the namespace.
    pub name: String,
    /// The highest release (what OLM consumers load).
    pub default: Option<String>,
    /// Every release, highest first.
    pub releases: Vec<String>,
}

/// How a push would be (or was) sent, for dry-run output and messages. Never holds a secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushRequest {
    /// `POST https://quay.io/cnr/api/v1/packages/ns/pkg` or `dir:PATH ns/pkg`.
    pub target: String,
    /// Which credentials would be sent, e.g. `Authorization from QUAY_TOKEN (not shown)`.
    pub credentials: String,
}

/// Quay answers a namespace listing with at most this many packages (its list page size).
pub const QUAY_LIST_CAP: usize = 50;

/// A registry client of either kind.
#[derive(Debug)]
pub enum Registry {
    /// The embedded folder registry.
    Dir(crate::dir::DirRegistry),
    /// An HTTP app registry (Quay, appr).
    Appr(Box<crate::appr::ApprClient>),
}

impl Registry {
    /// Opens the registry at `location`, reporting retries and transfers to `events`.
    /// Credentials are used by HTTP registries only.
    pub fn open(
        location: &Location,
        credentials: Option<crate::appr::Credentials>,
        http: olm_release_http::HttpOptions,
        retry: olm_release_http::retry::RetryPolicy,
        events: std::sync::Arc<dyn olm_release_http::events::Events>,
    ) -> Result<Self> {
        Ok(match location {
            Location::Dir(path) => Registry::Dir(crate::dir::DirRegistry::new(path)),
            Location::Http(url) => {
                if let Some(w) = reqwest::Url::parse(url)
                    .ok()
                    .and_then(|u| olm_release_http::plain_http_warning(&u))
                {
                    events.warn(&w);
                }
                Registry::Appr(Box::new(
                    crate::appr::ApprClient::with_options(url.clone(), credentials, http, retry)?
                        .with_events(events),
                ))
            }
        })
    }

    /// Every release of `ns/pkg`, highest SemVer first; empty when the package does not exist.
    pub async fn releases(&self, ns: &str, pkg: &str) -> Result<Vec<ReleaseInfo>> {
        match self {
            Registry::Dir(r) => r.releases(ns, pkg),
            Registry::Appr(r) => r.releases(ns, pkg).await,
        }
    }

    /// One release, `None` when absent. `default` names the highest release.
    pub async fn release(&self, ns: &str, pkg: &str, release: &str) -> Result<Option<ReleaseInfo>> {
        let all = self.releases(ns, pkg).await?;
        Ok(if release == "default" {
            all.into_iter().next()
        } else {
            all.into_iter().find(|r| r.release == release)
        })
    }

    /// The blob (`.tar.gz` bytes) whose uncompressed tar has this digest.
    pub async fn pull(&self, ns: &str, pkg: &str, digest: &str) -> Result<Vec<u8>> {
        match self {
            Registry::Dir(r) => r.pull(ns, pkg, digest),
            Registry::Appr(r) => r.pull_blob(ns, pkg, digest).await,
        }
    }

    /// The blob of a release, fetched by release name (the server resolves it), as a consumer
    /// would. For a `dir:` registry, by the digest its index names.
    pub async fn pull_release(&self, ns: &str, pkg: &str, release: &str) -> Result<Vec<u8>> {
        match self {
            Registry::Dir(r) => {
                let info = self.release(ns, pkg, release).await?.ok_or_else(|| {
                    RegistryError::NoRelease {
                        registry: r.describe(),
                        namespace: ns.into(),
                        package: pkg.into(),
                        release: release.into(),
                    }
                })?;
                r.pull(ns, pkg, &info.digest)
            }
            Registry::Appr(r) => r.pull_release(ns, pkg, release).await,
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

    /// What [`Registry::push`] would send, without sending anything.
    pub fn push_request(&self, ns: &str, pkg: &str, force: bool) -> PushRequest {
        match self {
            Registry::Dir(r) => PushRequest {
                target: format!("{} {ns}/{pkg}", r.describe()),
                credentials: "none needed".into(),
            },
            Registry::Appr(r) => PushRequest {
                target: format!("POST {}", r.push_url(ns, pkg, force)),
                credentials: match r.credentials() {
                    Some(c) => format!("Authorization from {} (not shown)", c.source()),
                    None => "no credentials (Quay needs QUAY_TOKEN or QUAY_USERNAME/QUAY_PASSWORD)"
                        .into(),
                },
            },
        }
    }

    /// The packages of a namespace with their releases, as the registry lists them.
    pub async fn list(&self, ns: &str) -> Result<Vec<PackageSummary>> {
        match self {
            Registry::Dir(r) => {
                let mut out = Vec::new();
                for name in r.packages(ns)? {
                    let releases: Vec<String> = r
                        .releases(ns, &name)?
                        .into_iter()
                        .map(|i| i.release)
                        .collect();
                    out.push(PackageSummary {
                        default: releases.first().cloned(),
                        releases,
                        name,
                    });
                }
                Ok(out)
            }
            Registry::Appr(r) => {
                let prefix = format!("{ns}/");
                Ok(r.list(ns)
                    .await?
                    .into_iter()
                    .map(|i| PackageSummary {
                        name: i.name.strip_prefix(&prefix).unwrap_or(&i.name).to_string(),
                        default: i.default,
                        releases: i.releases,
                    })
                    .collect())
            }
        }
    }

    /// For a `dir:` registry, holds the package's publication lock (read-decide-write of one job
    /// at a time; see [`crate::dir::DirRegistry::hold`]); an HTTP registry has no locks (`None`):
    /// racing publications converge after the push instead.
    pub fn hold(&self, ns: &str, pkg: &str) -> Result<Option<crate::dir::Held>> {
        match self {
            Registry::Dir(r) => r.hold(ns, pkg).map(Some),
            Registry::Appr(_) => Ok(None),
        }
    }

    /// Deletes a release. `Ok(false)` when there was no such release.
    pub async fn delete(&self, ns: &str, pkg: &str, release: &str) -> Result<bool> {
        match self {
            Registry::Dir(r) => Err(RegistryError::NoDelete {
                registry: r.describe(),
                namespace: ns.into(),
                package: pkg.into(),
            }),
            Registry::Appr(r) => r.delete(ns, pkg, release).await,
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
