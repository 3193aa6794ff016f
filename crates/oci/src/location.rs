//! Where an image goes: a repository in a registry, or an `oci:` image layout folder; its tags,
//! and the events the OCI clients report through.

use std::path::PathBuf;
use std::time::Duration;

use reqwest::Url;

use crate::error::OciError;

/// Where images go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImageLocation {
    /// An OCI image layout folder: `oci:PATH`.
    Layout(PathBuf),
    /// A repository in a registry.
    Remote(RemoteRepository),
}

/// A repository in a registry: `base` is `scheme://host[:port]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteRepository {
    /// `scheme://host[:port]/`: https, or http for a loopback host or an explicit `http://`.
    pub base: Url,
    /// The repository's path in the registry, such as `kubevirt/kubevirt-bundle`.
    pub repository: String,
}

impl ImageLocation {
    /// Parses `oci:PATH` or `[scheme://]HOST[:PORT]/REPOSITORY` (no tag: the tag is given per
    /// push).
    pub fn parse(text: &str) -> Result<ImageLocation, OciError> {
        let bad = |why: &str| OciError::ImageLocation {
            target: without_userinfo(text),
            why: why.to_string(),
        };
        if let Some(path) = text.strip_prefix("oci:") {
            if path.is_empty() {
                return Err(bad("oci: needs a folder, e.g. oci:_out/oci"));
            }
            return Ok(ImageLocation::Layout(PathBuf::from(path)));
        }
        let (scheme, rest) = match text.split_once("://") {
            Some(("http", r)) => (Some("http"), r),
            Some(("https", r)) => (Some("https"), r),
            Some(("docker", r)) => (None, r),
            Some((other, _)) => {
                return Err(bad(&format!(
                    "unknown scheme '{other}://'; use oci:PATH or HOST[:PORT]/REPOSITORY"
                )));
            }
            None => (None, text),
        };
        let (host, repository) = rest.split_once('/').ok_or_else(|| {
            bad("a registry target is HOST[:PORT]/REPOSITORY (e.g. quay.io/kubevirt/kubevirt-bundle), or oci:PATH for a folder")
        })?;
        if !(host.contains('.') || host.contains(':') || host == "localhost") {
            return Err(bad(&format!(
                "'{host}' does not name a registry host; write the registry explicitly (e.g. quay.io/{host}/…)"
            )));
        }
        check_repository(repository).map_err(|why| bad(&why))?;
        let guess = Url::parse(&format!("http://{host}/"))
            .map_err(|e| bad(&format!("'{host}' is not a host[:port] ({e})")))?;
        let scheme = scheme.unwrap_or(if olm_release_http::is_loopback(&guess) {
            "http"
        } else {
            "https"
        });
        let base = Url::parse(&format!("{scheme}://{host}/"))
            .map_err(|e| bad(&format!("'{host}' is not a host[:port] ({e})")))?;
        if !base.username().is_empty() || base.password().is_some() {
            return Err(bad(
                "the target must not hold credentials; give them to olm-release separately",
            ));
        }
        Ok(ImageLocation::Remote(RemoteRepository {
            base,
            repository: repository.to_string(),
        }))
    }

    /// How the target reads in messages: `oci:PATH` or `HOST[:PORT]/REPOSITORY`.
    pub fn describe(&self) -> String {
        match self {
            ImageLocation::Layout(p) => format!("oci:{}", p.display()),
            ImageLocation::Remote(r) => r.describe(),
        }
    }
}

impl RemoteRepository {
    /// `HOST[:PORT]/REPOSITORY`.
    pub fn describe(&self) -> String {
        let host = self.base.host_str().unwrap_or_default();
        match self.base.port() {
            Some(p) => format!("{host}:{p}/{}", self.repository),
            None => format!("{host}/{}", self.repository),
        }
    }

    /// The image by digest, as a file-based catalog's `olm.bundle` `image` pins it:
    /// `HOST[:PORT]/REPOSITORY@sha256:…`.
    pub fn pinned(&self, digest: &str) -> String {
        format!("{}@{digest}", self.describe())
    }
}

