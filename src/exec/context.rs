//! One run of a plan: the dry-run gate every write is asked at, the clients, opened on first
//! use, once per run (so a plain-http warning or a token check happens once), and the
//! [`Session`], what one pass from fetch-previous to the catalog step hands on besides the
//! steps' outputs, which the executor owns and passes to each step.

use std::cell::{OnceCell, RefCell};
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::plan::{GitHubJob, Plan, RegistryJob};
use crate::report::Reporter;
use olm_release_appregistry::Registry;
use olm_release_github as github;
use olm_release_http::events::{Events, Gate, Write};

/// The dry-run choke point: every write a client would make is asked here, once.
pub(crate) struct RunGate<'a> {
    pub(super) dry_run: bool,
    pub(super) report: &'a Reporter,
}

impl RunGate<'_> {
    /// Whether writes will be made (not a dry-run): steps that prepare a write (the `dir:`
    /// publication lock) ask here rather than checking the mode themselves.
    pub(super) fn writes(&self) -> bool {
        !self.dry_run
    }
}

impl Gate for RunGate<'_> {
    fn allow(&self, write: &Write) -> bool {
        if self.dry_run {
            self.report.skipped(write.clone());
            false
        } else {
            true
        }
    }

    fn done(&self, write: Write) {
        self.report.published(write);
    }

    fn kept(&self, write: Write) {
        self.report.kept(write);
    }
}

/// One run of a plan: the plan, the reporter, the gate and the clients.
pub(crate) struct Exec<'a> {
    pub(super) plan: &'a Plan,
    pub(super) report: &'a Arc<Reporter>,
    pub(super) gate: RunGate<'a>,
    registry: OnceCell<Registry>,
    github: OnceCell<github::Client>,
    /// The image target (bundle-image, migrate and their preflight share it).
    image: OnceCell<olm_release_oci::Store>,
    /// What every release of `publish --history` shares, read once.
    pub(super) history: HistoryCache,
}

/// What `publish --history` reads once for all its releases, so a history of n versions costs
/// time linear in n: the tree, and the report of `verify TREE` each release's findings are
/// taken from.
#[derive(Default)]
pub(crate) struct HistoryCache {
    tree: RefCell<Option<(std::path::PathBuf, Arc<olm_release_olm::history::Tree>)>>,
    whole: RefCell<Option<(std::path::PathBuf, Arc<olm_release_olm::validate::Report>)>>,
}

impl HistoryCache {
    /// The tree at `path`, read on first use.
    pub(crate) fn tree(
        &self,
        path: &std::path::Path,
        limits: &olm_release_olm::archive::Limits,
    ) -> std::result::Result<Arc<olm_release_olm::history::Tree>, String> {
        if let Some((p, t)) = self.tree.borrow().as_ref()
            && p == path
        {
            return Ok(t.clone());
        }
        let tree = Arc::new(olm_release_olm::community::read_history(path, limits)?);
        *self.tree.borrow_mut() = Some((path.to_path_buf(), tree.clone()));
        Ok(tree)
    }

    /// `verify PATH`'s report, made on first use.
    pub(crate) fn whole(
        &self,
        path: &std::path::Path,
        opts: &olm_release_olm::validate::Options,
        limits: &olm_release_olm::archive::Limits,
    ) -> std::result::Result<Arc<olm_release_olm::validate::Report>, String> {
        if let Some((p, r)) = self.whole.borrow().as_ref()
            && p == path
        {
            return Ok(r.clone());
        }
        let report = olm_release_olm::validate::verify_path_with(path, opts, limits)
            .map_err(|e| e.to_string())?;
        let report = Arc::new(report);
        *self.whole.borrow_mut() = Some((path.to_path_buf(), report.clone()));
        Ok(report)
    }
}

/// What the executor hands from step to step besides their outputs, across the decisions
/// taken again when the catalog moved.
#[derive(Default)]
pub(super) struct Session {
    /// The catalog store opened for this decision (by fetch-previous, or the check that the app
    /// registry and the catalog agree), which the catalog step publishes to; a `dir:` folder
    /// stays locked as long as it lives.
    pub(super) catalog: Option<super::catalog_target::Snapshot>,
    /// The bundle image digest this run pushed, so a decision taken again after the catalog
    /// moved may replace it under the same tag.
    pub(super) pushed_image: Option<String>,
    /// A `dir:` app registry's publication lock, held from fetch-previous to the push.
    pub(super) registry_lock: Option<olm_release_appregistry::dir::Held>,
}

impl<'a> Exec<'a> {
    /// A run of `plan`, reporting to `report`.
    pub(super) fn new(plan: &'a Plan, report: &'a Arc<Reporter>) -> Self {
        Exec {
            plan,
            report,
            gate: RunGate {
                dry_run: plan.header().dry_run,
                report,
            },
            registry: OnceCell::new(),
            github: OnceCell::new(),
            image: OnceCell::new(),
            history: HistoryCache::default(),
        }
    }
}

impl Exec<'_> {
    /// Before fetch-previous of a run that will push: a `dir:` registry's publication lock
    /// (`None`: another kind of registry, or a dry-run, which takes no lock).
    pub(super) fn hold(
        &self,
        registry: &Registry,
        namespace: &str,
        package: &str,
    ) -> Result<Option<olm_release_appregistry::dir::Held>> {
        if !self.gate.writes() {
            return Ok(None);
        }
        let held = registry.hold(namespace, package).map_err(|source| {
            super::converge::ConvergeError::Lock {
                at: format!("{} {namespace}/{package}", registry.describe()),
                source,
            }
        })?;
        if let Some(h) = &held
            && h.waited
        {
            self.report.info(&format!(
                "waited for another job publishing {namespace}/{package} (lock {})",
                h.path.display()
            ));
        }
        Ok(held)
    }

    pub(super) fn events(&self) -> Arc<dyn Events> {
        self.report.clone()
    }

    /// The registry client, opened on first use.
    pub(super) fn registry(&self, job: &RegistryJob) -> Result<&Registry> {
        if let Some(r) = self.registry.get() {
            return Ok(r);
        }
        let r = Registry::open(
            &job.location,
            job.credentials.clone(),
            job.http,
            job.retry,
            self.events(),
        )?;
        Ok(self.registry.get_or_init(|| r))
    }

    /// The image target, opened on first use (a plain-http warning is given then, once).
    pub(super) fn image(
        &self,
        job: &crate::plan::ImageJob,
    ) -> std::result::Result<&olm_release_oci::Store, olm_release_oci::OciError> {
        if let Some(s) = self.image.get() {
            return Ok(s);
        }
        let events = |e| super::bundle_image::event(self.report, e);
        let s = olm_release_oci::Store::open(&job.target, job.options(), &events)?;
        Ok(self.image.get_or_init(|| s))
    }

    /// The GitHub client, built on first use (only with a token).
    pub(super) fn github(&self, job: &GitHubJob) -> Result<&github::Client> {
        if let Some(c) = self.github.get() {
            return Ok(c);
        }
        let token = job
            .token
            .as_ref()
            .ok_or_else(|| Error::internal("a GitHub client without a token"))?;
        let c = github::Client::new(
            &job.api,
            &job.owner,
            &job.repo,
            token,
            job.config.clone(),
            self.events(),
        )?;
        Ok(self.github.get_or_init(|| c))
    }
}
