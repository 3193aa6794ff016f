//! Registry authentication, driven by the registry's `WWW-Authenticate` challenge (RFC 9110
//! §11.6.1): `Basic` sends the credentials as HTTP Basic; `Bearer realm=…,service=…,scope=…`
//! (the distribution token flow, used by quay.io and Docker Hub) fetches a token from the
//! realm — with the credentials as Basic when there are any, anonymously otherwise — and sends
//! `Bearer <token>`. Credentials and tokens are [`Secret`]s; the realm must be https unless it
//! is loopback or the client is insecure, so credentials never cross the network in clear.

use base64::Engine;
use reqwest::header::{AUTHORIZATION, GetAll, HeaderValue};

use super::DistributionClient;
use super::transport::{MAX_SMALL, at, transport};
use crate::{Event, Events, OciError};
use olm_release_base::secret::Secret;
use olm_release_http::{self as http, BodyError};

/// A username and password (or token used as password, as quay.io robot accounts do).
#[derive(Debug, Clone)]
pub struct Credentials {
    /// The user name, sent to the registry and its token service.
    pub username: String,
    /// The password, or a token used as one.
    pub password: Secret,
}

/// A parsed `WWW-Authenticate` challenge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Challenge {
    /// `Basic`: the registry takes the credentials as HTTP Basic.
    Basic,
    /// `Bearer`: the registry takes a token from its token service (the distribution token flow).
    Bearer {
        /// `realm`: the token service's URL.
        realm: String,
        /// `service`: the service the token is for, passed back to the realm; `None` when absent.
        service: Option<String>,
        /// `scope`: the access to ask for (`repository:NAME:pull,push`); `None` when absent, and
        /// then the client asks for pull and push on its repository.
        scope: Option<String>,
    },
}

impl Challenge {
    /// The first challenge we can answer among the headers (Bearer preferred).
    pub(crate) fn from_headers(values: GetAll<'_, HeaderValue>) -> Option<Challenge> {
        let parsed: Vec<Challenge> = values
            .iter()
            .filter_map(|v| v.to_str().ok())
            .filter_map(Challenge::parse)
            .collect();
        parsed
            .iter()
            .find(|c| matches!(c, Challenge::Bearer { .. }))
            .or(parsed.first())
            .cloned()
    }

    /// Parses one challenge: a scheme, then `key=value` or `key="quoted, value"` pairs.
    pub fn parse(value: &str) -> Option<Challenge> {
        let value = value.trim();
        let (scheme, rest) = value.split_once(' ').unwrap_or((value, ""));
        let params = params(rest);
        let get = |k: &str| {
            params
                .iter()
                .find(|(key, _)| key.eq_ignore_ascii_case(k))
                .map(|(_, v)| v.clone())
        };
        if scheme.eq_ignore_ascii_case("basic") {
            Some(Challenge::Basic)
        } else if scheme.eq_ignore_ascii_case("bearer") {
            Some(Challenge::Bearer {
                realm: get("realm")?,
                service: get("service"),
                scope: get("scope"),
            })
        } else {
            None
        }
    }
}

/// `a=b, c="d, e"` → pairs; backslash escapes inside quotes.
fn params(s: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut chars = s.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| *c == ',' || c.is_whitespace()) {
            chars.next();
        }
        let key: String =
            std::iter::from_fn(|| chars.next_if(|c| *c != '=' && *c != ',')).collect();
        if key.is_empty() || chars.next() != Some('=') {
            return out;
        }
        let mut value = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => value.extend(chars.next()),
                    '"' => break,
                    c => value.push(c),
                }
            }
        } else {
            value = std::iter::from_fn(|| chars.next_if(|c| *c != ',')).collect();
        }
        out.push((key.trim().to_string(), value.trim().to_string()));
    }
}

