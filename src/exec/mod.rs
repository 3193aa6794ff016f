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
//! that no concurrently published release forks the channel (`converge`). A catalog store is
//! opened once per decision ([`catalog_target::Snapshot`], a `dir:` folder locked until the
//! catalog step), held by the executor in the run's [`Session`](context::Session) and written
//! with a compare-and-swap. When another job moved it meanwhile, the one retry loop here tries
//! again after a pause that doubles each time (with jitter), until `catalog.publish_deadline_seconds`
//! after the first lost swap (and at most `catalog.retries` times, when given;
//! [`swap::pause`]). When only other packages moved ([`swap::after_move`]), the catalog step
//! applies the same change again on a fresh read: no new decision, no new bundle image. When
//! the release's own package moved, the decision is taken again: from fetch-previous with
//! render's output when fetch-previous decided on the catalog, so the CSV in the bundle image
//! and the catalog entry always agree; else the catalog step adds the entry again, once the
//! fresh read still agrees with the app registry's decision.

mod bundle_image;
mod catalog;
mod catalog_target;
mod context;
mod converge;
mod fetch_previous;
mod import;
mod interrupt;
mod migrate;
mod olm_v1_install;
mod operatorhub;
mod outputs;
mod package;
mod preflight;
pub(crate) mod preview;
mod push;
mod push_release;
mod release_assets;
mod release_check;
pub(crate) mod render;
#[cfg(test)]
mod tests;
mod verify;

use std::sync::Arc;
use std::time::Instant;

use context::{Exec, Session};
pub(crate) use interrupt::Interrupted;
pub(crate) use outputs::{Assembled, AssetSources, Imaged, Packaged, RenderedFiles, Verified};
pub use outputs::{Rendered, RenderedFile};

use crate::error::{Error, Result};
use crate::plan::{FetchSource, Plan, Step};
use crate::report::Reporter;
use olm_release_olm::archive::Contents;
use olm_release_olm::fbc::swap::{self, Patience, Retry};

/// What the previous step handed on.
enum Carried {
    /// Nothing yet (the first step, or steps that only check).
    Start,
    Rendered(Rendered),
    Assembled(Assembled),
    Packaged(Packaged),
    Verified(Verified),
    /// The verified bundle and its pushed image (`None`: skipped as older than the head).
    Imaged(Verified, Option<Box<Imaged>>),
    /// The catalog target moved since it was read: decide again, or add the entry again to
    /// `back` (what the catalog step was given).
    Moved {
        reason: String,
        /// The target, as messages name it, and how long and often to try again.
        target: String,
        patience: Patience,
        /// Apply the same change again, or decide again.
        retry: Retry,
        back: Box<Carried>,
    },
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
            Carried::Moved { .. } => "catalog",
        }
    }

    /// The verified bundle, and whether its bundle image was pushed (the step after
    /// bundle-image).
    fn verified(&self) -> Option<(&Verified, bool)> {
        match self {
            Carried::Verified(v) => Some((v, false)),
            Carried::Imaged(v, _) => Some((v, true)),
            _ => None,
        }
    }

    /// Where the release step finds its files, whatever ran before it.
    fn sources(&self) -> AssetSources<'_> {
        match self {
            Carried::Start | Carried::Moved { .. } => AssetSources::default(),
            Carried::Rendered(r) => AssetSources {
                rendered: Some(r.borrowed()),
                bundle_folder: None,
                summary: None,
                olm_v1: None,
            },
            Carried::Assembled(a) => AssetSources {
                rendered: Some(a.files.borrowed()),
                bundle_folder: None,
                summary: a.basis.summary.as_deref(),
                olm_v1: None,
            },
            Carried::Packaged(p) => AssetSources {
                rendered: p.files.as_ref().map(RenderedFiles::borrowed),
                bundle_folder: p.folder.as_deref(),
                summary: p.basis.as_ref().and_then(|b| b.summary.as_deref()),
                olm_v1: None,
            },
            Carried::Verified(v) | Carried::Imaged(v, _) => AssetSources {
                rendered: v.files.as_ref().map(RenderedFiles::borrowed),
                bundle_folder: v.folder.as_deref(),
                summary: v.basis.as_ref().and_then(|b| b.summary.as_deref()),
                olm_v1: v.olm_v1_install.as_deref(),
            },
        }
    }
}

