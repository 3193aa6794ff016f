//! `import`'s plan: one step that reads a package folder of OperatorHub's community layout,
//! publishes every version's bundle image and writes the package's catalog to any catalog
//! target (the catalog step's [`TargetJob`], opened and written by its store). Run by the same
//! executor as a pipeline, through the same gate.

use std::path::PathBuf;
use std::sync::Arc;

use serde::Serialize;

use super::catalog::{GitJob, PullJob, TargetJob, pull_token};
use super::catalog_image::CatalogImageJob;
use super::document::{Header, Plan};
use super::images::ImageJob;
use super::steps::Step;
use crate::ci::CiContext;
use crate::error::{Problem, Problems};
use crate::settings::{CatalogTarget, GIT_CREDENTIALS, OCI_USERNAME, RunMode};
use olm_release_oci::ImageLocation;

/// What `import` is asked to do, resolved.
#[derive(Debug, Clone)]
pub(crate) struct ImportInputs {
    pub(crate) dir: PathBuf,
    pub(crate) image: ImageJob,
    pub(crate) name: String,
    pub(crate) catalog: CatalogTarget,
    pub(crate) git: Option<olm_release_git::Credentials>,
    /// `GITHUB_TOKEN` or `GH_TOKEN`, for a catalog proposed as a pull request.
    pub(crate) github: Option<olm_release_base::Secret>,
    pub(crate) base_limits: olm_release_oci::catalog_image::BaseLimits,
    /// Where a git or image catalog is read into.
    pub(crate) scratch: PathBuf,
    pub(crate) epoch: u64,
    pub(crate) mode: RunMode,
    pub(crate) ci: CiContext,
    pub(crate) limits: olm_release_olm::archive::Limits,
    pub(crate) style: olm_release_olm::fbc::ObjectStyle,
}

/// Import a package folder: every version's bundle image, then the package's catalog, once.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ImportStep {
    /// The package folder (`operators/PACKAGE`).
    pub(crate) dir: PathBuf,
    pub(crate) image: ImageJob,
    /// The name the catalog pins by digest; each version's image is tagged with its version.
    pub(crate) name: String,
    #[serde(flatten)]
    pub(crate) target: Arc<TargetJob>,
    /// Tar entry times and the config's `created`.
    pub(crate) epoch: u64,
    pub(crate) force: bool,
    #[serde(skip)]
    pub(crate) show_diff: bool,
    /// Limits on reading each version folder (`--max-bundle-bytes`).
    #[serde(skip)]
    pub(crate) limits: olm_release_olm::archive::Limits,
    /// How entries carry their manifests (`--bundle-objects`).
    pub(crate) style: olm_release_olm::fbc::ObjectStyle,
}

/// The plan of `import`.
pub(crate) fn import(m: ImportInputs) -> Result<Plan, Problems> {
    let mut problems = Vec::new();
    if m.image.remote() && m.image.secret.is_none() && !m.mode.dry_run {
        problems.push(Problem::new(
            OCI_USERNAME,
            format!(
                "pushing bundle images to {} needs credentials: set OCI_USERNAME and OCI_PASSWORD",
                m.image.target.describe()
            ),
        ));
    }
    let scratch = m
        .scratch
        .join(format!("olm-release-import-{}", std::process::id()));
    let package = m
        .dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let target = match m.catalog {
        CatalogTarget::Dir(dir) => TargetJob::Dir { dir },
        CatalogTarget::Git(g) => TargetJob::Git(Box::new(GitJob {
            pull_request: g.pull_request.as_ref().map(|pr| {
                let job = PullJob {
                    api: pr.api.clone(),
                    repository: format!("{}/{}", pr.repository.0, pr.repository.1),
                    fork: format!("{}/{}", pr.fork.0, pr.fork.1),
                    branch: format!("olm-release/{package}-import"),
                    title: format!("{package}: import every version into the catalog"),
                    draft: false,
                    credentials: m.github.as_ref().map(|_| "GITHUB_TOKEN or GH_TOKEN"),
                    token: m.github.clone(),
                };
                problems.extend(pull_token(&job, "--pull-request".to_string()));
                job
            }),
            git: g.url,
            branch: g.branch,
            path: g.path,
            author: format!("{} <{}>", g.author.0, g.author.1),
            name: g.author.0,
            email: g.author.1,
            date: m.epoch,
            credentials: m.git.as_ref().map(|_| GIT_CREDENTIALS),
            secret: m.git,
            patience: patience(),
            budget: olm_release_http::retry::RetryPolicy::default().max_total,
            scratch: scratch.join("catalog-git"),
        })),
        CatalogTarget::Image(i) => {
            let Some((base, base_digest)) = i.base else {
                return Err(Problems(problems));
            };
            let image = ImageJob {
                target: i.target,
                credentials: m.image.credentials,
                secret: m.image.secret.clone(),
                insecure: i.insecure,
                retry: Default::default(),
            };
            TargetJob::Image(Box::new(CatalogImageJob {
                base_shown: match &base {
                    ImageLocation::Remote(r) => r.pinned(&base_digest),
                    ImageLocation::Layout(_) => format!("{}@{base_digest}", base.describe()),
                },
                base,
                base_digest,
                image,
                tag: i.tag,
                epoch: m.epoch,
                patience: patience(),
                base_limits: m.base_limits,
                scratch: scratch.join("catalog-image"),
            }))
        }
    };
    if !problems.is_empty() {
        return Err(Problems(problems));
    }
    Ok(Plan::new(
        Header {
            pipeline: "import".into(),
            package: m.dir.file_name().map(|n| n.to_string_lossy().into_owned()),
            channel: None,
            version: "every version".into(),
            dry_run: m.mode.dry_run,
            force: m.mode.force,
            ci: m.ci,
            notes: Vec::new(),
            warnings: Vec::new(),
        },
        vec![Step::Import(Box::new(ImportStep {
            dir: m.dir,
            image: m.image,
            name: m.name,
            target: Arc::new(target),
            epoch: m.epoch,
            force: m.mode.force,
            show_diff: m.mode.dry_run,
            limits: m.limits,
            style: m.style,
        }))],
    ))
}

/// How long a job tries again after another job moved the target: the import does not try
/// again (a moved target stops it, and a rerun writes what is left), so the defaults only
/// describe the target.
fn patience() -> olm_release_olm::fbc::swap::Patience {
    olm_release_olm::fbc::swap::Patience {
        deadline: crate::settings::DEFAULT_PUBLISH_DEADLINE,
        retries: Some(0),
    }
}

/// The plan's text lines of the import step.
pub(crate) fn show(m: &ImportStep) -> Vec<String> {
    let mut lines = vec![
        format!(
            "read the package folder {} (community layout: ci.yaml, one bundle folder per version, catalog-templates/)",
            m.dir.display()
        ),
        format!(
            "push one bundle image per version to {} (tag: the version){}; catalog name {}",
            m.image.target.describe(),
            if m.force { " (--force)" } else { "" },
            m.name
        ),
    ];
    lines.extend(super::catalog::show_target(&m.target));
    lines.push(
        "add every version in SemVer order (its own replaces, skips and olm.skipRange; the template's channels where the package has one), validate, write once".into(),
    );
    lines
}
