//! The plan as a document: its header (what it is about) and its steps, printed by `plan`,
//! serialised for `plan --format json`, and executed by `run`.

use serde::Serialize;

use super::steps::Step;
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
