//! Sending one distribution-API request: the `Authorization` value in force, one
//! authentication round on a 401 challenge, same-origin redirects for reads, capped bodies,
//! error answers parsed, and retries of connection errors, timeouts, 429 and 5xx (never other
//! 4xx), each retry reported as an [`Event::Retry`].

use bytes::Bytes;
use reqwest::header::{
    ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderValue, LOCATION, WWW_AUTHENTICATE,
};
use reqwest::{Method, Url};

use super::DistributionClient;
use super::auth::Challenge;
use crate::{Event, Events, OciError};
use olm_release_http::retry::Verdict;
use olm_release_http::{self as http, BodyError};

/// The largest error or token answer read.
pub(super) const MAX_SMALL: u64 = 64 * 1024;
/// Same-origin redirects followed for one read.
const MAX_REDIRECTS: usize = 5;

/// One request.
pub(super) struct Req<'a> {
    pub(crate) method: Method,
    pub(crate) url: Url,
    /// Statuses that are answers rather than errors.
    pub(crate) ok: &'a [u16],
    pub(crate) accept: Option<&'a str>,
    pub(crate) content_type: Option<&'a str>,
    pub(crate) body: Option<Bytes>,
    pub(crate) cap: u64,
}

impl<'a> Req<'a> {
    pub(crate) fn new(method: Method, url: Url, ok: &'a [u16]) -> Self {
        Req {
            method,
            url,
            ok,
            accept: None,
            content_type: None,
            body: None,
            cap: MAX_SMALL,
        }
    }
    pub(crate) fn accept(mut self, v: &'a str) -> Self {
        self.accept = Some(v);
        self
    }
    pub(crate) fn content_type(mut self, v: &'a str) -> Self {
        self.content_type = Some(v);
        self
    }
    pub(crate) fn body(mut self, b: Bytes) -> Self {
        self.body = Some(b);
        self
    }
    pub(crate) fn cap(mut self, cap: u64) -> Self {
        self.cap = cap;
        self
    }
}

/// An answer whose status the request accepts.
pub(super) struct Answer {
    pub(crate) status: u16,
    pub(crate) headers: HeaderMap,
    pub(crate) body: Bytes,
}

/// `METHOD /path` for messages (no query: upload locations carry session state).
pub(super) fn at(method: &Method, url: &Url) -> String {
    format!("{method} {}", url.path())
}

impl DistributionClient {
    /// Sends `req`, retrying what may be retried.
    pub(super) async fn send(&self, req: Req<'_>, events: &dyn Events) -> Result<Answer, OciError> {
        let at = at(&req.method, &req.url);
        self.retrying(&at, events, || self.send_once(&req, events))
            .await
    }

    /// Runs `op` under the retry policy, reporting each retry.
    pub(super) async fn retrying<T, F, Fut>(
        &self,
        at: &str,
        events: &dyn Events,
        op: F,
    ) -> Result<T, OciError>
    where
        F: FnMut() -> Fut,
        Fut: std::future::Future<Output = Result<T, OciError>>,
    {
        let of = self.retry.max_attempts;
        let budget = self.retry.max_total;
        // The attempts count against the budget too: a registry that hangs holds the run no
        // longer than the budget, however long one request may take.
        self.retry
            .run_bounded(
                op,
                |e: &OciError| match e {
                    OciError::Transport { .. } => Verdict::Retry(None),
                    OciError::Status {
                        status,
                        retry_after,
                        ..
                    } if *status == 408 || *status == 429 || *status >= 500 => {
                        Verdict::Retry(*retry_after)
                    }
                    _ => Verdict::Fail,
                },
                |n, wait, e| {
                    events.event(Event::Retry {
                        at: at.to_string(),
                        attempt: n + 1,
                        of,
                        wait,
                        why: e.to_string(),
                    })
                },
                |last| OciError::Transport {
                    at: at.to_string(),
                    detail: format!(
                        "no answer within the retry budget of {}s{}",
                        budget.as_secs(),
                        last.map(|l| format!("; the last attempt: {l}"))
                            .unwrap_or_default()
                    ),
                },
            )
            .await
    }

    /// One attempt: the exchange, and on a 401 challenge one authentication round and the
    /// exchange again.
    pub(super) async fn send_once(
        &self,
        req: &Req<'_>,
        events: &dyn Events,
    ) -> Result<Answer, OciError> {
        let first = self.exchange(req).await?;
        if first.status != 401 {
            return self.accept_answer(req, first);
        }
        let Some(challenge) = Challenge::from_headers(first.headers.get_all(WWW_AUTHENTICATE))
        else {
            return self.accept_answer(req, first);
        };
        self.authenticate(&challenge, events).await?;
        let second = self.exchange(req).await?;
        self.accept_answer(req, second)
    }

