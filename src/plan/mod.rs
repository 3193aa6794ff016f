//! The plan is the program: [`Settings`](crate::settings::Settings) resolved once into an
//! ordered list of typed [`Step`]s, each carrying every input it needs, already checked.
//!
//! Only the builders here make a [`Plan`] ([`build`] for a pipeline, [`publish`] for a bundle
//! folder, [`migrate`] for `migrate`), and they enforce the stage order (render →
//! fetch-previous → package → verify → push, verify → bundle-image → catalog, release after
//! render), so the executor ([`crate::exec`]) can hand each step exactly the
//! typed output of the step before it. Every problem that can be known before anything runs —
//! a bad version or URL, a typo in `release.options`, a missing section or credential, an
//! asset that will not exist — is collected while building and reported all at once
//! ([`crate::error::Problems`], exit 2). What only a server can answer (do the credentials
//! work, does the repository exist) is the [`PreflightStep`], placed first so that it runs
//! before any write.
//!
//! `olm-release plan` prints a plan ([`show`]: text, or JSON through `Serialize`); `run`
//! prints it and executes the same value, so what is printed is what runs.

mod build;
mod checks;
mod images;
mod migrate;
mod notes;
mod publish;
mod release_step;
mod show;
mod steps;
mod time;

pub(crate) use build::{build, render_only};
pub(crate) use checks::{SUMS, github_keeps};
pub(crate) use images::{BundleImageStep, CatalogStep, ImageJob};
pub(crate) use migrate::{MigrateInputs, MigrateStep, migrate};
pub(crate) use notes::Notes;
pub(crate) use publish::{PublishInputs, publish};
pub(crate) use release_step::*;
pub(crate) use steps::*;

use serde::Serialize;

use crate::ci::CiContext;

/// The version of the plan's JSON form (`plan --format json`).
pub(crate) const JSON_VERSION: u32 = 1;

/// A pipeline's steps and what they are about.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Plan {
    /// Names this JSON document: `olm-release/plan`.
    pub(crate) schema: &'static str,
    /// [`JSON_VERSION`].
    pub(crate) schema_version: u32,
    pub(crate) header: Header,
    pub(crate) steps: Vec<Step>,
}

/// What a plan is about.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Header {
    /// The pipeline's name (`publish` for the publish command).
    pub(crate) pipeline: String,
    pub(crate) package: Option<String>,
    pub(crate) channel: Option<String>,
    pub(crate) version: String,
    pub(crate) dry_run: bool,
    pub(crate) force: bool,
    pub(crate) ci: CiContext,
    /// What the plan leaves out and why (e.g. a check a dry-run without credentials skips).
    pub(crate) notes: Vec<String>,
    /// What is probably wrong but stops nothing (a `--var` the pipeline never reads).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) warnings: Vec<String>,
}

impl Plan {
    pub(crate) fn new(header: Header, steps: Vec<Step>) -> Self {
        Plan {
            schema: "olm-release/plan",
            schema_version: JSON_VERSION,
            header,
            steps,
        }
    }

    pub(crate) fn header(&self) -> &Header {
        &self.header
    }

    pub(crate) fn steps(&self) -> &[Step] {
        &self.steps
    }
}
