//! The CNR/"appr" HTTP client, as Quay and appr 0.7.4 serve the API (the app-registry
//! protocol of github.com/app-registry/appr, `appr/api/`).
//!
//! [`ApprClient`] takes a base URL (`https://quay.io/cnr`, or a loopback server in tests) and
//! offers the calls the pipeline and maintainers need: login, list a namespace, a package's
//! releases, show a release, pull a blob (by digest or by release), push, delete, and the
//! app-registry channel endpoints. One package is always looked up by name
//! (`GET /api/v1/packages/{ns}/{pkg}`), never found by scanning the namespace list, which Quay
//! caps at 50 items and filters by visibility.
//!
//! Credentials ([`Credentials`], read by the application from `QUAY_TOKEN` or
//! `QUAY_USERNAME`/`QUAY_PASSWORD`) are [`Secret`]s. A username and password are exchanged once,
//! on first use, through `POST /api/v1/users/login`; a server without that route (appr 0.7.4
//! answers 404) gets the same HTTP Basic value the login would have returned. Every message
//! that leaves the client is scrubbed of the secrets it holds.
//!
//! Requests, retries and body limits live in `transport`; error shapes in `errors`; JSON
//! shapes in [`wire`].

mod auth;
mod channels;
pub mod errors;
pub mod transport;
pub mod wire;

pub use auth::Credentials;

use reqwest::Method;
use tokio::sync::OnceCell;

use self::transport::{MAX_JSON, Request, Transport, json};
use self::wire::{ListItem, Manifest};
use super::{PushOutcome, ReleaseInfo};
use super::{RegistryError, Result};
use olm_release_base::secret::Secret;
use olm_release_http::HttpOptions;
use olm_release_http::retry::RetryPolicy;

/// The media type olm-release pushes and reads (what courier and OLM use).
pub(crate) const MEDIA_TYPE: &str = "helm";

#[derive(Debug)]
/// A client of one app registry's CNR API.
pub struct ApprClient {
    base: String,
    transport: Transport,
    credentials: Option<Credentials>,
    /// The `Authorization` value, settled on first use.
    auth: OnceCell<Option<Secret>>,
}

impl ApprClient {
    /// A client with default timeouts and retries. Fails on a base URL that is not http(s).
    pub fn new(base: impl Into<String>, credentials: Option<Credentials>) -> Result<Self> {
        Self::with_options(
            base,
            credentials,
            HttpOptions::default(),
            RetryPolicy::default(),
        )
    }

    pub(crate) fn with_options(
        base: impl Into<String>,
        credentials: Option<Credentials>,
        http: HttpOptions,
        retry: RetryPolicy,
    ) -> Result<Self> {
        let base = base.into().trim_end_matches('/').to_string();
        let transport = Transport::new(&base, http, retry).map_err(RegistryError::Url)?;
        Ok(ApprClient {
            base,
            transport,
            credentials,
            auth: OnceCell::new(),
        })
    }

    pub(crate) fn describe(&self) -> String {
        self.base.clone()
    }

    /// Whether credentials were given.
    pub(crate) fn credentials(&self) -> Option<&Credentials> {
        self.credentials.as_ref()
    }

    /// Reports retries and transfers to `events` from now on.
    pub(crate) fn with_events(
        mut self,
        events: std::sync::Arc<dyn olm_release_http::events::Events>,
    ) -> Self {
        self.transport.events = events;
        self
    }

    /// The URL of the push request (never holds credentials).
    pub(crate) fn push_url(&self, ns: &str, pkg: &str, force: bool) -> String {
        let query: &[(&str, &str)] = if force { &[("force", "true")] } else { &[] };
        self.transport
            .url(&["api", "v1", "packages", ns, pkg], query)
            .to_string()
    }

    /// An answer whose values are not what the API promises.
    fn answer(&self, ns: &str, pkg: &str, message: String) -> RegistryError {
        RegistryError::Answer {
            base: self.base.clone(),
            namespace: ns.into(),
            package: pkg.into(),
            message,
        }
    }

    fn at(&self, req: &Request<'_>) -> String {
        transport::at(&req.method, &self.transport.url(&req.segments, &req.query))
    }

