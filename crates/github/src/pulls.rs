//! The pulls API calls (GitHub REST "Pulls": list by head branch, create, update).
//! <https://docs.github.com/en/rest/pulls/pulls>

use reqwest::Method;
use serde::Deserialize;
use serde_json::json;

use super::client::{ApiResult, Client};
use super::config::encode;

/// A pull request, the fields used.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Pull {
    pub(crate) number: u64,
    pub(crate) state: String,
    #[serde(default)]
    pub(crate) merged_at: Option<String>,
    pub(crate) html_url: String,
    #[serde(default)]
    pub(crate) title: String,
    #[serde(default)]
    pub(crate) body: Option<String>,
}

impl Pull {
    pub(crate) fn merged(&self) -> bool {
        self.merged_at.is_some()
    }
}

impl Client {
    /// The pull requests on this repository from `head` (`OWNER:BRANCH`), open and closed,
    /// newest first.
    pub(crate) async fn pulls_from(&self, head: &str) -> ApiResult<Vec<Pull>> {
        let route = format!(
            "{}/pulls?head={}&state=all&sort=created&direction=desc&per_page=100",
            self.repo_route,
            encode(head)
        );
        Ok(self.call(Method::GET, &route, None).await?.1)
    }

    /// Opens a pull request of `head` (`OWNER:BRANCH`) into `base`.
    pub(crate) async fn open_pull(
        &self,
        title: &str,
        body: &str,
        head: &str,
        base: &str,
        draft: bool,
    ) -> ApiResult<Pull> {
        let route = format!("{}/pulls", self.repo_route);
        let req = json!({
            "title": title,
            "body": body,
            "head": head,
            "base": base,
            "draft": draft,
            "maintainer_can_modify": true,
        });
        Ok(self.call(Method::POST, &route, Some(&req)).await?.1)
    }

    /// Sets a pull request's title and body.
    pub(crate) async fn update_pull(
        &self,
        number: u64,
        title: &str,
        body: &str,
    ) -> ApiResult<Pull> {
        let route = format!("{}/pulls/{number}", self.repo_route);
        let req = json!({ "title": title, "body": body });
        Ok(self.call(Method::PATCH, &route, Some(&req)).await?.1)
    }
}
