//! Racing publications converge: after the push, the registry is read again, and a release
//! that landed while this job ran is taken in, so the channel never forks.
//!
//! The app registry has no locks and no transactions: two jobs can both read the same head in
//! fetch-previous and push two releases that both `replace` it, and the highest one (the only
//! one OLM consumers load) then lacks the other's CSV. So after a push (or an idempotent
//! re-push) the release list is read again and compared with what fetch-previous saw:
//!
//! - **Ours is the highest release** and some lower release is not carried by our bundle (one
//!   that landed concurrently, or one that the bundle we re-based on lacked; a release that
//!   added a published CSV to a channel ours lacks counts too): re-assemble
//!   against the highest release below ours with fetch-previous's own code
//!   ([`fetch_previous::pull_bundle`] and [`olm_release_olm::decision::decide`]), splice in the CSVs of
//!   the other missing releases at their SemVer place ([`olm_release_olm::decision::splice`]), package and verify again,
//!   and overwrite our own release (a forced push, which the registry applies atomically). Then
//!   read again, after a short random pause; at most [`ATTEMPTS`] rounds.
//! - **A higher release landed concurrently**: its job is the one that repairs. This job waits
//!   (up to `registry.concurrent_wait_seconds`) until that release carries our CSV (and, for a
//!   release that added a published CSV to channels, has those channels); if it does
//!   not, it withdraws its own release (delete) and fails with exit 1, so the highest release
//!   again carries every CSV that has a release.
//! - Nothing new: done, at the cost of one list request.
//!
//! The rules (what the list read says, whether a release forks the channel, what a re-base
//! takes in) are the domain's (`olm::decision::race`); this module reads, pulls, waits, pushes
//! and withdraws. Every job that writes reads again after its write, so the last write is
//! always checked.
//! A `dir:` registry needs none of this in practice: the executor holds the package's
//! publication lock from fetch-previous to the push ([`olm_release_appregistry::dir::DirRegistry::hold`]).
//! `publish` (a bundle someone built) has no fetch-previous, so nothing to re-base.

mod rebase;

use std::time::{Duration, Instant};

pub(crate) use crate::error::step::ConvergeError;

use rebase::{missing_in_channel, rebase};

use super::fetch_previous;
use super::outputs::Verified;
use crate::error::Result;
use crate::plan::{FetchStep, PackageStep, Plan, PushStep, Step, VerifyStep};
use crate::report::Reporter;
use olm_release_appregistry::{Registry, ReleaseInfo};
use olm_release_http::events::Gate;
use olm_release_olm::archive::Limits;
use olm_release_olm::decision::race::{self, Reading};

/// Re-basing rounds before a job gives up.
pub(crate) const ATTEMPTS: u32 = 3;

/// What the push step and the re-assembly use: the registry, the reporter, the gate and the
/// plan's own steps (so a re-assembly packages and verifies exactly as the first one did).
pub(crate) struct Context<'a> {
    pub(crate) registry: &'a Registry,
    pub(crate) report: &'a Reporter,
    pub(crate) gate: &'a dyn Gate,
    pub(crate) push: &'a PushStep,
    /// `None` without fetch-previous (and then package and verify are not needed).
    pub(crate) steps: Option<(&'a FetchStep, &'a PackageStep, &'a VerifyStep)>,
}

impl<'a> Context<'a> {
    /// The limits on reading a pulled release: fetch-previous's, or the defaults.
    fn limits(&self) -> Limits {
        self.steps.map(|(f, _, _)| f.limits).unwrap_or_default()
    }

    pub(crate) fn new(
        plan: &'a Plan,
        push: &'a PushStep,
        registry: &'a Registry,
        report: &'a Reporter,
        gate: &'a dyn Gate,
    ) -> Self {
        let mut fetch = None;
        let mut pack = None;
        let mut check = None;
        for step in plan.steps() {
            match step {
                Step::FetchPrevious(s) => fetch = Some(s),
                Step::Package(s) => pack = Some(s),
                Step::Verify(s) => check = Some(s),
                _ => {}
            }
        }
        let steps = match (fetch, pack, check) {
            (Some(f), Some(p), Some(v)) => Some((f, p, v)),
            _ => None,
        };
        Context {
            registry,
            report,
            gate,
            push,
            steps,
        }
    }

    fn at(&self) -> String {
        format!(
            "{} {}/{}",
            self.registry.describe(),
            self.push.namespace,
            self.push.package
        )
    }
}

