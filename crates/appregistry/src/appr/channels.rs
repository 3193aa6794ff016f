//! Deleting releases and the app-registry channel endpoints (appr's `/channels` routes). App-registry
//! channels are not OLM channels: OLM reads those from the package file inside the blob.

use reqwest::Method;

use super::wire::Channel;
use super::{ApprClient, MEDIA_TYPE, check_name, check_names};
use crate::{RegistryError, Result};

impl ApprClient {
    /// `DELETE …/{release}/helm`. `Ok(false)` when there was no such release.
    pub async fn delete(&self, ns: &str, pkg: &str, release: &str) -> Result<bool> {
        check_names(ns, pkg, release)?;
        self.write(
            Method::DELETE,
            vec!["api", "v1", "packages", ns, pkg, release, MEDIA_TYPE],
        )
        .await
        .map(|v: Option<serde_json::Value>| v.is_some())
    }

    /// `GET …/channels`: the package's app-registry channels (empty when it has none).
    pub async fn channels(&self, ns: &str, pkg: &str) -> Result<Vec<Channel>> {
        check_name("namespace", ns)?;
        check_name("package", pkg)?;
        Ok(self
            .get_json(
                vec!["api", "v1", "packages", ns, pkg, "channels"],
                vec![],
                &["package-not-found"],
            )
            .await?
            .unwrap_or_default())
    }

    /// `GET …/channels/{channel}`; `None` when absent.
    pub async fn channel(&self, ns: &str, pkg: &str, channel: &str) -> Result<Option<Channel>> {
        check_names(ns, pkg, channel)?;
        self.get_json(
            vec!["api", "v1", "packages", ns, pkg, "channels", channel],
            vec![],
            &["channel-not-found", "package-not-found"],
        )
        .await
    }

    /// `POST …/channels/{channel}/{release}`: creates the channel if needed and points it at
    /// the release.
    pub async fn set_channel(
        &self,
        ns: &str,
        pkg: &str,
        channel: &str,
        release: &str,
    ) -> Result<Channel> {
        check_names(ns, pkg, channel)?;
        check_name("release", release)?;
        self.write(
            Method::POST,
            vec![
                "api", "v1", "packages", ns, pkg, "channels", channel, release,
            ],
        )
        .await?
        .ok_or_else(|| RegistryError::NoChannelRelease {
            namespace: ns.into(),
            package: pkg.into(),
            release: release.into(),
            channel: channel.into(),
        })
    }

    /// `DELETE …/channels/{channel}`. `Ok(false)` when there was no such channel.
    pub async fn delete_channel(&self, ns: &str, pkg: &str, channel: &str) -> Result<bool> {
        check_names(ns, pkg, channel)?;
        self.write(
            Method::DELETE,
            vec!["api", "v1", "packages", ns, pkg, "channels", channel],
        )
        .await
        .map(|v: Option<serde_json::Value>| v.is_some())
    }
}
