//! The catalog step and where it keeps the catalog (its target), as the plan carries them: a
//! `dir:` folder, a folder of a git branch, or a catalog image, each with what the executor
//! needs to read it, write it and know whether someone else wrote it meanwhile.
//!
//! fetch-previous reads the channel heads from the same target (a pipeline without
//! `registry:`), so the CSV in the bundle image and the catalog entry are decided against the
//! same catalog; the catalog step writes it with a compare-and-swap (`dir:` under the folder's
//! lock held since fetch-previous; git by a push without force; an image by moving the tag only
//! if it still names the digest read), and when another job won, the executor decides again.

use std::path::PathBuf;
use std::sync::Arc;

use olm_release_olm::fbc::swap::Patience;
use olm_release_olm::fbc::{Deprecated, Deprecation, ObjectStyle};
use serde::{Serialize, Serializer};

use super::images::release_channels;
use crate::error::Problem;
use crate::settings::{CatalogTarget, GIT_CREDENTIALS, Settings};

/// Add the pushed bundle image to the catalog, validate the catalog, write it to its target.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct CatalogStep {
    /// The plan's one catalog target (fetch-previous reads the same value when it reads the
    /// catalog).
    #[serde(flatten)]
    pub(crate) target: Arc<TargetJob>,
    pub(crate) package: String,
    pub(crate) channel: String,
    /// Every channel the release joins, `channel` first: the bundle gets an entry in each
    /// (an already-published bundle joining a channel gets its entry there).
    #[serde(skip_serializing_if = "super::images::single")]
    pub(crate) channels: Vec<String>,
    pub(crate) skips: Vec<String>,
    pub(crate) skip_range: Option<String>,
    /// The pipeline's `default_channel`: the package's `defaultChannel` after the release (it
    /// wins over the catalog's, and the diff and a note show the change).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) default_channel: Option<String>,
    /// How the entry carries the bundle's manifests (`catalog.bundle_objects`; `None`: as the
    /// package's existing entries do, `olm.csv.metadata` for a new package).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) style: Option<ObjectStyle>,
    /// The catalog template the release is added to and rendered from (`catalog.template`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) template: Option<PathBuf>,
    /// What the release deprecates (`catalog.deprecate`), as `schema name: message`.
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        serialize_with = "deprecations_shown"
    )]
    pub(crate) deprecate: Vec<Deprecation>,
    pub(crate) force: bool,
    /// Show the catalog diff normally (a dry-run), not only with `-v`.
    #[serde(skip)]
    pub(crate) show_diff: bool,
    /// The app registry fetch-previous decided on (`LOCATION NAMESPACE/PACKAGE`), when it read
    /// one: a catalog read again after it moved must still agree with that decision.
    #[serde(skip)]
    pub(crate) agrees_with: Option<String>,
}

/// Where the catalog is kept, and how to reach it.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub(crate) enum TargetJob {
    /// A folder, locked from fetch-previous to the write.
    Dir { dir: PathBuf },
    /// A folder of a git branch.
    Git(Box<GitJob>),
    /// A catalog image's tag.
    Image(Box<super::catalog_image::CatalogImageJob>),
}

impl TargetJob {
    /// `dir:PATH`, `git:URL (branch B, folder P)`, `image:REF:TAG`.
    pub(crate) fn describe(&self) -> String {
        match self {
            TargetJob::Dir { dir } => dir.display().to_string(),
            TargetJob::Git(g) => format!(
                "{}/ of branch {} of {}",
                g.path,
                g.branch.as_deref().unwrap_or("(the default branch)"),
                g.git
            ),
            TargetJob::Image(i) => i.describe(),
        }
    }

    /// How long and how often a job tries again after another job moved the target
    /// (`catalog.publish_deadline_seconds`, `catalog.retries`; a `dir:` folder is locked, so
    /// it never moves).
    pub(crate) fn patience(&self) -> Patience {
        match self {
            TargetJob::Dir { .. } => Patience {
                deadline: std::time::Duration::ZERO,
                retries: Some(0),
            },
            TargetJob::Git(g) => g.patience,
            TargetJob::Image(i) => i.patience,
        }
    }
}

/// A folder of a branch of a git repository.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct GitJob {
    /// The URL or path, as the git CLI takes it.
    pub(crate) git: String,
    /// `None`: the remote's default branch.
    pub(crate) branch: Option<String>,
    /// The catalog folder in the repository.
    pub(crate) path: String,
    /// The commit's author and committer, `Name <email>`.
    pub(crate) author: String,
    #[serde(skip)]
    pub(crate) name: String,
    #[serde(skip)]
    pub(crate) email: String,
    /// The commit date (`SOURCE_DATE_EPOCH`, else the source's commit time).
    pub(crate) date: u64,
    /// The variables HTTPS credentials come from.
    pub(crate) credentials: Option<&'static str>,
    #[serde(skip)]
    pub(crate) secret: Option<olm_release_git::Credentials>,
    /// How long and how often the job tries again after someone else moved the branch
    /// (`catalog.publish_deadline_seconds`, `catalog.retries`).
    #[serde(skip)]
    pub(crate) patience: Patience,
    /// How long one git command that talks to the remote may take (`catalog.retry_max_seconds`).
    #[serde(skip)]
    pub(crate) budget: std::time::Duration,
    /// Propose the change as a pull request instead of pushing it (`catalog.pull_request`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) pull_request: Option<PullJob>,
    /// The scratch checkout (under the output folder).
    #[serde(skip)]
    pub(crate) scratch: PathBuf,
}

