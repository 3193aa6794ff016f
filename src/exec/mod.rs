//! The executor: runs a [`Plan`]'s steps in order, with one `match`.
//!
//! Each step is a function in its own module that takes its [`Step`](crate::plan::Step) data
//! and the typed output of the step before it, and returns its own: render → [`Rendered`],
//! fetch-previous → [`Assembled`], package → [`Packaged`], verify → [`Verified`], bundle-image
//! → [`Imaged`] (kept beside the verified bundle, which the catalog step reads); push, catalog
//! and release read what they need and pass the value on, and so do the preflight and migrate
//! (which starts from nothing). The executor
//! keeps the previous output in [`Carried`] and pairs it with the next step in `run_step`;
//! since only the plan builders make plans, and they enforce the stage order, every pair the
//! builder can produce has its arm (a unit test runs every stage list the builder accepts),
//! and a pair it cannot is an internal error, never a half-run stage.
//!
//! Writes to the outside world (the registry, the image target, the catalog folder, the
//! release target) go through the [`context::RunGate`], the one choke point where `--dry-run` skips
//! them and records what it skipped; everything else (rendering, fetching, packaging,
//! validating, building the bundle image) runs in both modes, so a dry-run proves what a real
//! run would do. Clients are opened on first use, once per run. Ctrl-C ends the step at its
//! next await point and says what was written ([`interrupt`]).
//!
//! Racing jobs: a run that pushes to a `dir:` registry holds the package's publication lock from
//! fetch-previous to the end of the push; on an app registry the push step checks after writing
//! that no concurrently published release forks the channel (`converge`).

mod agree;
mod bundle_image;
mod catalog;
mod context;
mod converge;
mod errors;
mod fetch_previous;
mod interrupt;
mod migrate;
mod outputs;
mod package;
mod preflight;
mod push;
mod push_release;
mod release_assets;
pub(crate) mod render;
#[cfg(test)]
mod tests;
mod verify;

use std::sync::Arc;
use std::time::Instant;

use context::Exec;
pub(crate) use interrupt::Interrupted;
pub(crate) use outputs::{Assembled, AssetSources, Imaged, Packaged, RenderedFiles, Verified};
pub use outputs::{Rendered, RenderedFile};

use crate::error::{Error, Result};
use crate::plan::{FetchSource, Plan, Step};
use crate::report::Reporter;
use olm_release_olm::archive::Contents;

/// What the previous step handed on.
enum Carried {
    /// Nothing yet (the first step, or steps that only check).
    Start,
    Rendered(Rendered),
    Assembled(Assembled),
    Packaged(Packaged),
    Verified(Verified),
    /// The verified bundle and its pushed image (`None`: skipped as older than the head).
    Imaged(Verified, Option<Imaged>),
}

impl Carried {
    fn name(&self) -> &'static str {
        match self {
            Carried::Start => "the start",
            Carried::Rendered(_) => "render",
            Carried::Assembled(_) => "fetch-previous",
            Carried::Packaged(_) => "package",
            Carried::Verified(_) => "verify",
            Carried::Imaged(..) => "bundle-image",
        }
    }

    /// Where the release step finds its files, whatever ran before it.
    fn sources(&self) -> AssetSources<'_> {
        match self {
            Carried::Start => AssetSources::default(),
            Carried::Rendered(r) => AssetSources {
                rendered: Some(r.borrowed()),
                bundle_folder: None,
                summary: None,
            },
            Carried::Assembled(a) => AssetSources {
                rendered: Some(a.files.borrowed()),
                bundle_folder: None,
                summary: a.basis.summary.as_deref(),
            },
            Carried::Packaged(p) => AssetSources {
                rendered: p.files.as_ref().map(RenderedFiles::borrowed),
                bundle_folder: p.folder.as_deref(),
                summary: p.basis.as_ref().and_then(|b| b.summary.as_deref()),
            },
            Carried::Verified(v) | Carried::Imaged(v, _) => AssetSources {
                rendered: v.files.as_ref().map(RenderedFiles::borrowed),
                bundle_folder: v.folder.as_deref(),
                summary: v.basis.as_ref().and_then(|b| b.summary.as_deref()),
            },
        }
    }
}

