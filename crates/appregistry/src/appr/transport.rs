//! Sending one CNR API request: URL building, the `Authorization` header, timeouts, retries,
//! redirects and size-capped bodies.
//!
//! Every call goes through [`Transport::send`]. It retries (with [`RetryPolicy`]) connection
//! errors, timeouts, 5xx and 429 (honouring `Retry-After`), and nothing else, reporting each
//! retry through [`Events`] as it waits; a POST is retried
//! too, because the push stage resolves a push that landed before its answer was lost (the
//! retry then meets a 409 and compares digests). Redirects within the registry's origin are
//! followed for reads; anything else is an error, so the `Authorization` header (marked
//! sensitive, so it never appears in debug output) never reaches another host.

use std::sync::Arc;

use reqwest::header::{AUTHORIZATION, CONTENT_TYPE, HeaderValue, LOCATION};
use reqwest::{Method, Url};

use super::errors::{ApiError, Failure};
use olm_release_base::secret::Secret;
use olm_release_http::answer::{describe_non_json, retry_after};
use olm_release_http::events::{Events, RetryNote, Silent};
use olm_release_http::retry::{RetryPolicy, Verdict};
use olm_release_http::{self as http, BodyError, HttpOptions};

/// Largest JSON answer read (the blob cap is [`HttpOptions::max_body`]).
pub(crate) const MAX_JSON: u64 = 16 * 1024 * 1024;
/// Same-origin redirects followed for one read.
const MAX_REDIRECTS: usize = 5;

pub(crate) struct Transport {
    http: reqwest::Client,
    base: Url,
    pub(crate) opts: HttpOptions,
    pub(crate) retry: RetryPolicy,
    /// Where retries and transfers are reported, as they happen.
    pub(crate) events: Arc<dyn Events>,
}

impl std::fmt::Debug for Transport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Transport")
            .field("base", &self.base.as_str())
            .finish_non_exhaustive()
    }
}

/// One request, relative to the base URL.
pub(crate) struct Request<'a> {
    pub(crate) method: Method,
    /// Path segments after the base, e.g. `["api", "v1", "packages", ns, pkg]`.
    pub(crate) segments: Vec<&'a str>,
    pub(crate) query: Vec<(&'a str, &'a str)>,
    /// A JSON body.
    pub(crate) body: Option<bytes::Bytes>,
    pub(crate) auth: Option<&'a Secret>,
    /// Largest body accepted.
    pub(crate) cap: u64,
}

/// A successful (2xx) answer.
pub(crate) struct Answer {
    pub(crate) body: Vec<u8>,
}

impl Transport {
    pub(crate) fn new(base: &str, opts: HttpOptions, retry: RetryPolicy) -> Result<Self, String> {
        let base = Url::parse(base).map_err(|e| format!("'{base}' is not a URL: {e}"))?;
        if !matches!(base.scheme(), "http" | "https") || base.host_str().is_none() {
            return Err(format!("'{base}' is not an http(s) URL with a host"));
        }
        if !base.username().is_empty() || base.password().is_some() {
            return Err(
                "the registry URL must not hold credentials; use QUAY_TOKEN or QUAY_USERNAME/QUAY_PASSWORD"
                    .into(),
            );
        }
        Ok(Transport {
            http: http::client(opts),
            base,
            opts,
            retry,
            events: Arc::new(Silent),
        })
    }

    /// The URL of a request (for messages and dry-run output; never holds credentials).
    pub(crate) fn url(&self, segments: &[&str], query: &[(&str, &str)]) -> Url {
        let mut url = self.base.clone();
        if let Ok(mut path) = url.path_segments_mut() {
            path.pop_if_empty().extend(segments);
        }
        if !query.is_empty() {
            url.query_pairs_mut().extend_pairs(query);
        }
        url
    }

    /// Sends the request, retrying what may be retried; returns only 2xx answers.
    pub(crate) async fn send(&self, req: &Request<'_>) -> Result<Answer, Failure> {
        let url = self.url(&req.segments, &req.query);
        let at = at(&req.method, &url);
        let max = self.retry.max_attempts;
        let attempts = std::cell::Cell::new(1);
        let budget = self.retry.max_total;
        // The attempts count against the budget too: a registry that hangs holds the run no
        // longer than `retry_max_seconds`, however long one request may take.
        let result = self
            .retry
            .run_bounded(
                || self.attempt(req, url.clone()),
                |f: &Failure| match f {
                    Failure::Transport { .. } => Verdict::Retry(None),
                    Failure::Status(e) if e.status == 429 => Verdict::Retry(e.retry_after),
                    Failure::Status(e) if e.status == 408 => Verdict::Retry(None),
                    Failure::Status(e) if e.status >= 500 => Verdict::Retry(None),
                    _ => Verdict::Fail,
                },
                |n, wait, f| {
                    attempts.set(n + 1);
                    let why = match f {
                        Failure::Status(e) => format!("HTTP {}", e.status),
                        Failure::Transport { timeout: true, .. } => "a timeout".into(),
                        Failure::Transport { detail, .. } => detail.clone(),
                        Failure::Invalid { detail, .. } => detail.clone(),
                    };
                    self.events.retrying(&RetryNote {
                        call: at.clone(),
                        why,
                        next_attempt: n + 1,
                        max_attempts: max,
                        wait,
                    });
                },
                |last| Failure::Transport {
                    at: at.clone(),
                    detail: format!(
                        "no answer within the retry budget of {}s{}",
                        budget.as_secs(),
                        last.map(|l| format!("; the last attempt: {l}"))
                            .unwrap_or_default()
                    ),
                    timeout: true,
                },
            )
            .await;
        let n = attempts.get();
        result.map_err(|mut f| {
            if n > 1 {
                let note = format!(" (gave up after {n} attempts)");
                match &mut f {
                    Failure::Status(e) => e.at.push_str(&note),
                    Failure::Transport { at, .. } | Failure::Invalid { at, .. } => {
                        at.push_str(&note)
                    }
                }
            }
            f
        })
    }