    /// A GET with a JSON answer; `Ok(None)` for a 404 whose code is one of `absent` (a 404
    /// without the API's JSON, e.g. a wrong base URL, is an error).
    async fn get_json<T: serde::de::DeserializeOwned>(
        &self,
        segments: Vec<&str>,
        query: Vec<(&str, &str)>,
        absent: &[&str],
    ) -> Result<Option<T>> {
        let absent = |code: &str| absent.contains(&code);
        self.send_json(Method::GET, segments, query, &absent).await
    }

    /// Sends an authenticated request without a body and parses its JSON answer; `Ok(None)`
    /// for a 404 whose API error code `absent` accepts.
    async fn send_json<T: serde::de::DeserializeOwned>(
        &self,
        method: Method,
        segments: Vec<&str>,
        query: Vec<(&str, &str)>,
        absent: &dyn Fn(&str) -> bool,
    ) -> Result<Option<T>> {
        let auth = self.authorization().await?;
        let req = Request {
            method,
            segments,
            query,
            body: None,
            auth,
            cap: MAX_JSON,
        };
        match self.transport.send(&req).await {
            Ok(answer) => json(&self.at(&req), &answer.body)
                .map(Some)
                .map_err(|f| self.error(f)),
            Err(f) if f.status() == Some(404) && f.code().is_some_and(absent) => Ok(None),
            Err(f) => Err(self.error(f)),
        }
    }

    /// `GET /api/v1/packages?namespace=NS`: the namespace's packages as the server lists them.
    /// Quay returns at most 50 and only those visible to the caller.
    pub(crate) async fn list(&self, ns: &str) -> Result<Vec<ListItem>> {
        check_name("namespace", ns)?;
        let items: Vec<ListItem> = self
            .get_json(vec!["api", "v1", "packages"], vec![("namespace", ns)], &[])
            .await?
            .unwrap_or_default();
        let prefix = format!("{ns}/");
        Ok(items
            .into_iter()
            .filter(|i| i.name.starts_with(&prefix))
            .collect())
    }

    /// Every helm manifest of `ns/pkg`, highest SemVer first; empty when the package does not
    /// exist.
    pub(crate) async fn manifests(&self, ns: &str, pkg: &str) -> Result<Vec<Manifest>> {
        check_name("namespace", ns)?;
        check_name("package", pkg)?;
        let all: Vec<Manifest> = self
            .get_json(
                vec!["api", "v1", "packages", ns, pkg],
                vec![("media_type", MEDIA_TYPE)],
                &["package-not-found"],
            )
            .await
            .map_err(|e| RegistryError::Releases {
                namespace: ns.into(),
                package: pkg.into(),
                source: Box::new(e),
            })?
            .unwrap_or_default();
        let mut helm: Vec<Manifest> = Vec::new();
        for m in all.into_iter().filter(Manifest::is_helm) {
            m.check().map_err(|e| self.answer(ns, pkg, e))?;
            if !helm.iter().any(|h| h.release == m.release) {
                helm.push(m);
            }
        }
        helm.sort_by_key(|m| std::cmp::Reverse(semver_of(&m.release)));
        Ok(helm)
    }

    /// Every release of `ns/pkg`, highest SemVer first; empty when the package does not exist.
    pub async fn releases(&self, ns: &str, pkg: &str) -> Result<Vec<ReleaseInfo>> {
        Ok(self
            .manifests(ns, pkg)
            .await?
            .into_iter()
            .map(|m| ReleaseInfo {
                release: m.release,
                digest: m.content.digest,
                size: m.content.size,
            })
            .collect())
    }

    /// `GET …/{release}/helm`: one release (`release` may be `default`); `None` when absent.
    pub async fn show(&self, ns: &str, pkg: &str, release: &str) -> Result<Option<Manifest>> {
        check_names(ns, pkg, release)?;
        let m: Option<Manifest> = self
            .get_json(
                vec!["api", "v1", "packages", ns, pkg, release, MEDIA_TYPE],
                vec![],
                &["package-not-found", "package-release-not-found"],
            )
            .await?;
        if let Some(m) = &m {
            m.check().map_err(|e| self.answer(ns, pkg, e))?;
        }
        Ok(m)
    }

