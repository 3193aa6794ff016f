//! Where things are: the registry location, the release target and their URLs, checked once.
//!
//! `https://` anywhere; `http://` only on loopback unless `--insecure`; a URL holding
//! credentials is refused (they belong in the environment, where they are typed secrets).

use std::path::{Path, PathBuf};

use olm_release_appregistry::Location;

/// Where release artifacts go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Target {
    /// A local folder; assets land in `<path>/<tag>/`.
    Dir(PathBuf),
    /// A GitHub repository through the REST API at `api`.
    GitHub {
        api: String,
        owner: String,
        repo: String,
    },
}

/// A relative path resolved against the source folder.
pub(crate) fn resolve_path(source: &Path, p: &Path) -> PathBuf {
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        source.join(p)
    }
}

/// `dir:PATH` (resolved against `source`) or a checked `http(s)://` URL.
pub(crate) fn location(url: &str, source: &Path, insecure: bool) -> Result<Location, String> {
    match Location::parse(url)? {
        Location::Dir(p) => Ok(Location::Dir(resolve_path(source, &p))),
        Location::Http(u) => {
            check_url(&u, insecure)?;
            Ok(Location::Http(u))
        }
    }
}

/// `dir:PATH` or `github:OWNER/REPO` (with the API base `api_url`, default api.github.com).
pub(crate) fn target(
    target: &str,
    api_url: Option<&str>,
    source: &Path,
    insecure: bool,
) -> Result<Target, String> {
    if let Some(path) = target.strip_prefix("dir:") {
        if path.is_empty() {
            return Err("dir: needs a path".into());
        }
        return Ok(Target::Dir(resolve_path(source, Path::new(path))));
    }
    if let Some(repo) = target.strip_prefix("github:") {
        let (owner, name) = repo
            .split_once('/')
            .filter(|(o, r)| !o.is_empty() && !r.is_empty() && !r.contains('/'))
            .ok_or_else(|| format!("'{target}': expected github:OWNER/REPO"))?;
        let api = api_url
            .unwrap_or("https://api.github.com")
            .trim_end_matches('/')
            .to_string();
        check_url(&api, insecure).map_err(|e| format!("api_url: {e}"))?;
        return Ok(Target::GitHub {
            api,
            owner: owner.into(),
            repo: name.into(),
        });
    }
    Err(format!(
        "'{target}' is neither dir:PATH nor github:OWNER/REPO"
    ))
}

/// `https://` anywhere; `http://` only on loopback, unless `insecure`. The host is the one an
/// HTTP client would connect to (parsed as a URL, so `http://localhost:80@evil.example` is
/// `evil.example`), and a URL holding credentials is refused outright.
pub(crate) fn check_url(url: &str, insecure: bool) -> Result<(), String> {
    let parsed =
        reqwest::Url::parse(url).map_err(|e| format!("'{url}' is not an http(s) URL ({e})"))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(format!("'{url}' is not an http(s) URL"));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(format!(
            "the URL of {} holds credentials (user:password@); remove them and use the environment (QUAY_TOKEN, GITHUB_TOKEN, …)",
            parsed.host_str().unwrap_or("the URL")
        ));
    }
    if parsed.scheme() == "https" || is_loopback(url) || insecure {
        Ok(())
    } else {
        Err(format!(
            "'{url}' uses plain http:// on a non-loopback host; use https:// or pass --insecure"
        ))
    }
}

/// Whether the URL's host is loopback (`localhost`, 127.0.0.0/8, `::1`).
pub(crate) fn is_loopback(url: &str) -> bool {
    let Ok(parsed) = reqwest::Url::parse(url) else {
        return false;
    };
    let host = parsed.host_str().unwrap_or_default();
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    bare.eq_ignore_ascii_case("localhost")
        || bare
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}
