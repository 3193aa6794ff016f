//! The stage engine: runs the pipeline's stages in order over one shared [`State`].
//!
//! Each stage is a module with one `run(&mut Ctx)` function that reads what earlier stages left
//! in the state and adds its own result. Writes to the outside world (the registry, the release
//! target) go through [`Ctx::may_write`], the one choke point where `--dry-run` skips them and
//! says what it skipped; everything else (rendering, fetching, packaging, validating) runs in
//! both modes, so a dry-run proves what a real run would do.

pub mod fetch_previous;
pub mod package;
pub mod push;
pub mod release;
pub mod render;
pub mod verify;

use std::path::PathBuf;
use std::time::Instant;

use crate::error::{Error, Result};
use crate::olm::archive::Packed;
use crate::olm::{Bundle, Finding};
use crate::pipeline::StageName;
use crate::registry::Registry;
use crate::report::{Reporter, Write};
use crate::settings::Settings;

/// What the render stage produced.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The folder the files were written to.
    pub dir: PathBuf,
    /// Every rendered file, relative to `dir`.
    pub files: Vec<RenderedFile>,
    /// The bundle as rendered: the new CSV (first), its CRDs and the package file.
    pub bundle: Bundle,
    /// `metadata.name` of the new CSV.
    pub csv_name: String,
    /// Problems in the inputs that rendering noticed.
    pub findings: Vec<Finding>,
}

#[derive(Debug, Clone)]
pub struct RenderedFile {
    /// Path relative to the render folder, e.g. `bundle/sample-operator.v0.1.0.clusterserviceversion.yaml`.
    pub path: String,
    /// Whether the file is part of the bundle.
    pub in_bundle: bool,
}

/// What fetch-previous decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Nothing published for the channel yet: no `replaces`.
    First { reason: String },
    /// The new CSV replaces the channel head.
    Replaces { head: String, head_release: String },
    /// This version is already the channel head: re-publishing the same release.
    SameVersion { release: String },
    /// The version is below the channel head; the policy says publish nothing.
    SkipOlder { head: String },
}

/// The packaged bundle.
#[derive(Debug, Clone)]
pub struct Packaged {
    pub bundle: Bundle,
    /// The flat bundle folder (for `operator-courier verify` and people).
    pub dir: PathBuf,
    /// The `.tar.gz` file.
    pub tarball: PathBuf,
    pub packed: Packed,
}

/// What the stages hand on to each other.
#[derive(Debug, Default)]
pub struct State {
    pub rendered: Option<Rendered>,
    /// The bundle to publish: the rendered one plus what fetch-previous carried over.
    pub bundle: Option<Bundle>,
    pub decision: Option<Decision>,
    pub packaged: Option<Packaged>,
    /// Set when the run has concluded there is nothing to publish (e.g. an older z-stream with
    /// policy `skip`); later stages that write are skipped.
    pub nothing_to_publish: Option<String>,
}

/// Everything a stage may use.
pub struct Ctx<'a> {
    pub settings: &'a Settings,
    pub report: &'a Reporter,
    pub registry: Registry,
    pub state: State,
}

impl Ctx<'_> {
    /// The one place where writes are allowed or skipped. Returns true when the caller should
    /// perform the write; in a dry-run, records and prints what would have been written.
    pub fn may_write(&self, write: Write) -> bool {
        may_write(self.report, self.settings.dry_run, write)
    }

    /// The output folder of this run.
    pub fn out(&self) -> &std::path::Path {
        &self.settings.out
    }

    pub fn rendered(&self) -> Result<&Rendered> {
        self.state
            .rendered
            .as_ref()
            .ok_or_else(|| Error::stage("internal: render has not run"))
    }

    pub fn packaged(&self) -> Result<&Packaged> {
        self.state
            .packaged
            .as_ref()
            .ok_or_else(|| Error::stage("internal: package has not run"))
    }
}

/// The choke point itself, for code that writes outside a pipeline's [`Ctx`] (the
/// `publish` command runs the push stage's logic on its own arguments).
pub fn may_write(report: &Reporter, dry_run: bool, write: Write) -> bool {
    if dry_run {
        report.skipped(write);
        false
    } else {
        true
    }
}

/// Runs the stages in order, stopping at the first failure.
pub async fn run_all(ctx: &mut Ctx<'_>) -> Result<()> {
    let stages = ctx.settings.stages.clone();
    for stage in stages {
        ctx.report.stage_start(stage.as_str());
        let started = Instant::now();
        let result = run_one(ctx, stage).await;
        ctx.report
            .stage_end(stage.as_str(), started.elapsed(), result.is_ok());
        result.map_err(|e| e.context(format!("stage {stage}")))?;
    }
    Ok(())
}

async fn run_one(ctx: &mut Ctx<'_>, stage: StageName) -> Result<()> {
    match stage {
        StageName::Render => render::run(ctx).await,
        StageName::FetchPrevious => fetch_previous::run(ctx).await,
        StageName::Package => package::run(ctx).await,
        StageName::Verify => verify::run(ctx).await,
        StageName::Push => push::run(ctx).await,
        StageName::Release => release::run(ctx).await,
    }
}