/// Runs every step of `plan`, stopping at the first failure.
pub(crate) async fn execute(plan: &Plan, report: &Arc<Reporter>) -> Result<()> {
    let exec = Exec::new(plan, report);
    let mut carried = Carried::Start;
    let mut interrupt = interrupt::Listener::start();
    for step in plan.steps() {
        let name = step.name();
        report.stage_start(name);
        let started = Instant::now();
        let result = tokio::select! {
            r = run_step(&exec, step, carried) => r,
            () = interrupt.received() => {
                report.stage_end(name, started.elapsed(), false);
                let written = report.written();
                return Err(Interrupted { step: name, written }.into());
            }
        };
        report.stage_end(name, started.elapsed(), result.is_ok());
        carried = result.map_err(|e| Error::step(name, e))?;
    }
    Ok(())
}

/// The one match: each step with the output it consumes.
async fn run_step(exec: &Exec<'_>, step: &Step, carried: Carried) -> Result<Carried> {
    let report: &Reporter = exec.report;
    Ok(match (step, carried) {
        (Step::Preflight(s), c) => {
            preflight::run(s, exec).await?;
            c
        }
        (Step::Render(s), Carried::Start) => Carried::Rendered(render::run(s, report)?),
        (Step::FetchPrevious(s), Carried::Rendered(r)) => match &s.source {
            FetchSource::Catalog { dir } => {
                Carried::Assembled(fetch_previous::catalog::run(s, dir, report, r)?)
            }
            FetchSource::Registry {
                registry: job,
                namespace,
            } => {
                let registry = exec.registry(job)?;
                exec.hold(registry, namespace, &s.package)?;
                let assembled = fetch_previous::run(s, namespace, registry, report, r).await?;
                if let Some(catalog) = exec.plan.steps().iter().find_map(|step| match step {
                    Step::Catalog(c) => Some(c),
                    _ => None,
                }) {
                    let at = format!("{} {namespace}/{}", registry.describe(), s.package);
                    agree::check(catalog, &assembled, &at, report)?;
                }
                Carried::Assembled(assembled)
            }
        },
        (Step::Package(s), Carried::Rendered(r)) => {
            let (files, contents) = r.split();
            let input = package::Input::Pipeline {
                files,
                contents,
                decision: None,
                basis: None,
            };
            Carried::Packaged(package::run(s, report, input)?)
        }
        (Step::Package(s), Carried::Assembled(a)) => {
            let input = package::Input::Pipeline {
                files: a.files,
                contents: Contents {
                    bundle: a.bundle,
                    objects: a.objects,
                },
                decision: Some(a.decision),
                basis: Some(a.basis),
            };
            Carried::Packaged(package::run(s, report, input)?)
        }
        // `publish` (one release) starts with a package step; `publish --history` starts
        // the next release's package step after the previous one's push.
        (Step::Package(s), Carried::Start | Carried::Verified(_)) => {
            Carried::Packaged(package::run(s, report, package::Input::Folder)?)
        }
        (Step::Verify(s), Carried::Packaged(p)) => Carried::Verified(verify::run(s, report, p)?),
        (Step::Push(s), Carried::Verified(v)) => {
            let registry = exec.registry(&s.registry)?;
            let cx = converge::Context::new(exec.plan, s, registry, report, &exec.gate);
            let v = push::run(&cx, v).await;
            exec.held.take();
            Carried::Verified(v?)
        }
        (Step::Push(s), Carried::Imaged(v, i)) => {
            let registry = exec.registry(&s.registry)?;
            let cx = converge::Context::new(exec.plan, s, registry, report, &exec.gate);
            let v = push::run(&cx, v).await;
            exec.held.take();
            Carried::Imaged(v?, i)
        }
        (Step::BundleImage(s), Carried::Verified(v)) => {
            let store = exec.image(&s.image)?;
            let image = bundle_image::run(s, store, report, &exec.gate, &v).await?;
            Carried::Imaged(v, image)
        }
        (Step::Catalog(s), Carried::Imaged(v, i)) => {
            match &i {
                Some(image) => catalog::run(s, report, &exec.gate, image)?,
                None => report.info("no bundle image to add (policy 'skip')"),
            }
            Carried::Imaged(v, i)
        }
        (Step::Migrate(s), Carried::Start) => {
            let registry = exec.registry(&s.registry)?;
            let store = exec.image(&s.image)?;
            migrate::run(s, registry, store, report, &exec.gate).await?;
            Carried::Start
        }
        (Step::Release(s), c) => {
            release_assets::run(s, exec, &exec.gate, c.sources()).await?;
            c
        }
        (step, c) => {
            return Err(Error::internal(format!(
                "the plan runs {} after {}, which the plan builder must not allow",
                step.name(),
                c.name()
            )));
        }
    })
}
