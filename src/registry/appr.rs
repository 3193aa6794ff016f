//! The CNR/"appr" HTTP client, as Quay and appr 0.7.4 serve the API (fact sheet §2).

use super::{PushOutcome, ReleaseInfo};
use crate::error::{Error, Result};
use crate::secret::Secret;

/// Credentials for the app registry, from the environment.
#[derive(Debug, Clone)]
pub enum Credentials {
    /// A ready `Authorization` value (`QUAY_TOKEN`), e.g. `basic …`.
    Token(Secret),
    /// `QUAY_USERNAME` / `QUAY_PASSWORD`, exchanged through the login route.
    Login { username: String, password: Secret },
}

#[derive(Debug)]
pub struct ApprClient {
    base: String,
    #[allow(dead_code)]
    credentials: Option<Credentials>,
}

impl ApprClient {
    pub fn new(base: impl Into<String>, credentials: Option<Credentials>) -> Self {
        ApprClient {
            base: base.into(),
            credentials,
        }
    }

    pub fn describe(&self) -> String {
        self.base.clone()
    }

    fn unimplemented(&self) -> Error {
        Error::stage(format!(
            "{}: the HTTP app-registry client is not available in this build",
            self.base
        ))
    }

    pub async fn releases(&self, _ns: &str, _pkg: &str) -> Result<Vec<ReleaseInfo>> {
        Err(self.unimplemented())
    }

    pub async fn packages(&self, _ns: &str) -> Result<Vec<String>> {
        Err(self.unimplemented())
    }

    pub async fn pull_blob(&self, _ns: &str, _pkg: &str, _digest: &str) -> Result<Vec<u8>> {
        Err(self.unimplemented())
    }

    pub async fn push(
        &self,
        _ns: &str,
        _pkg: &str,
        _release: &str,
        _gz: &[u8],
        _force: bool,
    ) -> Result<PushOutcome> {
        Err(self.unimplemented())
    }
}
