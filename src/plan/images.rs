//! The steps that publish where OLM reads today: `bundle-image` (the registry+v1 bundle folder,
//! its reproducible OCI image, pushed to an image target) and `catalog` (the bundle added to a
//! file-based catalog folder by digest), and how a pipeline's sections become them.
//!
//! A bundle image is never pushed unverified: the stage order puts `verify` before
//! `bundle-image` (as before `push`), so the image holds exactly the CSV and CRDs the verify
//! stage validated, under the pipeline's profile. The catalog stage validates the whole
//! catalog with the rules of `opm validate` before it writes.

use std::path::PathBuf;

use serde::{Serialize, Serializer};

use crate::settings::{OCI_PASSWORD, OCI_USERNAME, Settings};
use olm_release_http::retry::RetryPolicy;
use olm_release_oci::{self as oci, Target};
use olm_release_olm::fbc::ObjectStyle;

/// An image target, and how to talk to it.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ImageJob {
    #[serde(serialize_with = "target_shown")]
    pub(crate) target: Target,
    /// The variables the credentials came from.
    pub(crate) credentials: Option<&'static str>,
    #[serde(skip)]
    pub(crate) secret: Option<oci::Credentials>,
    #[serde(skip)]
    pub(crate) insecure: bool,
    #[serde(skip)]
    pub(crate) retry: RetryPolicy,
}

fn target_shown<S: Serializer>(t: &Target, s: S) -> Result<S::Ok, S::Error> {
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
        matches!(&self.target, Target::Registry(r) if !olm_release_http::is_loopback(&r.base))
    }
}

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

/// Add the pushed bundle image to the catalog folder, validate the catalog, write it.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct CatalogStep {
    pub(crate) dir: PathBuf,
    pub(crate) package: String,
    pub(crate) channel: String,
    /// Every channel the release joins, `channel` first: the bundle gets an entry in each
    /// (an already-published bundle joining a channel gets its entry there).
    #[serde(skip_serializing_if = "single")]
    pub(crate) channels: Vec<String>,
    pub(crate) skips: Vec<String>,
    pub(crate) skip_range: Option<String>,
    /// How the entry carries the bundle's manifests (`catalog.bundle_objects`).
    #[serde(skip_serializing_if = "is_csv_metadata")]
    pub(crate) style: ObjectStyle,
    /// The catalog template the release is added to and rendered from (`catalog.template`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) template: Option<PathBuf>,
    /// What the release deprecates (`catalog.deprecate`), as `schema name: message`.
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        serialize_with = "deprecations_shown"
    )]
    pub(crate) deprecate: Vec<olm_release_olm::fbc::Deprecation>,
    pub(crate) force: bool,
    /// Show the catalog diff normally (a dry-run), not only with `-v`.
    #[serde(skip)]
    pub(crate) show_diff: bool,
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

/// The catalog step of `s`.
pub(crate) fn catalog_step(s: &Settings, package: String, channel: String) -> Option<CatalogStep> {
    let c = s.catalog.as_ref()?;
    Some(CatalogStep {
        dir: c.dir.clone(),
        channels: release_channels(s, &channel),
        package,
        channel,
        skips: c.skips.clone(),
        skip_range: c.skip_range.clone(),
        style: c.style,
        template: c.template.clone(),
        deprecate: c.deprecate.clone(),
        force: s.mode.force,
        show_diff: s.mode.dry_run,
    })
}

fn is_csv_metadata(style: &ObjectStyle) -> bool {
    *style == ObjectStyle::CsvMetadata
}

/// A deprecation as the plan shows it: `olm.bundle NAME: message`.
fn deprecation_shown(d: &olm_release_olm::fbc::Deprecation) -> String {
    use olm_release_olm::fbc::Deprecated;
    let what = match &d.what {
        Deprecated::Package => "olm.package".to_string(),
        Deprecated::Channel(n) => format!("olm.channel {n}"),
        Deprecated::Bundle(n) => format!("olm.bundle {n}"),
    };
    format!("{what}: {}", d.message)
}

fn deprecations_shown<S: Serializer>(
    d: &[olm_release_olm::fbc::Deprecation],
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_seq(d.iter().map(deprecation_shown))
}

/// Every channel of the release, `channel` first.
fn release_channels(s: &Settings, channel: &str) -> Vec<String> {
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

/// The plan's text lines of the catalog step.
pub(crate) fn show_catalog(c: &CatalogStep) -> Vec<String> {
    let mut out = vec![
        format!(
            "add the bundle by digest to {} (package {}, channel {}; replaces the channel head)",
            c.dir.display(),
            c.package,
            c.channel
        ),
        "validate the whole catalog (opm validate rules); write only what changed".to_string(),
    ];
    if c.style == ObjectStyle::BundleObjects {
        out.push("entry manifests as olm.bundle.object properties (catalog.bundle_objects)".into());
    }
    if let Some(t) = &c.template {
        out.push(format!(
            "add the bundle to the catalog template {} and render it into the catalog",
            t.display()
        ));
    }
    for d in &c.deprecate {
        out.push(format!("deprecate {}", deprecation_shown(d)));
    }
    if !c.skips.is_empty() {
        out.push(format!("skips: {}", c.skips.join(", ")));
    }
    if let Some(r) = &c.skip_range {
        out.push(format!("skipRange: {r}"));
    }
    out
}

/// One channel (or none): shown as `channel` alone (the serialised steps of this module's and
/// of `steps`).
pub(super) fn single(v: &[String]) -> bool {
    v.len() <= 1
}