impl DistributionClient {
    /// Answers a challenge: sets the `Authorization` value the next exchange sends.
    pub(super) async fn authenticate(
        &self,
        challenge: &Challenge,
        events: &dyn Events,
    ) -> Result<(), OciError> {
        let value = match challenge {
            Challenge::Basic => match &self.credentials {
                Some(c) => Secret::new(format!("Basic {}", basic(c))),
                // Nothing to answer with: the 401 stands.
                None => return Ok(()),
            },
            Challenge::Bearer {
                realm,
                service,
                scope,
            } => {
                let scope = scope.clone().unwrap_or_else(|| {
                    format!("repository:{}:pull,push", self.reference.repository)
                });
                let token = self
                    .fetch_token(realm, service.as_deref(), &scope, events)
                    .await?;
                events.event(Event::Token {
                    service: service.clone().unwrap_or_default(),
                    scope,
                });
                Secret::new(format!("Bearer {}", token.expose()))
            }
        };
        *self.authorization.lock().unwrap_or_else(|e| e.into_inner()) = Some(value);
        Ok(())
    }

    /// `GET realm?service=…&scope=…` → `{"token": …}` (or `access_token`).
    async fn fetch_token(
        &self,
        realm: &str,
        service: Option<&str>,
        scope: &str,
        events: &dyn Events,
    ) -> Result<Secret, OciError> {
        let mut url = reqwest::Url::parse(realm).map_err(|e| OciError::Invalid {
            at: format!("the token realm '{realm}'"),
            detail: format!("not a URL ({e})"),
        })?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(OciError::Invalid {
                at: format!("the token realm '{realm}'"),
                detail: "not an http(s) URL".into(),
            });
        }
        if url.scheme() == "http" && !self.insecure && !http::is_loopback(&url) {
            return Err(OciError::InsecureHttp {
                url: realm.to_string(),
            });
        }
        // The credentials go to the realm: a plain-http realm on another host is named too.
        self.warn_plain_http(&url, events);
        {
            let mut q = url.query_pairs_mut();
            if let Some(s) = service {
                q.append_pair("service", s);
            }
            q.append_pair("scope", scope);
        }
        let here = format!("token request {}", at(&reqwest::Method::GET, &url));
        let mut req = self.http.get(url.clone());
        if let Some(c) = &self.credentials {
            let mut v = HeaderValue::from_str(&format!("Basic {}", basic(c))).map_err(|_| {
                OciError::Credentials {
                    what: "the registry credentials hold characters not allowed in an HTTP header"
                        .into(),
                }
            })?;
            v.set_sensitive(true);
            req = req.header(AUTHORIZATION, v);
        }
        let resp = req
            .send()
            .await
            .map_err(|e| transport(&here, &e, &self.opts))?;
        let status = resp.status();
        let body = http::read_capped(resp, MAX_SMALL)
            .await
            .map_err(|e| match e {
                BodyError::TooLarge(cap) => OciError::Invalid {
                    at: here.clone(),
                    detail: format!("the answer is larger than {cap} bytes"),
                },
                BodyError::Transport(e) => transport(&here, &e, &self.opts),
            })?;
        if !status.is_success() {
            return Err(OciError::Status {
                at: here,
                status: status.as_u16(),
                message: Some(format!(
                    "the token service refused{} (scope {scope})",
                    if self.credentials.is_some() {
                        " the credentials"
                    } else {
                        " an anonymous token; credentials are needed"
                    }
                )),
                retry_after: None,
            });
        }
        #[derive(serde::Deserialize)]
        struct Token {
            token: Option<String>,
            access_token: Option<String>,
        }
        let t: Token = serde_json::from_slice(&body).map_err(|_| OciError::Invalid {
            at: here.clone(),
            detail: "the token answer is not JSON with a token".into(),
        })?;
        t.token
            .or(t.access_token)
            .filter(|t| !t.is_empty())
            .map(Secret::new)
            .ok_or_else(|| OciError::Invalid {
                at: here,
                detail: "the token answer holds no token".into(),
            })
    }

    /// Removes every secret the client holds from text that came from a server.
    pub(super) fn scrub(&self, text: &str) -> String {
        let current = self
            .authorization
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let mut secrets: Vec<String> = Vec::new();
        if let Some(c) = &self.credentials {
            secrets.push(c.password.expose().to_string());
            secrets.push(basic(c));
        }
        if let Some(v) = current {
            secrets.push(v.expose().to_string());
        }
        let refs: Vec<&str> = secrets.iter().map(String::as_str).collect();
        olm_release_base::secret::redact(text, &refs)
    }
}

fn basic(c: &Credentials) -> String {
    base64::engine::general_purpose::STANDARD.encode(format!(
        "{}:{}",
        c.username,
        c.password.expose()
    ))
}
