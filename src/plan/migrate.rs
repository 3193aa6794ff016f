//! `migrate`'s plan: one step that reads every release of a package from an app registry,
//! publishes one bundle image per CSV and writes the file-based catalog that keeps the same
//! upgrade graph. Run by the same executor as a pipeline, through the same gate.

use std::path::PathBuf;

use super::checks;
use super::document::{Header, Plan};
use super::images::ImageJob;
use super::steps::{MigrateStep, RegistryJob, Step};
use crate::ci::CiContext;
use crate::error::{Problem, Problems};
use crate::settings::RunMode;

/// What `migrate` is asked to do, resolved.
#[derive(Debug, Clone)]
pub(crate) struct MigrateInputs {
    pub(crate) registry: RegistryJob,
    pub(crate) namespace: String,
    pub(crate) package: String,
    pub(crate) image: ImageJob,
    pub(crate) name: String,
    pub(crate) catalog: PathBuf,
    pub(crate) epoch: u64,
    pub(crate) mode: RunMode,
    pub(crate) ci: CiContext,
    pub(crate) limits: olm_release_olm::archive::Limits,
    /// How entries carry their manifests (`--bundle-objects`).
    pub(crate) style: olm_release_olm::fbc::ObjectStyle,
}

/// The plan of `migrate`.
pub(crate) fn migrate(m: MigrateInputs) -> Result<Plan, Problems> {
    let mut problems = checks::registry_credentials(&m.registry, true, "--registry");
    if m.image.remote() && m.image.secret.is_none() && !m.mode.dry_run {
        problems.push(Problem::new(
            crate::settings::OCI_USERNAME,
            format!(
                "pushing bundle images to {} needs credentials: set OCI_USERNAME and OCI_PASSWORD",
                m.image.target.describe()
            ),
        ));
    }
    if !problems.is_empty() {
        return Err(Problems(problems));
    }
    Ok(Plan::new(
        Header {
            pipeline: "migrate".into(),
            package: Some(m.package.clone()),
            channel: None,
            version: "every release".into(),
            dry_run: m.mode.dry_run,
            force: m.mode.force,
            ci: m.ci,
            notes: Vec::new(),
            warnings: Vec::new(),
        },
        vec![Step::Migrate(Box::new(MigrateStep {
            registry: m.registry,
            namespace: m.namespace,
            package: m.package,
            image: m.image,
            name: m.name,
            catalog: m.catalog,
            epoch: m.epoch,
            force: m.mode.force,
            show_diff: m.mode.dry_run,
            limits: m.limits,
            style: m.style,
        }))],
    ))
}

/// The plan's text lines of the migrate step.
pub(crate) fn show(m: &MigrateStep) -> Vec<String> {
    vec![
        format!(
            "read every release of {} {}/{}",
            m.registry.location, m.namespace, m.package
        ),
        format!(
            "push one bundle image per CSV to {} (tag: the CSV's version){}; catalog name {}",
            m.image.target.describe(),
            if m.force { " (--force)" } else { "" },
            m.name
        ),
        format!(
            "write the catalog {} with the same upgrade graph; validate it first",
            m.catalog.display()
        ),
    ]
}
