//! The `bundle_image:` section, resolved: the image target parsed (an `oci:` folder resolved
//! against the source folder), the tag checked, plain http refused off loopback unless
//! `--insecure`, and the image registry's credentials read from `OCI_USERNAME` and
//! `OCI_PASSWORD` (which catalog images use too); and `catalog.skips`/`catalog.skip_range`
//! joined to the CSV's own edges (the book's pipeline reference promises them in the CSV's `spec.skips` and
//! `olm.skipRange`, so the CSV in the image says what its catalog entry says).

use std::path::{Path, PathBuf};

use serde::{Serialize, Serializer};

use super::credentials::{OCI_PASSWORD, OCI_USERNAME};
use super::inputs::{Env, PipelineFile};
use super::target_run::TargetRun;
use super::urls::resolve_path;
use crate::error::Problem;
use crate::pipeline::model::{BundleImageSpec, CatalogSpec};
use olm_release_base::secret::Secret;
use olm_release_http::retry::RetryPolicy;
use olm_release_oci::{self as oci, ImageLocation};
use olm_release_olm::fbc::swap::Patience;

/// `bundle_image:`, resolved.
#[derive(Debug, Clone)]
pub(crate) struct BundleImageSettings {
    /// `None` when the target is unusable (a problem says why).
    pub(crate) target: Option<ImageLocation>,
    /// `None`: the version, as a tag.
    pub(crate) tag: Option<String>,
    /// The name the catalog pins by digest (`None`: unusable, a problem says why).
    pub(crate) image: Option<String>,
    pub(crate) insecure: bool,
}

pub(crate) fn bundle_image(
    spec: &BundleImageSpec,
    file: &PipelineFile,
    source: &Path,
    insecure: bool,
    problems: &mut Vec<Problem>,
) -> BundleImageSettings {
    let at = file.at(&["bundle_image", "target"]);
    let target = match ImageLocation::parse(&spec.target) {
        Ok(ImageLocation::Layout(p)) => Some(ImageLocation::Layout(resolve_path(source, &p))),
        Ok(ImageLocation::Remote(r)) => {
            if r.base.scheme() == "http" && !olm_release_http::is_loopback(&r.base) && !insecure {
                problems.push(Problem::new(
                    at,
                    format!(
                        "bundle_image.target: plain http to {} is refused off loopback; use https, or pass --insecure",
                        r.describe()
                    ),
                ));
                None
            } else {
                Some(ImageLocation::Remote(r))
            }
        }
        Err(e) => {
            problems.push(Problem::new(at, format!("bundle_image.target: {e}")));
            None
        }
    };
    if let Some(tag) = &spec.tag
        && let Err(e) = oci::check_tag(tag)
    {
        problems.push(Problem::new(
            file.at(&["bundle_image", "tag"]),
            format!("bundle_image.tag: {e}"),
        ));
    }
    let image = match (&spec.image, &target) {
        (Some(name), _)
            if name.contains('@') || name.rsplit('/').next().is_some_and(|l| l.contains(':')) =>
        {
            problems.push(Problem::new(
                file.at(&["bundle_image", "image"]),
                format!("bundle_image.image: '{name}' holds a tag or digest; give the name only (the catalog pins it by digest)"),
            ));
            None
        }
        (Some(name), _) => Some(name.clone()),
        (None, Some(ImageLocation::Remote(r))) => Some(r.describe()),
        (None, Some(ImageLocation::Layout(_))) => {
            problems.push(Problem::new(
                file.at(&["bundle_image", "target"]),
                "bundle_image.image: an oci: target needs the image name the catalog lists (e.g. image: quay.io/ORG/REPOSITORY)".to_string(),
            ));
            None
        }
        (None, None) => None,
    };
    BundleImageSettings {
        target,
        tag: spec.tag.clone(),
        image,
        insecure,
    }
}

