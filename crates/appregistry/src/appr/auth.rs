//! Credentials and the `Authorization` value: a ready token, or a login exchanged once on first
//! use (`POST /api/v1/users/login`, Quay's CNR login route), and scrubbing secrets out of
//! messages.

use base64::Engine;
use reqwest::Method;

use super::errors::Failure;
use super::transport::{MAX_JSON, Request, json};
use super::{ApprClient, wire};
use crate::{RegistryError, Result};
use olm_release_base::secret::Secret;

/// Credentials for the app registry, from the environment.
#[derive(Debug, Clone)]
pub enum Credentials {
    /// A ready `Authorization` value (`QUAY_TOKEN`), e.g. `basic …`.
    Token(Secret),
    /// `QUAY_USERNAME` / `QUAY_PASSWORD`, exchanged through the login route.
    Login {
        /// `QUAY_USERNAME`.
        username: String,
        /// `QUAY_PASSWORD`.
        password: Secret,
    },
}

impl Credentials {
    /// Where they came from, for plans and dry-runs (never the value).
    pub fn source(&self) -> &'static str {
        match self {
            Credentials::Token(_) => "QUAY_TOKEN",
            Credentials::Login { .. } => "QUAY_USERNAME/QUAY_PASSWORD",
        }
    }
}

impl ApprClient {
    /// Logs in (when a username and password were given) and returns the `Authorization`
    /// value to send, if any.
    pub(crate) async fn authorization(&self) -> Result<Option<&Secret>> {
        let auth = self
            .auth
            .get_or_try_init(|| async {
                match &self.credentials {
                    None => Ok(None),
                    Some(Credentials::Token(t)) => {
                        check_token(t, "QUAY_TOKEN").map(|()| Some(t.clone()))
                    }
                    Some(Credentials::Login { username, password }) => {
                        self.login(username, password).await.map(Some)
                    }
                }
            })
            .await?;
        Ok(auth.as_ref())
    }

    /// `POST /api/v1/users/login`: checks the credentials and returns the token.
    async fn login(&self, username: &str, password: &Secret) -> Result<Secret> {
        let body = serde_json::to_vec(&wire::LoginBody {
            user: wire::LoginUser {
                username,
                password: password.expose(),
            },
        })
        .expect("a struct of two strings serialises");
        let req = Request {
            method: Method::POST,
            segments: vec!["api", "v1", "users", "login"],
            query: vec![],
            body: Some(body.into()),
            auth: None,
            cap: MAX_JSON,
        };
        match self.transport.send(&req).await {
            Ok(answer) => {
                let at = self.at(&req);
                let token: wire::LoginAnswer =
                    json(&at, &answer.body).map_err(|f| self.error(f))?;
                let token = Secret::new(token.token);
                check_token(&token, "the login answer's token")?;
                Ok(token)
            }
            // appr 0.7.4 has no login route and no authentication: send what Quay's login
            // would have returned (appr's `api/impl/registry.py` has no login).
            Err(Failure::Status(e)) if e.status == 404 && e.code.is_none() => {
                let basic = base64::engine::general_purpose::STANDARD
                    .encode(format!("{username}:{}", password.expose()));
                Ok(Secret::new(format!("basic {basic}")))
            }
            Err(f) => Err(RegistryError::Login {
                base: self.base.clone(),
                username: username.into(),
                source: self.scrub(f),
            }),
        }
    }

    /// Turns a failure into an error, with every secret the client holds scrubbed out.
    pub(super) fn error(&self, f: Failure) -> RegistryError {
        RegistryError::Call(self.scrub(f))
    }

    /// `f` without any secret the client holds.
    fn scrub(&self, f: Failure) -> Failure {
        let mut secrets: Vec<String> = Vec::new();
        match &self.credentials {
            Some(Credentials::Token(t)) => secrets.push(t.expose().to_string()),
            Some(Credentials::Login { username, password }) => {
                secrets.push(password.expose().to_string());
                // As Basic auth would carry it (base64 of `user:password`; see `redact`).
                secrets.push(format!("{username}:{}", password.expose()));
            }
            None => {}
        }
        if let Some(Some(t)) = self.auth.get() {
            secrets.push(t.expose().to_string());
        }
        let refs: Vec<&str> = secrets.iter().map(String::as_str).collect();
        f.redacted(&refs)
    }
}

/// Refuses the KubeVirt 2019 failure where a failed login left the string `null` as token.
pub(super) fn check_token(t: &Secret, what: &'static str) -> Result<()> {
    let v = t.expose().trim();
    if v.is_empty() || v == "null" {
        return Err(RegistryError::NullToken { what });
    }
    Ok(())
}