/// Runs every step of `plan`, stopping at the first failure. When the catalog step finds that
/// another job moved the catalog target since it was read, the steps from fetch-previous on
/// run again with render's output, on a fresh read of the target (fetch-previous decided on the
/// catalog), or the catalog step runs again on a fresh read (it decided on the app registry).
pub(crate) async fn execute(plan: &Plan, report: &Arc<Reporter>) -> Result<()> {
    let exec = Exec::new(plan, report);
    let steps = plan.steps();
    let mut carried = Carried::Start;
    let mut session = Session::default();
    let mut interrupt = interrupt::Listener::start();
    // Where fetch-previous (reading a catalog target) is, with render's output, for a rewind.
    let mut rewind: Option<(usize, Rendered)> = None;
    let mut round: u32 = 1;
    // When this job first lost a compare-and-swap of the catalog: the deadline counts from it.
    let mut first_lost: Option<Instant> = None;
    // Whether the release step was asked what it would refuse (before the first write).
    let mut release_checked = false;
    let mut i = 0;
    while let Some(step) = steps.get(i) {
        let name = step.name();
        if let (Step::FetchPrevious(f), Carried::Rendered(r)) = (step, &carried)
            && matches!(f.source, FetchSource::Catalog(_))
        {
            rewind = Some((i, r.clone()));
        }
        if !release_checked && release_check::writes(step) {
            let checked = tokio::select! {
                r = release_check::before_first_write(&exec, step, carried.verified(), carried.sources()) => r,
                () = interrupt.received() => {
                    let written = report.written();
                    return Err(Interrupted { step: "preflight", written }.into());
                }
            };
            checked.map_err(|e| Error::step("preflight", e))?;
            release_checked = true;
        }
        report.stage_start(name);
        let started = Instant::now();
        let result = tokio::select! {
            r = run_step(&exec, step, carried, &mut session) => r,
            () = interrupt.received() => {
                report.stage_end(name, started.elapsed(), false);
                let written = report.written();
                return Err(Interrupted { step: name, written }.into());
            }
        };
        report.stage_end(name, started.elapsed(), result.is_ok());
        match result.map_err(|e| Error::step(name, e))? {
            Carried::Moved {
                reason,
                target,
                patience,
                retry,
                back,
            } => {
                let since = *first_lost.get_or_insert_with(Instant::now);
                let jitter = olm_release_http::retry::jitter();
                let Some(wait) = swap::pause(&patience, round, since.elapsed(), jitter) else {
                    let e = catalog_target::TargetError::Moved {
                        target,
                        attempts: round,
                        seconds: since.elapsed().as_secs_f64(),
                        reason,
                    };
                    return Err(Error::step(name, e.into()));
                };
                round += 1;
                let again = match (&retry, &rewind) {
                    (Retry::Reapply, _) => {
                        "only other packages changed there; applying this release's change again on the new head".to_string()
                    }
                    (Retry::Decide { because }, Some(_)) => {
                        format!("{because}; deciding again on what it published")
                    }
                    (Retry::Decide { because }, None) => {
                        format!("{because}; adding the entry again")
                    }
                };
                let of = match patience.retries {
                    Some(n) => format!(" of {}", n + 1),
                    None => format!(", for up to {} s", patience.deadline.as_secs()),
                };
                report.note(&format!(
                    "{reason}: another job published meanwhile; {again} (attempt {round}{of}, after {} ms)",
                    wait.as_millis()
                ));
                tokio::select! {
                    () = tokio::time::sleep(wait) => {}
                    () = interrupt.received() => {
                        let written = report.written();
                        return Err(Interrupted { step: name, written }.into());
                    }
                }
                match (retry, rewind.clone()) {
                    (Retry::Decide { .. }, Some((at, rendered))) => {
                        carried = Carried::Rendered(rendered);
                        i = at;
                    }
                    _ => carried = *back,
                }
            }
            c => {
                carried = c;
                i += 1;
            }
        }
    }
    Ok(())
}

