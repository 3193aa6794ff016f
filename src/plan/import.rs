//! `import`'s plan: one step that reads a package folder of OperatorHub's community layout,
//! publishes every version's bundle image and writes the package's catalog to any catalog
//! target (the catalog step's [`CatalogTarget`], opened and written by its store). Run by the same
//! executor as a pipeline, through the same gate.

use std::path::PathBuf;
use std::sync::Arc;

use serde::Serialize;

use super::document::{Header, Plan};
use super::images::ImageJob;
use super::steps::Step;
use crate::ci::CiContext;
use crate::error::{Problem, Problems};
use crate::settings::{CatalogTarget, OCI_USERNAME, RunMode};

/// What `import` is asked to do, resolved.
#[derive(Debug, Clone)]
pub(crate) struct ImportInputs {
    pub(crate) dir: PathBuf,
    pub(crate) image: ImageJob,
    pub(crate) name: String,
    /// The catalog target, built by settings from `--catalog` and its flags.
    pub(crate) catalog: CatalogTarget,
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
    pub(crate) target: Arc<CatalogTarget>,
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
    if let CatalogTarget::Git(g) = &m.catalog
        && let Some(p) = &g.pull_request
    {
        problems.extend(p.token_problem("--pull-request".to_string()));
    }
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
            target: Arc::new(m.catalog),
            epoch: m.epoch,
            force: m.mode.force,
            show_diff: m.mode.dry_run,
            limits: m.limits,
            style: m.style,
        }))],
    ))
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
