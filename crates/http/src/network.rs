//! The network policy every HTTP client follows: which certificate authorities are trusted,
//! which proxy a request goes through, and how long a request may take or stall.
//!
//! The policy is process-wide, like the environment it comes from: the application reads the
//! variables once ([`NetworkSettings`]), `app` loads it ([`Network::load`], which reads the
//! certificate files and checks the proxy URLs) and installs it with [`configure`] before any
//! client is built. Every client — the app registry's, the OCI registry's, GitHub's JSON calls
//! (octocrab, through [`super::octocrab_service`]) and GitHub's uploads — is built by
//! [`super::client`] on it, so they cannot disagree.
//!
//! Trust: the Mozilla roots compiled in (webpki-roots), the system store (rustls-native-certs),
//! and every certificate in `SSL_CERT_FILE` and the files of `SSL_CERT_DIR` (the OpenSSL
//! conventions, colon-separated directories). Proxies: `HTTPS_PROXY` for `https://`,
//! `HTTP_PROXY` for `http://`, `ALL_PROXY` for both when the specific one is unset, lower-case
//! forms preferred as curl does; `NO_PROXY` (hosts, domains, IP ranges, `*`) bypasses them.

use std::path::PathBuf;
use std::sync::OnceLock;

/// The network variables, as read from the environment (by the application).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NetworkSettings {
    /// `SSL_CERT_FILE`: a PEM file of extra trusted certificates.
    pub cert_file: Option<PathBuf>,
    /// `SSL_CERT_DIR`: directories of PEM files of extra trusted certificates.
    pub cert_dirs: Vec<PathBuf>,
    /// `HTTPS_PROXY` (or `https_proxy`).
    pub https_proxy: Option<String>,
    /// `HTTP_PROXY` (or `http_proxy`).
    pub http_proxy: Option<String>,
    /// `ALL_PROXY` (or `all_proxy`).
    pub all_proxy: Option<String>,
    /// `NO_PROXY` (or `no_proxy`): hosts reached directly.
    pub no_proxy: Option<String>,
}

/// The policy in force, loaded: certificates parsed, proxies built.
#[derive(Debug, Clone, Default)]
pub struct Network {
    roots: Vec<reqwest::Certificate>,
    proxies: Vec<reqwest::Proxy>,
}

/// Why the network variables cannot be used (an input error: exit 2).
#[derive(Debug, thiserror::Error)]
pub enum NetworkError {
    /// A certificate file cannot be read.
    #[error("{var}={}: cannot read it ({source}); point it at a readable PEM file of CA certificates, or unset it", path.display())]
    Read {
        /// The variable that names it (`SSL_CERT_FILE`).
        var: &'static str,
        /// The file.
        path: PathBuf,
        #[source]
        /// Why.
        source: std::io::Error,
    },
    /// A certificate file holds no certificate.
    #[error("{var}={}: no PEM certificate in it (expected '-----BEGIN CERTIFICATE-----' blocks); point it at the CA that issued the server's certificate", path.display())]
    NoCertificate {
        /// The variable that names it.
        var: &'static str,
        /// The file.
        path: PathBuf,
    },
    /// A proxy variable is not a URL.
    #[error("{var}: '{url}' is not a proxy URL ({detail}); use http://HOST:PORT")]
    Proxy {
        /// The variable (`HTTPS_PROXY`, …).
        var: &'static str,
        /// Its value.
        url: String,
        /// Why it is not a proxy URL.
        detail: String,
    },
}

impl olm_release_base::Classified for NetworkError {
    /// The environment's network variables must change: an input error.
    fn class(&self) -> olm_release_base::Class {
        olm_release_base::Class::Input
    }
}

static POLICY: OnceLock<Network> = OnceLock::new();

/// Installs the process's policy; the first call wins (later ones are ignored: the clients
/// already built follow the first).
pub fn configure(network: Network) {
    let _ = POLICY.set(network);
}

/// The policy in force: the installed one, or the default (built-in roots, no proxy) for
/// in-process callers that never configured one.
pub(crate) fn current() -> &'static Network {
    POLICY.get_or_init(Network::default)
}