/// The one match: each step with the output it consumes.
async fn run_step(
    exec: &Exec<'_>,
    step: &Step,
    carried: Carried,
    session: &mut Session,
) -> Result<Carried> {
    let report: &Reporter = exec.report;
    Ok(match (step, carried) {
        (Step::Preflight(s), c) => {
            preflight::run(s, exec).await?;
            c
        }
        (Step::Render(s), Carried::Start) => Carried::Rendered(render::run(s, report)?),
        (Step::FetchPrevious(s), Carried::Rendered(r)) => match &s.source {
            FetchSource::Catalog(c) => {
                let snap = catalog::open(exec, &c.target, None).await?;
                let assembled = fetch_previous::catalog::run(s, &snap, report, r)?;
                let heads = fetch_previous::catalog::heads(s, &snap)?;
                fetch_previous::cluster::compare_from_catalog(s, exec, &heads, &assembled).await?;
                session.catalog = Some(snap);
                Carried::Assembled(assembled)
            }
            FetchSource::Registry {
                registry: job,
                namespace,
                catalog: target,
                lock,
            } => {
                let registry = exec.registry(job)?;
                if *lock {
                    session.registry_lock = exec.hold(registry, namespace, &s.package)?;
                }
                let assembled = fetch_previous::run(s, namespace, registry, report, r).await?;
                if let (Some(target), Some(ours)) = (target, assembled.bundle.csvs.first()) {
                    let registry = catalog::Registry {
                        at: format!("{} {namespace}/{}", registry.describe(), s.package),
                        package: &s.package,
                        channel: &s.channel,
                        ours,
                        decision: &assembled.decision,
                    };
                    session.catalog = Some(catalog::open(exec, target, Some(registry)).await?);
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
            Carried::Packaged(package::run(s, report, input, &exec.history)?)
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
            Carried::Packaged(package::run(s, report, input, &exec.history)?)
        }
        // `publish` (one release) starts with a package step; `publish --history` starts
        // the next release's package step after the previous one's push.
        (Step::Package(s), Carried::Start | Carried::Verified(_)) => Carried::Packaged(
            package::run(s, report, package::Input::Folder, &exec.history)?,
        ),
        (Step::Verify(s), Carried::Packaged(p)) => {
            Carried::Verified(verify::run(s, report, p, &exec.history)?)
        }
        (Step::Push(s), Carried::Verified(v)) => {
            let registry = exec.registry(&s.registry)?;
            let cx = converge::Context::new(exec.plan, s, registry, report, &exec.gate);
            let v = push::run(&cx, v).await;
            session.registry_lock = None;
            Carried::Verified(v?)
        }
        (Step::Push(s), Carried::Imaged(v, i)) => {
            let registry = exec.registry(&s.registry)?;
            let cx = converge::Context::new(exec.plan, s, registry, report, &exec.gate);
            let v = push::run(&cx, v).await;
            session.registry_lock = None;
            Carried::Imaged(v?, i)
        }
        (Step::BundleImage(s), Carried::Verified(v)) => {
            let store = exec.image(&s.image)?;
            let ours = session.pushed_image.clone();
            let image = bundle_image::run(s, store, report, &exec.gate, &v, ours).await?;
            if let Some(i) = &image
                && let Some((_, digest)) = i.pinned.rsplit_once('@')
            {
                session.pushed_image = Some(digest.to_string());
            }
            Carried::Imaged(v, image.map(Box::new))
        }
        (Step::Catalog(s), Carried::Imaged(v, i)) => {
            let Some(image) = &i else {
                report.info("no bundle image to add (policy 'skip')");
                session.catalog = None;
                return Ok(Carried::Imaged(v, i));
            };
            let snap = session.catalog.take();
            match catalog::run(exec, s, &v, image, snap).await? {
                catalog::Outcome::Done => {
                    let mut v = v;
                    v.olm_v1_install = olm_v1_install::report(s, image, report);
                    Carried::Imaged(v, i)
                }
                catalog::Outcome::Moved {
                    reason,
                    retry,
                    snap,
                } => {
                    // Moved onto the new head: the catalog step applies the change to it.
                    session.catalog = snap;
                    Carried::Moved {
                        reason,
                        retry,
                        target: s.target.describe(),
                        patience: s.target.patience(),
                        back: Box::new(Carried::Imaged(v, i)),
                    }
                }
            }
        }
        (Step::Operatorhub(s), c @ Carried::Verified(_)) => {
            if let Carried::Verified(v) = &c {
                operatorhub::run(s, exec, v).await?;
            }
            c
        }
        (Step::Operatorhub(s), c @ Carried::Imaged(..)) => {
            if let Carried::Imaged(v, _) = &c {
                operatorhub::run(s, exec, v).await?;
            }
            c
        }
        (Step::Migrate(s), Carried::Start) => {
            let registry = exec.registry(&s.registry)?;
            let store = exec.image(&s.image)?;
            migrate::run(s, registry, store, report, &exec.gate).await?;
            Carried::Start
        }
        (Step::Import(s), Carried::Start) => {
            import::run(exec, s).await?;
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