    fn accept_answer(&self, req: &Req<'_>, a: Answer) -> Result<Answer, OciError> {
        if req.ok.contains(&a.status) {
            return Ok(a);
        }
        Err(OciError::Status {
            at: at(&req.method, &req.url),
            status: a.status,
            message: error_message(&a.body).map(|m| self.scrub(&m)),
            retry_after: a
                .headers
                .get("retry-after")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| {
                    olm_release_http::retry::retry_after(v, std::time::SystemTime::now())
                }),
        })
    }

    /// One HTTP exchange with the current `Authorization`, following same-origin redirects of
    /// reads; any status comes back as an answer.
    async fn exchange(&self, req: &Req<'_>) -> Result<Answer, OciError> {
        let mut url = req.url.clone();
        let mut hops = 0;
        loop {
            let here = at(&req.method, &url);
            let mut b = self.http.request(req.method.clone(), url.clone());
            if let Some(v) = self.current_authorization()? {
                b = b.header(AUTHORIZATION, v);
            }
            if let Some(a) = req.accept {
                b = b.header(ACCEPT, a);
            }
            if let Some(c) = req.content_type {
                b = b.header(CONTENT_TYPE, c);
            }
            if let Some(body) = &req.body {
                b = b.body(body.clone());
            }
            let resp = b
                .send()
                .await
                .map_err(|e| transport(&here, &e, &self.opts))?;
            let status = resp.status().as_u16();
            if resp.status().is_redirection() && status != 304 {
                let location = resp.headers().get(LOCATION).and_then(|v| v.to_str().ok());
                let target =
                    http::redirect_target(&url, location).map_err(|detail| OciError::Invalid {
                        at: format!("{here} (HTTP {status})"),
                        detail,
                    })?;
                if !(req.method == Method::GET || req.method == Method::HEAD)
                    || hops >= MAX_REDIRECTS
                {
                    return Err(OciError::Invalid {
                        at: format!("{here} (HTTP {status})"),
                        detail: format!("an unexpected redirect to {}", target.path()),
                    });
                }
                hops += 1;
                url = target;
                continue;
            }
            let headers = resp.headers().clone();
            let cap = if resp.status().is_success() {
                req.cap
            } else {
                MAX_SMALL
            };
            let body = match http::read_capped(resp, cap).await {
                Ok(b) => Bytes::from(b),
                Err(BodyError::TooLarge(cap)) => {
                    return Err(OciError::Invalid {
                        at: here,
                        detail: format!("the body is larger than the {cap}-byte limit"),
                    });
                }
                Err(BodyError::Transport(e)) => return Err(transport(&here, &e, &self.opts)),
            };
            return Ok(Answer {
                status,
                headers,
                body,
            });
        }
    }

    /// The header value in force, marked sensitive so no debug output shows it.
    fn current_authorization(&self) -> Result<Option<HeaderValue>, OciError> {
        let guard = self.authorization.lock().unwrap_or_else(|e| e.into_inner());
        let Some(secret) = guard.as_ref() else {
            return Ok(None);
        };
        let mut v = HeaderValue::from_str(secret.expose()).map_err(|_| OciError::Credentials {
            what: "the registry credentials hold characters not allowed in an HTTP header".into(),
        })?;
        v.set_sensitive(true);
        Ok(Some(v))
    }
}

/// The registry's error answer (`{"errors":[{"code","message"}]}`) as one short line.
fn error_message(body: &[u8]) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Errors {
        errors: Vec<One>,
    }
    #[derive(serde::Deserialize)]
    struct One {
        code: Option<String>,
        message: Option<String>,
    }
    let text = match serde_json::from_slice::<Errors>(body) {
        Ok(e) => e
            .errors
            .iter()
            .map(|x| match (&x.code, &x.message) {
                (Some(c), Some(m)) => format!("{c}: {m}"),
                (Some(c), None) => c.clone(),
                (None, Some(m)) => m.clone(),
                (None, None) => String::new(),
            })
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join("; "),
        Err(_) => {
            let t = String::from_utf8_lossy(body);
            let t = t.trim();
            if t.starts_with('<') {
                "an HTML page (a proxy, or not a registry?)".into()
            } else {
                t.to_string()
            }
        }
    };
    let text: String = text.chars().filter(|c| !c.is_control()).collect();
    if text.is_empty() {
        return None;
    }
    Some(match text.char_indices().nth(300) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text,
    })
}

/// A transport error, described by its innermost cause (reqwest's own text repeats the URL).
pub(super) fn transport(at: &str, e: &reqwest::Error, opts: &http::HttpOptions) -> OciError {
    let at = at.to_string();
    match http::transport_problem(e) {
        // Not a transport failure that may heal: never retried.
        http::TransportProblem::Tls(detail) => OciError::Invalid { at, detail },
        http::TransportProblem::Timeout => OciError::Transport {
            at,
            detail: format!("no answer within {}s", opts.timeout.as_secs_f64()),
        },
        http::TransportProblem::Failed(detail) => OciError::Transport { at, detail },
    }
}