/// A change proposed as a GitHub pull request: where, from which branch, titled how.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct PullJob {
    /// The REST API base.
    pub(crate) api: String,
    /// The repository the pull request is opened on, `OWNER/REPO`.
    pub(crate) repository: String,
    /// The repository its branch is pushed to, `OWNER/REPO`.
    pub(crate) fork: String,
    /// The pull request's branch.
    pub(crate) branch: String,
    pub(crate) title: String,
    pub(crate) draft: bool,
    /// The variables the token came from.
    pub(crate) credentials: Option<&'static str>,
    #[serde(skip)]
    pub(crate) token: Option<olm_release_base::Secret>,
}

impl PullJob {
    /// The pull request job for `repository` from `fork`: the branch and title given, else
    /// `olm-release/<package>-<version>` and `title`.
    pub(crate) fn new(
        s: &Settings,
        api: &str,
        repository: &(String, String),
        fork: &(String, String),
        branch: Option<&str>,
        title: String,
        draft: bool,
    ) -> PullJob {
        let version = s
            .version
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default();
        let package = s.package.clone().unwrap_or_default();
        PullJob {
            api: api.to_string(),
            repository: format!("{}/{}", repository.0, repository.1),
            fork: format!("{}/{}", fork.0, fork.1),
            branch: branch.map_or_else(
                || format!("olm-release/{package}-{}", version.replace('+', "_")),
                str::to_string,
            ),
            title,
            draft,
            credentials: s
                .credentials
                .github
                .as_ref()
                .map(|_| "GITHUB_TOKEN or GH_TOKEN"),
            token: s.credentials.github.clone(),
        }
    }

    /// `OWNER` and `REPO` of the repository, and of the fork.
    pub(crate) fn repos(&self) -> ((&str, &str), (&str, &str)) {
        fn split(r: &str) -> (&str, &str) {
            r.split_once('/').unwrap_or((r, ""))
        }
        (split(&self.repository), split(&self.fork))
    }
}

/// A pull request job needs a token, in a dry-run too (it reads the repository through the
/// API); a problem naming the variables when there is none.
pub(crate) fn pull_token(job: &PullJob, at: String) -> Option<Problem> {
    job.token.is_none().then(|| {
        Problem::new(
            at,
            format!(
                "a pull request to {} needs GITHUB_TOKEN (or GH_TOKEN), a token that may read it and push to {}, also for a dry-run (it reads the repository through GitHub's API)",
                job.repository, job.fork
            ),
        )
    })
}

impl GitJob {
    pub(crate) fn signature(&self) -> olm_release_git::Signature {
        olm_release_git::Signature {
            name: self.name.clone(),
            email: self.email.clone(),
            epoch: self.date,
        }
    }

    pub(crate) fn remote(&self) -> olm_release_git::Remote {
        olm_release_git::Remote {
            url: self.git.clone(),
            branch: self.branch.clone(),
        }
    }
}

/// The target job of the pipeline's `catalog:` section (`None` when the section or its target
/// is unusable; a problem says why).
pub(crate) fn target_job(s: &Settings, problems: &mut Vec<Problem>) -> Option<TargetJob> {
    let c = s.catalog.as_ref()?;
    Some(match c.target.clone()? {
        CatalogTarget::Dir(dir) => TargetJob::Dir { dir },
        CatalogTarget::Git(g) => {
            let (date, _) = super::time::epoch(s.source_date_epoch, &s.source);
            let pull_request = g.pull_request.as_ref().map(|pr| {
                let version = s
                    .version
                    .as_ref()
                    .map(ToString::to_string)
                    .unwrap_or_default();
                let package = s.package.clone().unwrap_or_default();
                let title = pr
                    .title
                    .clone()
                    .unwrap_or_else(|| format!("{package} {version}: add it to the catalog"));
                PullJob::new(
                    s,
                    &pr.api,
                    &pr.repository,
                    &pr.fork,
                    pr.branch.as_deref(),
                    title,
                    pr.draft,
                )
            });
            if let Some(p) = &pull_request {
                problems.extend(pull_token(p, s.file.at(&["catalog", "pull_request"])));
            }
            TargetJob::Git(Box::new(GitJob {
                git: g.url,
                branch: g.branch,
                path: g.path,
                author: format!("{} <{}>", g.author.0, g.author.1),
                name: g.author.0,
                email: g.author.1,
                date,
                credentials: s.credentials.git.as_ref().map(|_| GIT_CREDENTIALS),
                secret: s.credentials.git.clone(),
                patience: c.patience,
                budget: c.git_budget,
                pull_request,
                scratch: s.out.join("catalog-git"),
            }))
        }
        CatalogTarget::Image(i) => TargetJob::Image(Box::new(super::catalog_image::job(
            s, i, c.patience, problems,
        )?)),
    })
}

