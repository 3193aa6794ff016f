//! Uploading assets: a plain reqwest client (from [`olm_release_http`]) instead of octocrab, which
//! puts `/api/v3` in front of a GitHub Enterprise upload path, re-reads the release before
//! every upload, sends no token to an upload host it does not know and does not encode the
//! name (GitHub's REST docs, "Upload a release asset", describe the upload URL and the `name`
//! query parameter). The endpoint comes from the
//! release's `upload_url` and must lie under the upload root derived from the API base
//! ([`super::config::upload_root`]), since the token goes with it; the `Authorization` header
//! is marked sensitive. A failed attempt is retried only after the assets are listed again
//! (a 502 may leave a `starter` asset, or may have stored the asset after all).

use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_LENGTH, CONTENT_TYPE, HeaderValue};

use super::GitHubError;
use super::client::{
    API_VERSION, ApiError, ApiResult, Client, MAX_ERROR, MAX_JSON, MEDIA_TYPE, Release,
};
use super::config::encode;
use super::plan::Remote;
use olm_release_http::retry::Verdict;

impl Client {
    /// A body read with a cap: an answer past it fails at once (a bigger one will not heal).
    pub(super) async fn read_body<B>(&self, what: &str, body: B, cap: u64) -> ApiResult<String>
    where
        B: http_body::Body<Data = bytes::Bytes> + Unpin,
        B::Error: std::error::Error + 'static,
    {
        match olm_release_http::read_capped_body(body, cap).await {
            Ok(bytes) => Ok(String::from_utf8_lossy(&bytes).into_owned()),
            Err(olm_release_http::BodyCapError::TooLarge(cap)) => Err(ApiError {
                verdict: Verdict::Fail,
                ..Self::transport(
                    what,
                    format!("the answer is larger than the {cap}-byte limit; refusing to read it"),
                )
            }),
            Err(olm_release_http::BodyCapError::Transport(e)) => {
                Err(Self::transport_error(what, &e))
            }
        }
    }

    /// The upload endpoint of `release` (no query): the origin and path of its `upload_url`
    /// template, which must lie under the upload root derived from the API base, since the
    /// token goes with it.
    pub(crate) fn upload_endpoint(&self, release: &Release) -> Result<String, GitHubError> {
        let from_template = release.upload_url.split('{').next().unwrap_or("").trim();
        if from_template.is_empty() {
            return Ok(format!(
                "{}{}/releases/{}/assets",
                self.upload_root, self.repo_route, release.id
            ));
        }
        if !from_template.starts_with(&format!("{}/", self.upload_root)) {
            return Err(GitHubError::UploadUrl {
                tag: release.tag_name.clone(),
                url: from_template.to_string(),
                root: self.upload_root.clone(),
                api: self.api.clone(),
            });
        }
        Ok(from_template.to_string())
    }

    /// One upload attempt, no retry.
    pub(crate) async fn upload_once(
        &self,
        endpoint: &str,
        name: &str,
        bytes: &[u8],
    ) -> ApiResult<Remote> {
        let url = format!("{endpoint}?name={}", encode(name));
        let what = format!("POST {endpoint}?name={}", encode(name));
        let mut auth = HeaderValue::from_str(&format!("Bearer {}", self.token.expose()))
            .map_err(|_| Self::transport(&what, "the token is not a valid header value".into()))?;
        auth.set_sensitive(true);
        let progress = olm_release_http::stall::Progress::new();
        let request = self
            .uploads
            .post(&url)
            .header(AUTHORIZATION, auth)
            .header(ACCEPT, MEDIA_TYPE)
            .header("x-github-api-version", API_VERSION)
            .header(CONTENT_TYPE, "application/octet-stream")
            .header(CONTENT_LENGTH, bytes.len())
            .body(olm_release_http::stall::upload_body(
                bytes::Bytes::copy_from_slice(bytes),
                progress.clone(),
            ))
            .send();
        let response = olm_release_http::stall::guard(request, &progress, olm_release_http::STALL)
            .await
            .map_err(|limit| {
                Self::transport(
                    &what,
                    format!("the upload made no progress for {}s", limit.as_secs()),
                )
            })?
            .map_err(|e| Self::transport_error(&what, &e.without_url()))?;
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let cap = if (200..300).contains(&status) {
            MAX_JSON
        } else {
            MAX_ERROR
        };
        let text = match olm_release_http::read_capped(response, cap).await {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(olm_release_http::BodyError::TooLarge(cap)) => {
                return Err(ApiError {
                    verdict: Verdict::Fail,
                    ..Self::transport(
                        &what,
                        format!("the answer is larger than the {cap}-byte limit"),
                    )
                });
            }
            Err(olm_release_http::BodyError::Transport(e)) => {
                return Err(Self::transport_error(&what, &e.without_url()));
            }
        };
        if !(200..300).contains(&status) {
            return Err(self.failure(&what, status, &headers, &text));
        }
        serde_json::from_str(&text).map_err(|e| ApiError {
            what,
            status: Some(status),
            message: self.redact(&super::error::unexpected(&text, &e)),
            errors: Vec::new(),
            verdict: Verdict::Fail,
        })
    }

    /// Uploads `bytes` as `name`, retrying as classified. Before each retry the assets are
    /// listed again: a failed attempt may have left a `starter` asset under the name (deleted,
    /// or the retry would get 422) or may in fact have completed (then it is the result).
    pub(crate) async fn upload(
        &self,
        release: u64,
        endpoint: &str,
        name: &str,
        bytes: &[u8],
        sha256: &str,
    ) -> ApiResult<Remote> {
        let attempt = std::cell::Cell::new(0u32);
        let digest = format!("sha256:{sha256}");
        self.retried(|| {
            let n = attempt.get();
            attempt.set(n + 1);
            let digest = &digest;
            async move {
                if n > 0 {
                    let listed = self.assets(release).await?;
                    if let Some(r) = listed.iter().find(|r| r.name == name) {
                        if r.state == "uploaded"
                            && r.size == bytes.len() as u64
                            && r.digest.as_ref() == Some(digest)
                        {
                            return Ok(r.clone());
                        }
                        self.events.note(&format!(
                            "deleting asset {name} left in state '{}' by the failed attempt",
                            r.state
                        ));
                        self.delete_asset(r.id).await?;
                    }
                }
                self.upload_once(endpoint, name, bytes).await
            }
        })
        .await
    }
}
