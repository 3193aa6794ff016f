//! The catalog step as the plan carries it, with the pipeline's one catalog target
//! ([`CatalogTarget`], built once by settings: a `dir:` folder, a folder of a git branch, or a
//! catalog image, each with what the executor needs to read it, write it and know whether
//! someone else wrote it meanwhile), and what the plan checks and shows of that target.
//!
//! fetch-previous reads the channel heads from the same target (a pipeline without
//! `registry:`), so the CSV in the bundle image and the catalog entry are decided against the
//! same catalog; the catalog step writes it with a compare-and-swap (`dir:` under the folder's
//! lock held since fetch-previous; git by a push without force; an image by moving the tag only
//! if it still names the digest read), and when another job won, the executor decides again.

use std::path::PathBuf;
use std::sync::Arc;

use olm_release_olm::fbc::swap::Patience;
use olm_release_olm::fbc::{Deprecated, Deprecation, ObjectStyle};
use serde::{Serialize, Serializer};

use super::images::release_channels;
use crate::error::Problem;
use crate::settings::{CatalogTarget, ImageTarget, OCI_PASSWORD, OCI_USERNAME, Settings};

/// Add the pushed bundle image to the catalog, validate the catalog, write it to its target.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct CatalogStep {
    /// The plan's one catalog target (fetch-previous reads the same value when it reads the
    /// catalog).
    #[serde(flatten)]
    pub(crate) target: Arc<CatalogTarget>,
    pub(crate) package: String,
    pub(crate) channel: String,
    /// Every channel the release joins, `channel` first: the bundle gets an entry in each
    /// (an already-published bundle joining a channel gets its entry there).
    #[serde(skip_serializing_if = "super::images::single")]
    pub(crate) channels: Vec<String>,
    pub(crate) skips: Vec<String>,
    pub(crate) skip_range: Option<String>,
    /// The pipeline's `default_channel`: the package's `defaultChannel` after the release (it
    /// wins over the catalog's, and the diff and a note show the change).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) default_channel: Option<String>,
    /// How the entry carries the bundle's manifests (`catalog.bundle_objects`; `None`: as the
    /// package's existing entries do, `olm.csv.metadata` for a new package).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) style: Option<ObjectStyle>,
    /// The catalog template the release is added to and rendered from (`catalog.template`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) template: Option<PathBuf>,
    /// What the release deprecates (`catalog.deprecate`), as `schema name: message`.
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        serialize_with = "deprecations_shown"
    )]
    pub(crate) deprecate: Vec<Deprecation>,
    pub(crate) force: bool,
    /// Show the catalog diff normally (a dry-run), not only with `-v`.
    #[serde(skip)]
    pub(crate) show_diff: bool,
    /// The app registry fetch-previous decided on (`LOCATION NAMESPACE/PACKAGE`), when it read
    /// one: a catalog read again after it moved must still agree with that decision.
    #[serde(skip)]
    pub(crate) agrees_with: Option<String>,
}

/// The pipeline's one catalog target, as settings built it, which fetch-previous reads and the
/// catalog step writes (`None`: no `catalog:` section, or its target is unusable; a problem
/// says why).
pub(crate) fn target(s: &Settings) -> Option<Arc<CatalogTarget>> {
    s.catalog.as_ref()?.target.clone()
}

/// fetch-previous reading the catalog (a pipeline without `registry:`): the plan's one catalog
/// target, which the catalog step writes.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct CatalogSource {
    #[serde(flatten)]
    pub(crate) target: Arc<CatalogTarget>,
}

/// fetch-previous's source when it reads the catalog.
pub(crate) fn fetch_source(s: &Settings) -> Option<CatalogSource> {
    Some(CatalogSource { target: target(s)? })
}

/// What stops the plan from using the catalog target: a pull request without a token, a
/// catalog image on a remote registry without credentials.
pub(crate) fn target_problems(s: &Settings) -> Vec<Problem> {
    let mut problems = Vec::new();
    let Some(target) = target(s) else {
        return problems;
    };
    match target.as_ref() {
        CatalogTarget::Git(g) => {
            if let Some(p) = &g.pull_request {
                problems.extend(p.token_problem(s.file.at(&["catalog", "pull_request"])));
            }
        }
        CatalogTarget::Image(i) => {
            if i.image.remote() && i.image.secret.is_none() && !s.mode.dry_run {
                problems.push(Problem::new(
                    OCI_USERNAME,
                    format!(
                        "pushing the catalog image to {} needs credentials: set {OCI_USERNAME} and {OCI_PASSWORD}",
                        i.image.target.describe()
                    ),
                ));
            }
        }
        CatalogTarget::Dir { .. } => {}
    }
    problems
}

