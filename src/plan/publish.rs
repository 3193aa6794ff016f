//! The plan of `publish`: the package, verify and push steps of a pipeline on a bundle someone
//! has (a folder, `bundle.yaml` or `.tar.gz`), or, with `--history`, those three steps once per
//! version folder of a package-manifest tree in SemVer order ([`olm_release_olm::history`]), all in
//! one plan the one executor runs.

use std::path::PathBuf;

use super::checks;
use super::document::{Header, Plan};
use super::steps::{BundleSource, PackageStep, PushStep, RegistryJob, Step, VerifyStep};
use crate::ci::CiContext;
use crate::error::{Problem, Problems};
use crate::settings::RunMode;
use olm_release_appregistry::Location;
use olm_release_appregistry::appr::Credentials;
use olm_release_olm::archive::{Layout, Limits};

/// What `publish` is asked to do.
#[derive(Debug, Clone)]
pub(crate) struct PublishInputs {
    /// The bundle folder, `bundle.yaml` or `.tar.gz`.
    pub(crate) path: PathBuf,
    pub(crate) location: Location,
    pub(crate) credentials: Option<Credentials>,
    pub(crate) http: olm_release_http::HttpOptions,
    pub(crate) retry: olm_release_http::retry::RetryPolicy,
    pub(crate) namespace: String,
    pub(crate) package: String,
    /// `None` with `--history`: each version folder's own.
    pub(crate) release: Option<semver::Version>,
    pub(crate) mode: RunMode,
    pub(crate) layout: Layout,
    pub(crate) mtime: u64,
    pub(crate) ci: CiContext,
    /// The checks (as `verify --profile`, `--operatorhub`, `--categories`).
    pub(crate) checks: VerifyStep,
    /// Limits on reading the bundle (`--max-bundle-bytes`).
    pub(crate) limits: Limits,
}

/// `publish`: the package, verify and push steps of a pipeline, on a bundle folder; with
/// `--history`, the same three steps once per version folder of a package-manifest tree, in
/// SemVer order, in one plan.
pub(crate) fn publish(p: &PublishInputs) -> Result<Plan, Problems> {
    let registry = RegistryJob {
        location: p.location.clone(),
        credentials: p.credentials.clone(),
        http: p.http,
        retry: p.retry,
        concurrent_wait: crate::settings::CONCURRENT_WAIT,
    };
    let (mut notes, mut warnings) = (Vec::new(), Vec::new());
    let releases: Vec<(semver::Version, BundleSource)> = match &p.release {
        Some(release) => vec![(
            release.clone(),
            BundleSource::Folder {
                path: p.path.clone(),
            },
        )],
        None => {
            let tree = olm_release_olm::community::read_history(&p.path, &p.limits)
                .map_err(|e| Problems(vec![Problem::new("--history", e)]))?;
            history_remarks(&tree, &mut notes, &mut warnings);
            history_releases(p, &tree)
        }
    };
    let mut steps = Vec::new();
    for (release, bundle) in &releases {
        steps.push(Step::Package(PackageStep {
            bundle: bundle.clone(),
            folder: None,
            tarball: None,
            shown: format!("{}-{release}.tar.gz", p.package),
            layout: p.layout,
            mtime: p.mtime,
            package: p.package.clone(),
            version: release.clone(),
            channel: None,
            show_contents: false,
            limits: p.limits,
            checks: p.checks.clone(),
        }));
        steps.push(Step::Verify(p.checks.clone()));
        steps.push(Step::Push(PushStep {
            registry: registry.clone(),
            namespace: p.namespace.clone(),
            package: p.package.clone(),
            release: release.clone(),
            channel: None,
            force: p.mode.force,
            look_up_first: p.mode.force || p.mode.dry_run,
        }));
    }
    // One server, one atomic write per release: no preflight is needed (see
    // `checks::preflight`).
    let problems = checks::registry_credentials(&registry, p.mode.dry_run, "--registry");
    if !problems.is_empty() {
        return Err(Problems(problems));
    }
    let version = match releases.as_slice() {
        [(one, _)] => one.to_string(),
        [(first, _), .., (last, _)] => format!("{first}..{last}"),
        [] => String::new(),
    };
    Ok(Plan::new(
        Header {
            pipeline: "publish".into(),
            package: Some(p.package.clone()),
            channel: None,
            version,
            dry_run: p.mode.dry_run,
            force: p.mode.force,
            ci: p.ci.clone(),
            notes,
            warnings,
        },
        steps,
    ))
}

/// The releases of a history: one per version folder on a channel, in SemVer order.
fn history_releases(
    p: &PublishInputs,
    tree: &olm_release_olm::history::Tree,
) -> Vec<(semver::Version, BundleSource)> {
    tree.versions
        .iter()
        .map(|v| {
            let version = v.version.clone();
            let source = BundleSource::History {
                tree: p.path.clone(),
                version: version.clone(),
            };
            (version, source)
        })
        .collect()
}

/// What the import says before it runs: version folders left out (no channel reaches their
/// CSV), and channels whose head is in no version folder (left out of every release).
fn history_remarks(
    tree: &olm_release_olm::history::Tree,
    notes: &mut Vec<String>,
    warnings: &mut Vec<String>,
) {
    for (dir, csv) in &tree.left_out {
        notes.push(format!(
            "{} is left out: no channel of the package file reaches its CSV {csv}",
            dir.display()
        ));
    }
    for (channel, head) in &tree.headless {
        warnings.push(format!(
            "channel {channel}: its head (currentCSV) {head} is in no version folder; the channel is left out of every release"
        ));
    }
}
