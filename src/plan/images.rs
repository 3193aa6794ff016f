//! The step that publishes bundle images (`bundle-image`: the registry+v1 bundle folder, its
//! reproducible OCI image, pushed to an image target), how a pipeline's section becomes it,
//! and how an image target is reached ([`ImageJob`], which catalog images use too).
//!
//! A bundle image is never pushed unverified: the stage order puts `verify` before
//! `bundle-image` (as before `push`), so the image holds exactly the CSV and CRDs the verify
//! stage validated, under the pipeline's profile.

use std::path::PathBuf;

use serde::Serialize;

pub(crate) use crate::settings::ImageJob;
use crate::settings::{OCI_PASSWORD, OCI_USERNAME, Settings};
use olm_release_http::retry::RetryPolicy;
use olm_release_oci as oci;

/// Write the registry+v1 bundle folder, build its image and push it under the tag.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct BundleImageStep {
    pub(crate) image: ImageJob,
    pub(crate) tag: String,
    /// The name the catalog pins by digest (`NAME@sha256:…`).
    pub(crate) name: String,
    /// Where the bundle folder is written.
    pub(crate) folder: PathBuf,
    pub(crate) package: String,
    pub(crate) channel: String,
    /// Every channel the release joins, `channel` first: the bundle's channels annotation.
    #[serde(skip_serializing_if = "single")]
    pub(crate) channels: Vec<String>,
    /// Tar entry times and the config's `created` (`SOURCE_DATE_EPOCH`, else 0).
    pub(crate) epoch: u64,
    pub(crate) force: bool,
}

/// The bundle-image step of `s`, given its package and channel (`None` when a section is
/// unusable; a problem already says why).
pub(crate) fn bundle_image_step(
    s: &Settings,
    package: String,
    channel: String,
) -> Option<BundleImageStep> {
    let b = s.bundle_image.as_ref()?;
    let version = s.version.as_ref()?.to_string();
    let image = ImageJob {
        target: b.target.clone()?,
        credentials: s
            .credentials
            .image
            .as_ref()
            .map(|_| "OCI_USERNAME and OCI_PASSWORD"),
        secret: s.credentials.image.clone(),
        insecure: b.insecure,
        retry: RetryPolicy::default(),
    };
    Some(BundleImageStep {
        image,
        tag: b
            .tag
            .clone()
            .unwrap_or_else(|| oci::tag_for_version(&version)),
        name: b.image.clone()?,
        folder: s.out.join("bundle-image"),
        package,
        channels: release_channels(s, &channel),
        channel,
        epoch: s.source_date_epoch.unwrap_or(0),
        force: s.mode.force,
    })
}

/// Every channel of the release, `channel` first.
pub(super) fn release_channels(s: &Settings, channel: &str) -> Vec<String> {
    if s.channels.is_empty() {
        vec![channel.to_string()]
    } else {
        s.channels.clone()
    }
}

/// Pushing to a registry off loopback needs `OCI_USERNAME` and `OCI_PASSWORD` (a dry-run only
/// reads, and may read anonymously).
pub(crate) fn credentials(step: &BundleImageStep, dry_run: bool) -> Option<crate::error::Problem> {
    (step.image.remote() && step.image.secret.is_none() && !dry_run).then(|| {
        crate::error::Problem::new(
            OCI_USERNAME,
            format!(
                "pushing the bundle image to {} needs credentials: set {OCI_USERNAME} and {OCI_PASSWORD} (for quay.io, a robot account's name and token)",
                step.image.target.describe()
            ),
        )
    })
}

/// The plan's text lines of the bundle-image step.
pub(crate) fn show_bundle_image(b: &BundleImageStep) -> Vec<String> {
    vec![
        format!("bundle folder {} (registry+v1)", b.folder.display()),
        format!(
            "push the image to {}:{}{} (mtime {}); catalog name {}",
            b.image.target.describe(),
            b.tag,
            if b.force { " (--force)" } else { "" },
            b.epoch,
            b.name
        ),
        format!("credentials: {}", b.image.credentials.unwrap_or("none")),
    ]
}

/// One channel (or none): shown as `channel` alone (the serialised steps of this module's and
/// of `steps`).
pub(super) fn single(v: &[String]) -> bool {
    v.len() <= 1
}
