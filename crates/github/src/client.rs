//! The releases API client: octocrab for the JSON calls, a plain reqwest client for uploads.
//!
//! octocrab, on the one network policy ([`super::octo::octocrab`]), carries the token (sent only
//! to the API base's host: every route is relative to it) and the API headers; we call
//! its low-level `_get`/`_post`/`_patch`/`_delete` with routes we build and encode ourselves,
//! so we see every status and header (for `retry-after` and `x-ratelimit-reset`) and page by
//! `page=N` rather than following absolute `Link` URLs (octocrab would prefix a GitHub
//! Enterprise base path to them). Uploads bypass octocrab (module `upload`). octocrab's
//! immediate retries are not compiled in (no `retry` feature); every call here is retried by
//! our [`RetryPolicy`](olm_release_http::retry::RetryPolicy) as [`limits`] classifies it, each retry
//! reported through [`Events`], and every call has a timeout.

use octocrab::Octocrab;
use reqwest::Method;
use reqwest::header::{ACCEPT, AUTHORIZATION, HeaderMap, HeaderValue};
use serde::Deserialize;
use serde_json::Value;

use std::sync::Arc;
use std::time::Duration;

use super::config::{Config, encode, upload_root};
use super::error::GitHubError;
pub use super::error::{ApiError, ApiResult};
use super::limits;
use olm_release_base::secret::Secret;
use olm_release_http::events::{Events, RetryNote};
use olm_release_http::retry::Verdict;

pub(super) const API_VERSION: &str = "2022-11-28";
pub(super) const MEDIA_TYPE: &str = "application/vnd.github+json";
/// Largest JSON answer read: a page of 100 releases with their assets is well under it.
pub(super) const MAX_JSON: u64 = 16 * 1024 * 1024;
/// Largest error answer read.
pub(super) const MAX_ERROR: u64 = 64 * 1024;

/// A release, the fields we use.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Release {
    pub(crate) id: u64,
    pub(crate) tag_name: String,
    pub(crate) draft: bool,
    pub(crate) prerelease: bool,
    #[serde(default)]
    pub(crate) immutable: Option<bool>,
    #[serde(default)]
    pub(crate) upload_url: String,
    /// The release notes (`null` when it has none).
    #[serde(default)]
    pub(crate) body: Option<String>,
}

/// A client for one repository's releases.
pub struct Client {
    octo: Octocrab,
    pub(super) uploads: reqwest::Client,
    pub(super) token: Secret,
    /// The API base, no trailing slash (for messages and the upload root).
    pub(super) api: String,
    pub(super) upload_root: String,
    /// `/repos/{owner}/{repo}`, encoded.
    pub(super) repo_route: String,
    /// The repository's owner and name.
    pub(super) owner: String,
    pub(super) repo: String,
    pub(crate) cfg: Config,
    pub(super) events: Arc<dyn Events>,
}

impl Client {
    /// A client of the API at `api` for `owner/repo`, sending `token`. Refuses a token that is
    /// empty or that an HTTP header cannot carry, and an API base that is not a URI; warns through
    /// `events` when the base is plain `http://` off loopback.
    pub fn new(
        api: &str,
        owner: &str,
        repo: &str,
        token: &Secret,
        cfg: Config,
        events: Arc<dyn Events>,
    ) -> Result<Self, GitHubError> {
        if token.expose().is_empty() || !token.expose().bytes().all(|b| b.is_ascii_graphic()) {
            return Err(GitHubError::Token);
        }
        let api = api.trim_end_matches('/').to_string();
        if let Some(w) = reqwest::Url::parse(&api)
            .ok()
            .and_then(|u| olm_release_http::plain_http_warning(&u))
        {
            events.warn(&w);
        }
        let upload_root = upload_root(&api);
        // octocrab on the one network policy (olm_release_http, module `octo` says why): the base
        // URI, the token and the API headers are layers of octocrab's own stack.
        let base: http::Uri =
            api.parse()
                .map_err(|e: http::uri::InvalidUri| GitHubError::ApiUrl {
                    api: api.clone(),
                    message: e.to_string(),
                })?;
        let mut auth = HeaderValue::from_str(&format!("Bearer {}", token.expose()))
            .map_err(|_| GitHubError::Token)?;
        auth.set_sensitive(true);
        let headers = vec![
            (ACCEPT, HeaderValue::from_static(MEDIA_TYPE)),
            (AUTHORIZATION, auth),
            (
                http::HeaderName::from_static("x-github-api-version"),
                HeaderValue::from_static(API_VERSION),
            ),
        ];
        let octo = super::octo::octocrab(
            base,
            headers,
            olm_release_http::HttpOptions {
                connect_timeout: cfg.timeout.min(Duration::from_secs(10)),
                timeout: cfg.timeout,
                max_body: MAX_JSON,
                read_stall: true,
            },
        );
        let uploads = olm_release_http::client(olm_release_http::HttpOptions {
            connect_timeout: Duration::from_secs(10),
            timeout: cfg.upload_attempt_timeout(),
            // The upload's own stall guard watches it (module `upload`).
            read_stall: false,
            ..Default::default()
        });
        Ok(Client {
            octo,
            uploads,
            token: token.clone(),
            api,
            upload_root,
            repo_route: format!("/repos/{}/{}", encode(owner), encode(repo)),
            owner: owner.to_string(),
            repo: repo.to_string(),
            cfg,
            events,
        })
    }