    async fn get_blob(&self, segments: Vec<&str>, what: &str) -> Result<Vec<u8>> {
        let auth = self.authorization().await?;
        let _transfer = self
            .transport
            .events
            .transfer(&format!("downloading {what}"));
        let req = Request {
            method: Method::GET,
            segments,
            query: vec![],
            body: None,
            auth,
            cap: self.transport.opts.max_body,
        };
        let answer = self.transport.send(&req).await.map_err(|f| self.error(f))?;
        Ok(answer.body)
    }

    /// `GET …/blobs/sha256/{digest}`: the `.tar.gz` whose uncompressed tar has this digest.
    pub async fn pull_blob(&self, ns: &str, pkg: &str, digest: &str) -> Result<Vec<u8>> {
        check_name("namespace", ns)?;
        check_name("package", pkg)?;
        wire::check_digest(digest).map_err(RegistryError::Digest)?;
        self.get_blob(
            vec!["api", "v1", "packages", ns, pkg, "blobs", "sha256", digest],
            &format!("{ns}/{pkg} sha256:{digest}"),
        )
        .await
    }

    /// `GET …/{release}/helm/pull`: the `.tar.gz` of a release.
    pub async fn pull_release(&self, ns: &str, pkg: &str, release: &str) -> Result<Vec<u8>> {
        check_names(ns, pkg, release)?;
        self.get_blob(
            vec![
                "api", "v1", "packages", ns, pkg, release, MEDIA_TYPE, "pull",
            ],
            &format!("release {release} of {ns}/{pkg}"),
        )
        .await
    }

    /// `POST /api/v1/packages/{ns}/{pkg}`: publishes `gz` as `release` (media type helm).
    /// A 409 is [`PushOutcome::Exists`]; every other refusal is an error. The release is sent
    /// as given: callers check it is strict SemVer first (the server answers 422 otherwise).
    pub async fn push(
        &self,
        ns: &str,
        pkg: &str,
        release: &str,
        gz: &[u8],
        force: bool,
    ) -> Result<PushOutcome> {
        check_name("namespace", ns)?;
        check_name("package", pkg)?;
        let body = wire::push_body(gz, release, MEDIA_TYPE);
        let auth = self.authorization().await?;
        let query = if force {
            vec![("force", "true")]
        } else {
            vec![]
        };
        let req = Request {
            method: Method::POST,
            segments: vec!["api", "v1", "packages", ns, pkg],
            query,
            body: Some(body),
            auth,
            cap: MAX_JSON,
        };
        let _transfer = self
            .transport
            .events
            .transfer(&format!("pushing {} bytes to {ns}/{pkg}", gz.len()));
        match self.transport.send(&req).await {
            Ok(_) => Ok(PushOutcome::Pushed),
            Err(f) if f.status() == Some(409) => Ok(PushOutcome::Exists),
            Err(f) => Err(self.error(f)),
        }
    }

    /// An authenticated write without a body; `Ok(None)` on a 404 from the API.
    async fn write<T: serde::de::DeserializeOwned>(
        &self,
        method: Method,
        segments: Vec<&str>,
    ) -> Result<Option<T>> {
        self.send_json(method, segments, vec![], &|_| true).await
    }
}

fn semver_of(release: &str) -> Option<semver::Version> {
    semver::Version::parse(release).ok()
}

fn check_names(ns: &str, pkg: &str, third: &str) -> Result<()> {
    check_name("namespace", ns)?;
    check_name("package", pkg)?;
    check_name("release or channel", third)
}

/// Names that go into URL paths: letters, digits, `-`, `_`, `.`, `+` (SemVer build
/// metadata), not starting with `.`.
fn check_name(what: &'static str, v: &str) -> Result<()> {
    let ok = !v.is_empty()
        && !v.starts_with('.')
        && v.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '+'));
    if ok {
        Ok(())
    } else {
        Err(RegistryError::Name {
            what,
            value: v.into(),
            allowed: "letters, digits, '-', '_', '.', '+'",
        })
    }
}