    async fn attempt(&self, req: &Request<'_>, mut url: Url) -> Result<Answer, Failure> {
        let mut hops = 0;
        loop {
            let at = at(&req.method, &url);
            let mut builder = self.http.request(req.method.clone(), url.clone());
            if let Some(secret) = req.auth {
                let mut value =
                    HeaderValue::from_str(secret.expose()).map_err(|_| Failure::Invalid {
                        at: at.clone(),
                        detail: "the registry token holds characters not allowed in an HTTP header"
                            .into(),
                    })?;
                value.set_sensitive(true);
                builder = builder.header(AUTHORIZATION, value);
            }
            if let Some(body) = &req.body {
                builder = builder
                    .header(CONTENT_TYPE, "application/json")
                    .body(body.clone());
            }
            let resp = builder
                .send()
                .await
                .map_err(|e| transport(&at, &e, &self.opts))?;
            let status = resp.status();
            if status.is_redirection() {
                let location = resp
                    .headers()
                    .get(LOCATION)
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_string);
                let target =
                    http::redirect_target(&url, location.as_deref()).map_err(|detail| {
                        Failure::Invalid {
                            at: format!("{at} (HTTP {})", status.as_u16()),
                            detail,
                        }
                    })?;
                if req.method != Method::GET || hops >= MAX_REDIRECTS {
                    return Err(Failure::Invalid {
                        at: format!("{at} (HTTP {})", status.as_u16()),
                        detail: format!("an unexpected redirect to {}", target.path()),
                    });
                }
                hops += 1;
                url = target;
                continue;
            }
            let wait = retry_after(resp.headers());
            let cap = if status.is_success() {
                req.cap
            } else {
                MAX_JSON.min(64 * 1024)
            };
            let body = match http::read_capped(resp, cap).await {
                Ok(b) => b,
                Err(BodyError::TooLarge(cap)) => {
                    return Err(Failure::Invalid {
                        at,
                        detail: format!("the body is larger than the {cap}-byte limit"),
                    });
                }
                Err(BodyError::Transport(e)) => return Err(transport(&at, &e, &self.opts)),
            };
            if !status.is_success() {
                return Err(Failure::Status(Box::new(ApiError::parse(
                    at,
                    status.as_u16(),
                    &body,
                    wait,
                ))));
            }
            return Ok(Answer { body });
        }
    }
}

/// `METHOD /path?query` for messages.
pub(crate) fn at(method: &Method, url: &Url) -> String {
    match url.query() {
        Some(q) => format!("{method} {}?{q}", url.path()),
        None => format!("{method} {}", url.path()),
    }
}

/// A transport error, described by its innermost cause (reqwest's own text repeats the URL).
fn transport(at: &str, e: &reqwest::Error, opts: &HttpOptions) -> Failure {
    let at = at.to_string();
    match http::transport_problem(e) {
        // Not a transport failure that may heal: never retried.
        http::TransportProblem::Tls(detail) => Failure::Invalid { at, detail },
        http::TransportProblem::Timeout => Failure::Transport {
            at,
            detail: format!("timed out after {}s", opts.timeout.as_secs_f64()),
            timeout: true,
        },
        http::TransportProblem::Failed(detail) => Failure::Transport {
            at,
            detail,
            timeout: false,
        },
    }
}

/// Parses a JSON answer, refusing HTML pages, invalid JSON and missing fields.
pub(crate) fn json<T: serde::de::DeserializeOwned>(at: &str, body: &[u8]) -> Result<T, Failure> {
    serde_json::from_slice(body).map_err(|e| {
        let text = String::from_utf8_lossy(body);
        let detail = if serde_json::from_str::<serde_json::Value>(text.trim()).is_ok() {
            format!("unexpected JSON ({e})")
        } else {
            format!("{} is not JSON", describe_non_json(text.trim()))
        };
        Failure::Invalid {
            at: at.to_string(),
            detail,
        }
    })
}
