//! The releases API calls the release stage makes (GitHub REST "Releases" and "Release
//! assets": get a release by tag, list releases and assets, create a draft, update, delete or
//! rename an asset), each a retried JSON call on [`Client::send`], lists read page by page.
//! <https://docs.github.com/en/rest/releases>

use reqwest::Method;
use reqwest::header::HeaderMap;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::client::{ApiError, ApiResult, Client, Release};
use super::config::encode;
use super::plan::Remote;
use olm_release_http::retry::Verdict;

/// GitHub's page-size maximum.
const PER_PAGE: u32 = 100;
/// 100 pages of 100: more than GitHub's 1,000 assets per release.
const MAX_PAGES: u32 = 100;

impl Client {
    /// A retried JSON call, its body parsed.
    pub(super) async fn call<T: DeserializeOwned>(
        &self,
        method: Method,
        route: &str,
        body: Option<&Value>,
    ) -> ApiResult<(HeaderMap, T)> {
        let (headers, text) = self
            .retried(|| self.send(method.clone(), route, body))
            .await?;
        let value =
            serde_json::from_str(if text.is_empty() { "null" } else { &text }).map_err(|e| {
                ApiError {
                    what: format!("{method} {}{route}", self.api),
                    status: None,
                    message: self.redact(&super::error::unexpected(&text, &e)),
                    errors: Vec::new(),
                    verdict: Verdict::Fail,
                }
            })?;
        Ok((headers, value))
    }

    /// Every item of a paged list.
    async fn list_all<T: DeserializeOwned>(&self, route: &str) -> ApiResult<Vec<T>> {
        let mut out = Vec::new();
        for page in 1..=MAX_PAGES {
            let paged = format!("{route}?per_page={PER_PAGE}&page={page}");
            let (headers, items): (_, Vec<T>) = self.call(Method::GET, &paged, None).await?;
            let next = headers
                .get_all("link")
                .iter()
                .filter_map(|v| v.to_str().ok())
                .any(|v| v.contains("rel=\"next\""));
            let empty = items.is_empty();
            out.extend(items);
            if !next || empty {
                break;
            }
        }
        Ok(out)
    }

    /// The published release for `tag` (get-by-tag never returns drafts).
    pub(crate) async fn release_by_tag(&self, tag: &str) -> ApiResult<Option<Release>> {
        let route = format!("{}/releases/tags/{}", self.repo_route, encode(tag));
        match self.call(Method::GET, &route, None).await {
            Ok((_, r)) => Ok(Some(r)),
            Err(e) if e.status == Some(404) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The preflight read: the first page of one release, which needs a token that may read
    /// the repository.
    pub async fn check(&self) -> ApiResult<()> {
        let route = format!("{}/releases?per_page=1", self.repo_route);
        let _: (_, Vec<Release>) = self.call(Method::GET, &route, None).await?;
        Ok(())
    }

    /// Every release, drafts included (for a token with push access).
    pub(crate) async fn releases(&self) -> ApiResult<Vec<Release>> {
        self.list_all(&format!("{}/releases", self.repo_route))
            .await
    }

    /// Creates a draft release for `tag`.
    /// "Create a release" as a draft, with the release notes as its `body` when there are any
    /// (<https://docs.github.com/en/rest/releases/releases#create-a-release>).
    pub(crate) async fn create_draft(
        &self,
        tag: &str,
        prerelease: bool,
        notes: Option<&str>,
    ) -> ApiResult<Release> {
        let mut body = serde_json::json!({
            "tag_name": tag,
            "name": tag,
            "draft": true,
            "prerelease": prerelease,
        });
        if let Some(notes) = notes {
            body["body"] = Value::from(notes);
        }
        let route = format!("{}/releases", self.repo_route);
        Ok(self.call(Method::POST, &route, Some(&body)).await?.1)
    }

    pub(crate) async fn update_release(&self, id: u64, body: &Value) -> ApiResult<Release> {
        let route = format!("{}/releases/{id}", self.repo_route);
        Ok(self.call(Method::PATCH, &route, Some(body)).await?.1)
    }

    /// Every asset of a release, whatever its state.
    pub(crate) async fn assets(&self, release: u64) -> ApiResult<Vec<Remote>> {
        self.list_all(&format!("{}/releases/{release}/assets", self.repo_route))
            .await
    }

    /// Deletes an asset; one already gone counts as deleted.
    pub(crate) async fn delete_asset(&self, id: u64) -> ApiResult<()> {
        let route = format!("{}/releases/assets/{id}", self.repo_route);
        match self.call::<Value>(Method::DELETE, &route, None).await {
            Ok(_) => Ok(()),
            Err(e) if e.status == Some(404) => Ok(()),
            Err(e) => Err(e),
        }
    }

    pub(crate) async fn rename_asset(&self, id: u64, name: &str) -> ApiResult<Remote> {
        let route = format!("{}/releases/assets/{id}", self.repo_route);
        let body = serde_json::json!({ "name": name });
        Ok(self.call(Method::PATCH, &route, Some(&body)).await?.1)
    }
}