/// The catalog step of `s`, writing `target` (the plan's one catalog target).
pub(crate) fn catalog_step(
    s: &Settings,
    target: Arc<TargetJob>,
    package: String,
    channel: String,
) -> Option<CatalogStep> {
    let c = s.catalog.as_ref()?;
    let fetches = s
        .stages
        .contains(&crate::pipeline::StageName::FetchPrevious);
    let agrees_with = s.registry.as_ref().filter(|_| fetches).and_then(|r| {
        Some(format!(
            "{} {}/{package}",
            r.location.as_ref()?,
            r.namespace
        ))
    });
    Some(CatalogStep {
        agrees_with,
        target,
        channels: release_channels(s, &channel),
        package,
        channel,
        skips: c.skips.clone(),
        skip_range: c.skip_range.clone(),
        default_channel: s.default_channel.clone(),
        style: c.content.style,
        template: c.content.template.clone(),
        deprecate: c.content.deprecate.clone(),
        force: s.mode.force,
        show_diff: s.mode.dry_run,
    })
}

/// The plan's text lines of the catalog step.
pub(crate) fn show_catalog(c: &CatalogStep) -> Vec<String> {
    let mut out = vec![format!(
        "add the bundle by digest to {} (package {}, channel {}; replaces the channel head)",
        c.target.describe(),
        c.package,
        c.channel
    )];
    out.extend(show_target(&c.target));
    if c.style == Some(ObjectStyle::BundleObjects) {
        out.push("entry manifests as olm.bundle.object properties (catalog.bundle_objects)".into());
    }
    if let Some(t) = &c.template {
        out.push(format!(
            "add the bundle to the catalog template {} and render it into the catalog",
            t.display()
        ));
    }
    for d in &c.deprecate {
        out.push(format!("deprecate {}", deprecation_shown(d)));
    }
    if !c.skips.is_empty() {
        out.push(format!("skips: {}", c.skips.join(", ")));
    }
    if let Some(r) = &c.skip_range {
        out.push(format!("skipRange: {r}"));
    }
    if let Some(d) = &c.default_channel {
        out.push(format!("defaultChannel: {d}"));
    }
    out
}

/// A deprecation as the plan shows it: `olm.bundle NAME: message`.
fn deprecation_shown(d: &Deprecation) -> String {
    let what = match &d.what {
        Deprecated::Package => "olm.package".to_string(),
        Deprecated::Channel(n) => format!("olm.channel {n}"),
        Deprecated::Bundle(n) => format!("olm.bundle {n}"),
    };
    format!("{what}: {}", d.message)
}

fn deprecations_shown<S: Serializer>(d: &[Deprecation], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(d.iter().map(deprecation_shown))
}

/// The plan's lines on how a catalog target is validated and written (the catalog step's and
/// `import`'s).
pub(crate) fn show_target(target: &TargetJob) -> Vec<String> {
    let mut out = Vec::new();
    match target {
        TargetJob::Dir { .. } => out.push(
            "validate the whole catalog (opm validate rules); write only what changed".to_string(),
        ),
        TargetJob::Git(g) if g.pull_request.is_some() => {
            let p = g.pull_request.as_ref().expect("matched");
            out.push(
                "validate the whole catalog (opm validate rules); propose only what changed"
                    .to_string(),
            );
            out.push(format!(
                "pull request \"{}\" on {} from {}:{}{} through {}; a rerun finds it, a merged one means nothing to do",
                p.title,
                p.repository,
                p.fork,
                p.branch,
                if p.draft { " (draft)" } else { "" },
                p.api
            ));
            out.push(format!(
                "commit as {} (date {}); credentials: {}",
                g.author,
                super::time::format_time(g.date),
                p.credentials.unwrap_or("none")
            ));
        }
        TargetJob::Git(g) => {
            out.push(
                "validate the whole catalog (opm validate rules); commit only what changed"
                    .to_string(),
            );
            out.push(format!(
                "commit as {} (date {}), push without force; when the branch moved meanwhile, {}",
                g.author,
                super::time::format_time(g.date),
                again(&g.patience)
            ));
            out.push(format!("credentials: {}", g.credentials.unwrap_or("none")));
        }
        TargetJob::Image(i) => out.extend(super::catalog_image::show(i)),
    }
    out
}

/// What a job does when the target moved meanwhile, as the plan says it.
pub(crate) fn again(p: &Patience) -> String {
    let count = p
        .retries
        .map(|n| format!(", at most {n} time(s)"))
        .unwrap_or_default();
    format!(
        "apply the change again on the new head (only other packages changed) or decide again (its package changed), for up to {} s{count}",
        p.deadline.as_secs()
    )
}