/// The target as it may be shown: a `user:password@` before the host becomes `****@`.
fn without_userinfo(text: &str) -> String {
    let start = text.find("://").map(|i| i + 3).unwrap_or(0);
    let host_end = text[start..]
        .find('/')
        .map(|i| start + i)
        .unwrap_or(text.len());
    match text[start..host_end].rfind('@') {
        Some(at) => format!("{}****{}", &text[..start], &text[start + at..]),
        None => text.to_string(),
    }
}

/// A repository name as the distribution spec allows it: lowercase path components of
/// letters and digits joined by `.`, `_`, `__` or dashes, separated by `/`.
fn check_repository(repo: &str) -> Result<(), String> {
    if repo.contains(':') || repo.contains('@') {
        return Err(format!(
            "'{repo}' holds a tag or digest; give the repository only (the tag comes from the release)"
        ));
    }
    let ok = !repo.is_empty()
        && repo.len() <= 255
        && repo.split('/').all(|c| {
            let b = c.as_bytes();
            !b.is_empty()
                && b[0].is_ascii_alphanumeric()
                && b[b.len() - 1].is_ascii_alphanumeric()
                && b.iter()
                    .all(|&x| x.is_ascii_lowercase() || x.is_ascii_digit() || b"._-".contains(&x))
        });
    if ok {
        Ok(())
    } else {
        Err(format!(
            "'{repo}' is not a repository name (lowercase letters, digits, '.', '_', '-', components separated by '/')"
        ))
    }
}

/// Checks a tag against the distribution spec's grammar `[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}`.
/// A SemVer version with build metadata (`1.0.0+abc`) is not a valid tag.
pub fn check_tag(tag: &str) -> Result<(), OciError> {
    let b = tag.as_bytes();
    let ok = !b.is_empty()
        && b.len() <= 128
        && (b[0].is_ascii_alphanumeric() || b[0] == b'_')
        && b.iter()
            .all(|&x| x.is_ascii_alphanumeric() || b"._-".contains(&x));
    if ok {
        Ok(())
    } else {
        Err(OciError::ImageLocation {
            target: tag.to_string(),
            why: "not a valid image tag (letters, digits, '_', '.', '-', at most 128, not starting with '.' or '-'; '+' is not allowed)".into(),
        })
    }
}

/// The tag for a release version: the version itself, with SemVer build metadata's `+` (not
/// allowed in tags) written as `_`, the convention Helm uses for charts in OCI registries.
pub fn tag_for_version(version: &str) -> String {
    version.replace('+', "_")
}

/// Something the client did that a user may want to see.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// A request failed in a way worth retrying; the next attempt follows after `wait`.
    Retry {
        /// The request: its method and URL path.
        at: String,
        /// The number of the attempt that follows (the first retry is attempt 2).
        attempt: u32,
        /// The most attempts the retry policy allows.
        of: u32,
        /// How long the client waits before the next attempt.
        wait: Duration,
        /// The failed attempt's error, as its message reads.
        why: String,
    },
    /// A token was fetched from the registry's token service for `scope`.
    Token {
        /// The token service (the challenge's `service`; empty when it named none).
        service: String,
        /// The access the token grants (`repository:NAME:pull,push`).
        scope: String,
    },
    /// The blob is already there; not uploaded.
    BlobPresent {
        /// The blob's digest (`sha256:…`).
        digest: String,
    },
    /// The blob was uploaded.
    BlobUploaded {
        /// The blob's digest (`sha256:…`).
        digest: String,
        /// Its size in bytes.
        size: u64,
    },
    /// The manifest was stored under the tag.
    ManifestPushed {
        /// The tag.
        tag: String,
        /// The manifest's digest (`sha256:…`).
        digest: String,
    },
    /// The manifest was read back by digest and matched.
    ReadBack {
        /// The manifest's digest (`sha256:…`).
        digest: String,
    },
    /// A warning the user must see: [`olm_release_http::plain_http_warning`]'s, once per host
    /// reached over plain `http://` off loopback (the registry, or its token realm).
    Warning(String),
}

/// Receives [`Event`]s.
pub trait Events: Sync {
    /// Handles one event, as it happens.
    fn event(&self, event: Event);
}

impl<F: Fn(Event) + Sync> Events for F {
    fn event(&self, event: Event) {
        self(event)
    }
}

/// Discards events.
pub struct NoEvents;

impl Events for NoEvents {
    fn event(&self, _: Event) {}
}