/// The catalog step of `s`, writing the plan's one catalog target.
pub(crate) fn catalog_step(s: &Settings, package: String, channel: String) -> Option<CatalogStep> {
    let c = s.catalog.as_ref()?;
    let target = c.target.clone()?;
    let fetches = s
        .stages
        .contains(&crate::pipeline::StageName::FetchPrevious);
    let agrees_with = s.registry.as_ref().filter(|_| fetches).and_then(|r| {
        Some(format!(
            "{} {}/{package}",
            r.location.as_ref()?,
            r.namespace
        ))
    });
    Some(CatalogStep {
        agrees_with,
        target,
        channels: release_channels(s, &channel),
        package,
        channel,
        skips: c.skips.clone(),
        skip_range: c.skip_range.clone(),
        default_channel: s.default_channel.clone(),
        style: c.content.style,
        template: c.content.template.clone(),
        deprecate: c.content.deprecate.clone(),
        force: s.mode.force,
        show_diff: s.mode.dry_run,
    })
}

/// The plan's text lines of the catalog step.
pub(crate) fn show_catalog(c: &CatalogStep) -> Vec<String> {
    let mut out = vec![format!(
        "add the bundle by digest to {} (package {}, channel {}; replaces the channel head)",
        c.target.describe(),
        c.package,
        c.channel
    )];
    out.extend(show_target(&c.target));
    if c.style == Some(ObjectStyle::BundleObjects) {
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
    if let Some(d) = &c.default_channel {
        out.push(format!("defaultChannel: {d}"));
    }
    out
}

/// A deprecation as the plan shows it: `olm.bundle NAME: message`.
fn deprecation_shown(d: &Deprecation) -> String {
    let what = match &d.what {
        Deprecated::Package => "olm.package".to_string(),
        Deprecated::Channel(n) => format!("olm.channel {n}"),
        Deprecated::Bundle(n) => format!("olm.bundle {n}"),
    };
    format!("{what}: {}", d.message)
}

fn deprecations_shown<S: Serializer>(d: &[Deprecation], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(d.iter().map(deprecation_shown))
}

/// The plan's lines on how a catalog target is validated and written (the catalog step's and
/// `import`'s).
pub(crate) fn show_target(target: &CatalogTarget) -> Vec<String> {
    let mut out = Vec::new();
    match target {
        CatalogTarget::Dir { .. } => out.push(
            "validate the whole catalog (opm validate rules); write only what changed".to_string(),
        ),
        CatalogTarget::Git(g) if g.pull_request.is_some() => {
            let p = g.pull_request.as_ref().expect("matched");
            out.push(
                "validate the whole catalog (opm validate rules); propose only what changed"
                    .to_string(),
            );
            out.push(format!(
                "pull request \"{}\" on {} from {}:{}{} through {}; a rerun finds it, a merged one means nothing to do",
                p.title,
                p.repository,
                p.fork,
                p.branch,
                if p.draft { " (draft)" } else { "" },
                p.api
            ));
            out.push(format!(
                "commit as {} (date {}); credentials: {}",
                g.commit.author,
                super::time::format_time(g.commit.date),
                p.credentials.unwrap_or("none")
            ));
        }
        CatalogTarget::Git(g) => {
            out.push(
                "validate the whole catalog (opm validate rules); commit only what changed"
                    .to_string(),
            );
            out.push(format!(
                "commit as {} (date {}), push without force; when the branch moved meanwhile, {}",
                g.commit.author,
                super::time::format_time(g.commit.date),
                again(&g.patience)
            ));
            out.push(format!("credentials: {}", g.credentials.unwrap_or("none")));
        }
        CatalogTarget::Image(i) => out.extend(show_image(i)),
    }
    out
}

/// What a job does when the target moved meanwhile, as the plan says it.
pub(crate) fn again(p: &Patience) -> String {
    let count = p
        .retries
        .map(|n| format!(", at most {n} time(s)"))
        .unwrap_or_default();
    format!(
        "apply the change again on the new head (only other packages changed) or decide again (its package changed), for up to {} s{count}",
        p.deadline.as_secs()
    )
}

/// The plan's text lines of a catalog-image target.
fn show_image(j: &ImageTarget) -> Vec<String> {
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
            again(&j.patience)
        ),
    ];
    out.push(format!(
        "credentials: {}",
        j.image.credentials.unwrap_or("none")
    ));
    out
}

/// Whether the pipeline publishes a catalog image (a catalog stage with an `image:` target).
pub(crate) fn publishes_image(s: &Settings) -> bool {
    s.stages.contains(&crate::pipeline::StageName::Catalog)
        && s.catalog.as_ref().and_then(|c| c.kind) == Some("image")
}