/// `OCI_USERNAME` with `OCI_PASSWORD`; one without the other is a problem.
pub(crate) fn credentials(env: &Env, problems: &mut Vec<Problem>) -> Option<oci::Credentials> {
    let get = |k: &str| env.get(k).filter(|v| !v.is_empty());
    match (get(OCI_USERNAME), get(OCI_PASSWORD)) {
        (Some(u), Some(p)) => Some(oci::Credentials {
            username: u.clone(),
            password: Secret::new(p.clone()),
        }),
        (None, None) => None,
        (Some(_), None) | (None, Some(_)) => {
            problems.push(Problem::new(
                "OCI_USERNAME / OCI_PASSWORD",
                "set both (the image registry's username and password or token), or neither"
                    .to_string(),
            ));
            None
        }
    }
}

/// The new CSV's `spec.skips` and `olm.skipRange`: the top-level `skips`/`skip_range` with
/// `catalog.skips` added (each name once, in order) and `catalog.skip_range` as the range when
/// the top level sets none. Two different ranges are a problem: the CSV in the image and its
/// catalog entry would disagree.
pub(crate) fn csv_edges(
    skips: &[String],
    skip_range: Option<&str>,
    catalog: Option<&CatalogSpec>,
    file: &PipelineFile,
    problems: &mut Vec<Problem>,
) -> (Vec<String>, Option<String>) {
    let mut all = skips.to_vec();
    let Some(c) = catalog else {
        return (all, skip_range.map(str::to_string));
    };
    for s in &c.skips {
        if !all.contains(s) {
            all.push(s.clone());
        }
    }
    let range = match (skip_range, c.skip_range.as_deref()) {
        (Some(top), Some(cat)) if top != cat => {
            problems.push(Problem::new(
                file.at(&["catalog", "skip_range"]),
                format!(
                    "catalog.skip_range '{cat}' differs from skip_range '{top}': the CSV's olm.skipRange and its catalog entry's skipRange would disagree; keep one of them"
                ),
            ));
            Some(top.to_string())
        }
        (Some(r), _) | (None, Some(r)) => Some(r.to_string()),
        (None, None) => None,
    };
    (all, range)
}

/// An image target, and how to talk to it.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ImageJob {
    #[serde(serialize_with = "target_shown")]
    pub(crate) target: ImageLocation,
    /// The variables the credentials came from.
    pub(crate) credentials: Option<&'static str>,
    #[serde(skip)]
    pub(crate) secret: Option<oci::Credentials>,
    #[serde(skip)]
    pub(crate) insecure: bool,
    #[serde(skip)]
    pub(crate) retry: RetryPolicy,
}

fn target_shown<S: Serializer>(t: &ImageLocation, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&t.describe())
}

impl ImageJob {
    /// How to open the target.
    pub(crate) fn options(&self) -> oci::StoreOptions {
        oci::StoreOptions::default()
            .with_insecure(self.insecure)
            .with_credentials(self.secret.clone())
            .with_retry(self.retry)
    }

    /// A registry on another host than loopback (credentials are needed to push there).
    pub(crate) fn remote(&self) -> bool {
        matches!(&self.target, ImageLocation::Remote(r) if !olm_release_http::is_loopback(&r.base))
    }
}

/// A catalog image: `image:HOST[:PORT]/REPOSITORY:TAG` or `image:oci:PATH:TAG`, reached as a
/// bundle image's target is (with `OCI_USERNAME`/`OCI_PASSWORD`), built on a base pinned by
/// digest.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ImageTarget {
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

impl ImageTarget {
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

impl TargetRun<'_> {
    /// `image:REF:TAG` on the base `base` pinned by `base_digest`.
    pub(crate) fn image(
        &self,
        target: ImageLocation,
        tag: String,
        (base, base_digest): (ImageLocation, String),
        insecure: bool,
    ) -> ImageTarget {
        ImageTarget {
            base_shown: match &base {
                ImageLocation::Remote(r) => r.pinned(&base_digest),
                ImageLocation::Layout(_) => format!("{}@{base_digest}", base.describe()),
            },
            base,
            base_digest,
            image: ImageJob {
                target,
                credentials: self.image.as_ref().map(|_| "OCI_USERNAME and OCI_PASSWORD"),
                secret: self.image.clone(),
                insecure,
                retry: Default::default(),
            },
            tag,
            epoch: (self.epoch)(),
            patience: self.patience,
            base_limits: self.base_limits,
            scratch: self.scratch.join("catalog-image"),
        }
    }
}
