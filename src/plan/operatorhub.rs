//! The `operatorhub` step: the verified bundle proposed to a community catalog
//! (k8s-operatorhub/community-operators, redhat-openshift-ecosystem/community-operators-prod) as
//! a pull request from a fork adding `operators/<package>/<version>/` (`manifests/` and
//! `metadata/annotations.yaml`), through the same pull-request code as a git catalog target's
//! `catalog.pull_request`.

use serde::Serialize;

use crate::error::Problem;
use crate::settings::Settings;
use crate::settings::{CommitAuthor, PullRequest};

/// Propose the verified bundle to a community catalog.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct OperatorhubStep {
    #[serde(flatten)]
    pub(crate) pull: PullRequest,
    /// The branch the pull request goes into (`None`: the repository's default branch).
    pub(crate) base: Option<String>,
    /// The commit's author (and its `Signed-off-by:`), and its date.
    #[serde(flatten)]
    pub(crate) commit: CommitAuthor,
    pub(crate) package: String,
    #[serde(serialize_with = "super::json::as_text")]
    pub(crate) version: semver::Version,
    /// The bundle's channels annotation.
    pub(crate) channels: Vec<String>,
    /// Replace a version folder the catalog already has with other content.
    pub(crate) force: bool,
    /// Show the proposed files normally (a dry-run), not only with `-v`.
    #[serde(skip)]
    pub(crate) show_files: bool,
}

/// The operatorhub step of `s`, given its package and channel.
pub(crate) fn operatorhub_step(
    s: &Settings,
    package: String,
    channel: &str,
    problems: &mut Vec<Problem>,
) -> Option<OperatorhubStep> {
    let o = s.operatorhub.as_ref()?;
    let version = s.version.clone()?;
    let title = o
        .title
        .clone()
        .unwrap_or_else(|| format!("operator {package} ({version})"));
    let pull = pull_request(
        s,
        &o.api,
        &o.repository,
        &o.fork,
        o.branch.as_deref(),
        title,
        o.draft,
    );
    problems.extend(pull.token_problem(s.file.at(&["operatorhub"])));
    let (date, _) = super::time::epoch(s.source_date_epoch, &s.source);
    Some(OperatorhubStep {
        pull,
        base: o.base.clone(),
        commit: CommitAuthor::new(o.author.clone(), date),
        channels: super::images::release_channels(s, channel),
        package,
        version,
        force: s.mode.force,
        show_files: s.mode.dry_run,
    })
}

/// The plan's text lines of the operatorhub step.
pub(crate) fn show_operatorhub(o: &OperatorhubStep) -> Vec<String> {
    let p = &o.pull;
    vec![
        format!(
            "propose operators/{}/{}/ (manifests/, metadata/annotations.yaml) to {} (branch {}), keeping the package's ci.yaml",
            o.package,
            o.version,
            p.repository,
            o.base.as_deref().unwrap_or("(the default branch)")
        ),
        format!(
            "pull request \"{}\" from {}:{}{} through {}; a rerun finds it, a merged one means nothing to do",
            p.title,
            p.fork,
            p.branch,
            if p.draft { " (draft)" } else { "" },
            p.api
        ),
        format!(
            "commit as {} with Signed-off-by (date {}); credentials: {}",
            o.commit.author,
            super::time::format_time(o.commit.date),
            p.credentials.unwrap_or("none")
        ),
    ]
}

/// The operatorhub step's pull request on `repository` from `fork`: the branch and title given, else
/// `olm-release/<package>-<version>` and `title`.
fn pull_request(
    s: &Settings,
    api: &str,
    repository: &(String, String),
    fork: &(String, String),
    branch: Option<&str>,
    title: String,
    draft: bool,
) -> PullRequest {
    let version = s
        .version
        .as_ref()
        .map(ToString::to_string)
        .unwrap_or_default();
    let package = s.package.clone().unwrap_or_default();
    PullRequest {
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
