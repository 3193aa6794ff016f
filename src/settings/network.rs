//! How the program meets the network, as settings: the TLS and proxy variables read as curl
//! and OpenSSL read them (one policy for every client, applied by [`olm_release_http`]), and the
//! registry's timeouts and retries from `registry.timeout_seconds`, `registry.retries` and
//! `registry.retry_max_seconds`.

use std::path::PathBuf;
use std::time::Duration;

use super::inputs::Env;
use crate::pipeline::RegistrySpec;
use olm_release_http::HttpOptions;
use olm_release_http::retry::RetryPolicy;

/// The network variables (`SSL_CERT_FILE`, `SSL_CERT_DIR`, the proxies), read as curl and
/// OpenSSL read them: lower-case proxy names first, empty values as unset.
pub(crate) fn network(env: &Env) -> olm_release_http::NetworkSettings {
    let get = |names: &[&str]| {
        names
            .iter()
            .find_map(|n| env.get(*n).filter(|v| !v.trim().is_empty()).cloned())
    };
    olm_release_http::NetworkSettings {
        cert_file: get(&["SSL_CERT_FILE"]).map(PathBuf::from),
        cert_dirs: get(&["SSL_CERT_DIR"])
            .map(|d| {
                d.split(':')
                    .filter(|p| !p.is_empty())
                    .map(PathBuf::from)
                    .collect()
            })
            .unwrap_or_default(),
        https_proxy: get(&["https_proxy", "HTTPS_PROXY"]),
        http_proxy: get(&["http_proxy", "HTTP_PROXY"]),
        all_proxy: get(&["all_proxy", "ALL_PROXY"]),
        no_proxy: get(&["no_proxy", "NO_PROXY"]),
    }
}

/// Timeouts of registry requests: `registry.timeout_seconds` or the defaults.
pub(super) fn registry_http(spec: &RegistrySpec) -> HttpOptions {
    let mut http = HttpOptions::default();
    if let Some(t) = spec.timeout_seconds {
        http.timeout = Duration::from_secs(t.max(1));
        http.connect_timeout = http.connect_timeout.min(http.timeout);
    }
    http
}

/// Retries of registry requests: `registry.retries` / `retry_max_seconds` or the defaults.
pub(super) fn registry_retry(spec: &RegistrySpec) -> RetryPolicy {
    let mut retry = RetryPolicy::default();
    if let Some(n) = spec.retries {
        retry.max_attempts = n.saturating_add(1);
    }
    if let Some(t) = spec.retry_max_seconds {
        retry.max_total = Duration::from_secs(t);
    }
    retry
}