    /// Runs `op` under the retry policy, reporting each retry.
    pub(super) async fn retried<T, F, Fut>(&self, op: F) -> ApiResult<T>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = ApiResult<T>>,
    {
        let max_attempts = self.cfg.retry.max_attempts;
        let budget = self.cfg.retry.max_total;
        // The attempts count against the budget too: a hanging API holds the run no longer.
        self.cfg
            .retry
            .run_bounded(
                op,
                |e: &ApiError| e.verdict,
                |n, wait, e| {
                    self.events.retrying(&RetryNote {
                        call: e.what.clone(),
                        why: e.why(),
                        next_attempt: n + 1,
                        max_attempts,
                        wait,
                    })
                },
                |last| ApiError {
                    verdict: Verdict::Fail,
                    ..Self::transport(
                        &self.api,
                        format!(
                            "no answer within the retry budget of {}s{}",
                            budget.as_secs(),
                            last.map(|l| format!("; the last attempt: {l}"))
                                .unwrap_or_default()
                        ),
                    )
                },
            )
            .await
    }

    pub(super) fn failure(
        &self,
        what: &str,
        status: u16,
        headers: &HeaderMap,
        body: &str,
    ) -> ApiError {
        #[derive(Deserialize, Default)]
        struct Body {
            message: Option<String>,
            #[serde(default)]
            errors: Vec<Value>,
        }
        // The answer may echo the request, token included: redact before anything is quoted.
        let body = &self.redact(body);
        let parsed: Body = serde_json::from_str(body).unwrap_or_default();
        let location = headers
            .get(reqwest::header::LOCATION)
            .and_then(|v| v.to_str().ok());
        let message = match (status, location) {
            // Redirects are never followed: the token must not travel with them.
            (300..=399, Some(to)) => format!(
                "a redirect to {}, not followed (the token is only sent to {})",
                self.redact(to),
                self.api
            ),
            _ => parsed.message.unwrap_or_else(|| {
                let t = body.trim();
                if t.is_empty() {
                    "(no body)".to_string()
                } else {
                    olm_release_http::answer::describe_non_json(t)
                }
            }),
        };
        let verdict = limits::verdict(
            Some(status),
            Some(headers),
            &message,
            self.cfg.secondary_wait,
        );
        ApiError {
            what: what.to_string(),
            status: Some(status),
            message,
            errors: parsed.errors,
            verdict,
        }
    }

    /// `text` without the token.
    pub(super) fn redact(&self, text: &str) -> String {
        olm_release_base::secret::redact(text, &[self.token.expose()])
    }

    /// A failed call without an answer, described by its innermost cause (the outer layers
    /// only say "client error" or "error sending request").
    pub(super) fn transport_error(what: &str, e: &(dyn std::error::Error + 'static)) -> ApiError {
        if let Some(tls) = olm_release_http::tls_problem(e) {
            // A certificate problem is the same on every attempt: no retry.
            return ApiError {
                verdict: Verdict::Fail,
                ..Self::transport(what, tls)
            };
        }
        let mut cause = e;
        while let Some(next) = cause.source() {
            cause = next;
        }
        let message = if std::ptr::addr_eq(cause, e) {
            e.to_string()
        } else {
            format!("{e}: {cause}")
        };
        Self::transport(what, message)
    }

    pub(super) fn transport(what: &str, message: String) -> ApiError {
        ApiError {
            what: what.to_string(),
            status: None,
            message,
            errors: Vec::new(),
            verdict: Verdict::Retry(None),
        }
    }

    /// One JSON call, no retry: the response headers and body on 2xx.
    pub(super) async fn send(
        &self,
        method: Method,
        route: &str,
        body: Option<&Value>,
    ) -> ApiResult<(HeaderMap, String)> {
        let what = format!("{method} {}{route}", self.api);
        let call = async {
            let response = match method {
                Method::GET => self.octo._get(route).await,
                Method::POST => self.octo._post(route, body).await,
                Method::PATCH => self.octo._patch(route, body).await,
                Method::DELETE => self.octo._delete(route, None::<&()>).await,
                _ => unreachable!("only the methods above are used"),
            }
            .map_err(|e| Self::transport_error(&what, &e))?;
            let status = response.status().as_u16();
            let headers = response.headers().clone();
            let cap = if (200..300).contains(&status) {
                MAX_JSON
            } else {
                MAX_ERROR
            };
            let text = self.read_body(&what, response.into_body(), cap).await?;
            if (200..300).contains(&status) {
                Ok((headers, text))
            } else {
                Err(self.failure(&what, status, &headers, &text))
            }
        };
        match tokio::time::timeout(self.cfg.timeout, call).await {
            Ok(r) => r,
            Err(_) => Err(Self::transport(
                &what,
                format!("no answer within {}s", self.cfg.timeout.as_secs()),
            )),
        }
    }
}