impl Network {
    /// Reads the certificate files and checks the proxy URLs.
    pub fn load(s: &NetworkSettings) -> Result<Network, NetworkError> {
        let mut roots = Vec::new();
        if let Some(path) = &s.cert_file {
            roots.extend(certificates("SSL_CERT_FILE", path, true)?);
        }
        for dir in &s.cert_dirs {
            let entries = std::fs::read_dir(dir).map_err(|source| NetworkError::Read {
                var: "SSL_CERT_DIR",
                path: dir.clone(),
                source,
            })?;
            let mut files: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file())
                .collect();
            files.sort();
            for f in files {
                // A directory may hold other files (hash links to the same PEMs, READMEs).
                roots.extend(certificates("SSL_CERT_DIR", &f, false)?);
            }
        }
        let no_proxy = s
            .no_proxy
            .as_deref()
            .and_then(reqwest::NoProxy::from_string);
        let mut proxies = Vec::new();
        let all = s.all_proxy.as_deref();
        for (var, url, https) in [
            ("HTTPS_PROXY", s.https_proxy.as_deref().or(all), true),
            ("HTTP_PROXY", s.http_proxy.as_deref().or(all), false),
        ] {
            let Some(url) = url.filter(|u| !u.trim().is_empty()) else {
                continue;
            };
            let proxy = reqwest::Url::parse(url)
                .map_err(|e| e.to_string())
                .and_then(|u| {
                    let made = if https {
                        reqwest::Proxy::https(u.as_str())
                    } else {
                        reqwest::Proxy::http(u.as_str())
                    };
                    made.map_err(|e| e.to_string())
                })
                .map_err(|detail| NetworkError::Proxy {
                    var,
                    url: url.to_string(),
                    detail,
                })?;
            proxies.push(proxy.no_proxy(no_proxy.clone()));
        }
        Ok(Network { roots, proxies })
    }

    /// Applies the policy to a client under construction.
    pub(super) fn apply(&self, mut b: reqwest::ClientBuilder) -> reqwest::ClientBuilder {
        // Our proxies only: reqwest would otherwise read the environment on its own.
        b = b.no_proxy();
        for p in &self.proxies {
            b = b.proxy(p.clone());
        }
        for c in &self.roots {
            b = b.add_root_certificate(c.clone());
        }
        b
    }
}

/// The PEM certificates in `path`; `required` makes a file without one an error.
fn certificates(
    var: &'static str,
    path: &std::path::Path,
    required: bool,
) -> Result<Vec<reqwest::Certificate>, NetworkError> {
    let pem = olm_release_base::input::read(path, olm_release_base::input::MAX_FILE_BYTES)
        .map_err(|source| NetworkError::Read {
            var,
            path: path.to_path_buf(),
            source,
        })?;
    let found = if pem.windows(27).any(|w| w == b"-----BEGIN CERTIFICATE-----") {
        reqwest::Certificate::from_pem_bundle(&pem).unwrap_or_default()
    } else {
        Vec::new()
    };
    if found.is_empty() && required {
        return Err(NetworkError::NoCertificate {
            var,
            path: path.to_path_buf(),
        });
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proxies_are_checked_and_missing_files_named() {
        let bad = NetworkSettings {
            https_proxy: Some("not a url".into()),
            ..Default::default()
        };
        let e = Network::load(&bad).unwrap_err().to_string();
        assert!(
            e.starts_with("HTTPS_PROXY: 'not a url' is not a proxy URL"),
            "{e}"
        );
        let ok = NetworkSettings {
            all_proxy: Some("http://127.0.0.1:3128".into()),
            no_proxy: Some("localhost,.internal".into()),
            ..Default::default()
        };
        assert_eq!(Network::load(&ok).unwrap().proxies.len(), 2);
        let missing = NetworkSettings {
            cert_file: Some("/nonexistent/ca.pem".into()),
            ..Default::default()
        };
        let e = Network::load(&missing).unwrap_err().to_string();
        assert!(
            e.starts_with("SSL_CERT_FILE=/nonexistent/ca.pem: cannot read it"),
            "{e}"
        );
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("empty.pem");
        std::fs::write(&empty, "nothing").unwrap();
        let e = Network::load(&NetworkSettings {
            cert_file: Some(empty),
            ..Default::default()
        })
        .unwrap_err()
        .to_string();
        assert!(e.contains("no PEM certificate"), "{e}");
    }
}
