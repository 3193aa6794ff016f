//! The catalog-image target as the plan carries it: the image target and tag (reached as a
//! bundle image's target is, with `OCI_USERNAME`/`OCI_PASSWORD`), the base pinned by digest,
//! the epoch of the layer and the config, and the budget of decisions taken again when
//! another job moved the tag.

use std::path::PathBuf;

use serde::Serialize;

use super::images::ImageJob;
use crate::error::Problem;
use crate::settings::{ImageTarget, OCI_PASSWORD, OCI_USERNAME, Settings};
use olm_release_http::retry::RetryPolicy;
use olm_release_oci::ImageLocation;
use olm_release_olm::fbc::swap::Patience;

/// A catalog image: `image:HOST[:PORT]/REPOSITORY:TAG` or `image:oci:PATH:TAG`.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct CatalogImageJob {
    pub(crate) image: ImageJob,
    pub(crate) tag: String,
    /// The base, as it reads (`HOST/REPOSITORY@sha256:…`).
    #[serde(rename = "base_image")]
    pub(crate) base_shown: String,
    #[serde(skip)]
    pub(crate) base: ImageLocation,
    #[serde(skip)]
    pub(crate) base_digest: String,
    /// The layer's mtimes and the config's `created` (`SOURCE_DATE_EPOCH`, else the source's
    /// commit time).
    pub(crate) epoch: u64,
    /// How long and how often the job tries again after someone else moved the tag
    /// (`catalog.publish_deadline_seconds`, `catalog.retries`).
    #[serde(skip)]
    pub(crate) patience: Patience,
    /// The bounds on the base (`OLM_RELEASE_MAX_BASE_LAYERS`, `OLM_RELEASE_MAX_BASE_BYTES`).
    #[serde(skip)]
    pub(crate) base_limits: olm_release_oci::catalog_image::BaseLimits,
    /// Where the tag's catalog is read into (under the output folder).
    #[serde(skip)]
    pub(crate) scratch: PathBuf,
}

impl CatalogImageJob {
    /// `HOST[:PORT]/REPOSITORY:TAG` or `oci:PATH:TAG`.
    pub(crate) fn describe(&self) -> String {
        format!("{}:{}", self.image.target.describe(), self.tag)
    }

    /// The base image's target, reached with the same settings.
    pub(crate) fn base_job(&self) -> ImageJob {
        ImageJob {
            target: self.base.clone(),
            ..self.image.clone()
        }
    }
}

/// The job of an `image:` target (`None` when the base is unusable; a problem says why).
pub(crate) fn job(
    s: &Settings,
    i: ImageTarget,
    patience: Patience,
    problems: &mut Vec<Problem>,
) -> Option<CatalogImageJob> {
    let (base, base_digest) = i.base?;
    let (epoch, _) = super::time::epoch(s.source_date_epoch, &s.source);
    let image = ImageJob {
        target: i.target,
        credentials: s
            .credentials
            .image
            .as_ref()
            .map(|_| "OCI_USERNAME and OCI_PASSWORD"),
        secret: s.credentials.image.clone(),
        insecure: i.insecure,
        retry: RetryPolicy::default(),
    };
    if image.remote() && image.secret.is_none() && !s.mode.dry_run {
        problems.push(Problem::new(
            OCI_USERNAME,
            format!(
                "pushing the catalog image to {} needs credentials: set {OCI_USERNAME} and {OCI_PASSWORD}",
                image.target.describe()
            ),
        ));
    }
    Some(CatalogImageJob {
        base_shown: match &base {
            ImageLocation::Remote(r) => r.pinned(&base_digest),
            ImageLocation::Layout(_) => format!("{}@{base_digest}", base.describe()),
        },
        base,
        base_digest,
        image,
        tag: i.tag,
        epoch,
        patience,
        base_limits: s.base_limits,
        scratch: s.out.join("catalog-image"),
    })
}

/// The plan's text lines of a catalog-image target.
pub(crate) fn show(j: &CatalogImageJob) -> Vec<String> {
    let mut out = vec![
        "validate the whole catalog (opm validate rules); build an image only when it changed"
            .to_string(),
        format!(
            "build on {}: its layers mounted or copied, one new layer with the catalog under /configs (mtime {}); {}",
            j.base_shown,
            super::time::format_time(j.epoch),
            olm_release_oci::catalog_image::config_lines().join(", ")
        ),
        format!(
            "push by digest, then move the tag {} only if it still names the digest read; when it moved meanwhile, {}",
            j.tag,
            super::catalog::again(&j.patience)
        ),
    ];
    out.push(format!(
        "credentials: {}",
        j.image.credentials.unwrap_or("none")
    ));
    out
}

/// Whether the pipeline publishes a catalog image (a catalog stage with an `image:` target).
pub(crate) fn published(s: &crate::settings::Settings) -> bool {
    s.stages.contains(&crate::pipeline::StageName::Catalog)
        && matches!(
            s.catalog.as_ref().and_then(|c| c.target.as_ref()),
            Some(crate::settings::CatalogTarget::Image(_))
        )
}