/// Checks, after our release is on the registry, that no concurrently published release forks
/// the channel, and re-bases ours when it must. Returns the bundle as finally published.
pub(crate) async fn run(cx: &Context<'_>, mut v: Verified) -> Result<Verified> {
    let (Some(basis), Some((fetch, _, _))) = (v.basis.clone(), cx.steps) else {
        return Ok(v);
    };
    let ours = &cx.push.release;
    let (ns, pkg, release) = (&cx.push.namespace, &cx.push.package, &ours.to_string());
    let csv = basis
        .rendered
        .csvs
        .first()
        .and_then(|c| c.name())
        .unwrap_or("the new CSV")
        .to_string();
    let mut seen = basis.seen.clone();
    let mut attempt = 0;
    let started = Instant::now();
    let mut waiting_on: Option<ReleaseInfo> = None;
    loop {
        let now = cx
            .registry
            .releases(ns, pkg)
            .await
            .map_err(|source| ConvergeError::Read {
                at: cx.at(),
                release: release.clone(),
                source,
            })?;
        let Some(mine) = now.iter().find(|r| r.release == *release) else {
            return Err(ConvergeError::Vanished {
                at: cx.at(),
                release: release.clone(),
            }
            .into());
        };
        if mine.digest != v.packed.digest {
            return Err(ConvergeError::Replaced {
                at: cx.at(),
                release: release.clone(),
                now: mine.digest.clone(),
                ours: v.packed.digest.clone(),
            }
            .into());
        }
        let carried = &v.basis.as_ref().unwrap_or(&basis).carried;
        let reading = race::read(&now, &seen, (release, ours), carried);
        let (candidates, base) = match reading {
            None | Some(Reading::Seen) => return Ok(v),
            Some(Reading::Above(top)) => {
                // A higher release that landed concurrently: its job takes ours in, and this one
                // waits for that.
                if waiting_on.as_ref() != Some(top) {
                    let at = format!("{} {ns}/{pkg}", cx.registry.describe());
                    let bundle =
                        fetch_previous::pull_bundle(cx.registry, ns, pkg, top, &at, &cx.limits())
                            .await?;
                    if race::takes_in(&bundle, &csv, v.decision.as_ref()) {
                        cx.report.note(&format!(
                            "{} landed concurrently above {release} and carries {csv}: the channel is one chain",
                            top.release
                        ));
                        return Ok(v);
                    }
                    if waiting_on.is_none() {
                        cx.report.note(&format!(
                            "{} landed concurrently above {release}; waiting up to {} s for its job to take in {csv}",
                            top.release,
                            cx.push.registry.concurrent_wait.as_secs()
                        ));
                    }
                    waiting_on = Some(top.clone());
                }
                if started.elapsed() < cx.push.registry.concurrent_wait {
                    pause(500, 1000).await;
                    continue;
                }
                return Err(withdraw(cx, &v, &top.release, &csv, started.elapsed()).await);
            }
            Some(Reading::Highest { candidates, base }) => (candidates, base),
        };
        // Ours is the highest: every lower release must be in our bundle.
        let Some(missing) =
            missing_in_channel(cx, fetch, (&v.package, carried), &candidates).await?
        else {
            return Ok(v);
        };
        attempt += 1;
        if attempt > ATTEMPTS {
            return Err(ConvergeError::Diverged {
                at: cx.at(),
                release: release.clone(),
                attempts: ATTEMPTS,
                missing: names(&missing.iter().map(|(r, _)| r).collect::<Vec<_>>()),
            }
            .into());
        }
        let base = base.expect("a missing release is below ours");
        // Releases that landed while this job ran, or that an earlier race left out of the
        // chain (a job killed while it waited): the next release above them takes them in.
        let how = if missing.iter().all(|(r, _)| race::landed(r, &seen, release)) {
            "landed concurrently"
        } else {
            "missing from the chain"
        };
        cx.report.note(&format!(
            "{} {how}; re-basing {release} on {}, attempt {attempt} of {ATTEMPTS}",
            names(&missing.iter().map(|(r, _)| r).collect::<Vec<_>>()),
            base.release
        ));
        let base = base.clone();
        v = rebase(cx, v, &basis, &base, missing, &now).await?;
        seen = now;
        pause(50, 250).await;
    }
}

/// Deletes our release (a higher one that landed concurrently did not take it in) and returns
/// the error that says so.
async fn withdraw(
    cx: &Context<'_>,
    v: &Verified,
    top: &str,
    csv: &str,
    waited: Duration,
) -> crate::error::Error {
    let (ns, pkg, release) = (
        &cx.push.namespace,
        &cx.push.package,
        &cx.push.release.to_string(),
    );
    let w = olm_release_http::events::Write {
        what: format!(
            "withdrawal of bundle release {release} (below {top}, which does not carry it)"
        ),
        target: cx.registry.push_request(ns, pkg, false).target,
        digest: Some(v.packed.digest.clone()),
    };
    if cx.gate.allow(&w) {
        if let Err(source) = cx.registry.delete(ns, pkg, release).await {
            return ConvergeError::NotWithdrawn {
                at: cx.at(),
                release: release.clone(),
                top: top.into(),
                csv: csv.into(),
                source,
            }
            .into();
        }
        cx.gate.done(w);
    }
    ConvergeError::Withdrawn {
        at: cx.at(),
        release: release.clone(),
        top: top.into(),
        csv: csv.into(),
        waited: waited.as_secs(),
    }
    .into()
}

fn names(releases: &[&ReleaseInfo]) -> String {
    releases
        .iter()
        .map(|r| r.release.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A random pause in [min, max] milliseconds, so racing jobs do not re-read in lockstep.
async fn pause(min: u64, max: u64) {
    let ms = min + ((max - min) as f64 * olm_release_http::retry::jitter()) as u64;
    tokio::time::sleep(Duration::from_millis(ms)).await;
}
