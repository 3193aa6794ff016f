//! A change proposed as a GitHub pull request, as settings build it: `catalog.pull_request`
//! (or `import --pull-request`) for a git catalog target on GitHub, and the `operatorhub`
//! step's.

use serde::Serialize;

use super::catalog_keys::{branch_ok, github_repo, owner_repo};
use super::target_run::TargetRun;
use super::urls::check_url;
use crate::error::Problem;
use crate::pipeline::model::PullRequestSpec;

/// A change proposed as a GitHub pull request (a catalog target's `catalog.pull_request`, and
/// the `operatorhub` step's): where, from which branch, titled how.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct PullRequest {
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

impl PullRequest {
    /// A pull request needs a token, in a dry-run too (it reads the repository through the
    /// API); a problem at `at` naming the variables when there is none.
    pub(crate) fn token_problem(&self, at: String) -> Option<Problem> {
        self.token.is_none().then(|| {
            Problem::new(
                at,
                format!(
                    "a pull request to {} needs GITHUB_TOKEN (or GH_TOKEN), a token that may read it and push to {}, also for a dry-run (it reads the repository through GitHub's API)",
                    self.repository, self.fork
                ),
            )
        })
    }

    /// `OWNER` and `REPO` of the repository, and of the fork.
    pub(crate) fn repos(&self) -> ((&str, &str), (&str, &str)) {
        fn split(r: &str) -> (&str, &str) {
            r.split_once('/').unwrap_or((r, ""))
        }
        (split(&self.repository), split(&self.fork))
    }
}

impl TargetRun<'_> {
    /// The pull request on `repository` from `fork` (the branch and title given, else the run's).
    pub(crate) fn pull_request(
        &self,
        api: String,
        repository: &(String, String),
        fork: &(String, String),
        branch: Option<String>,
        title: Option<String>,
        draft: bool,
    ) -> PullRequest {
        PullRequest {
            api,
            repository: format!("{}/{}", repository.0, repository.1),
            fork: format!("{}/{}", fork.0, fork.1),
            branch: branch.unwrap_or_else(|| self.pull_branch.clone()),
            title: title.unwrap_or_else(|| self.pull_title.clone()),
            draft,
            credentials: self.github.as_ref().map(|_| "GITHUB_TOKEN or GH_TOKEN"),
            token: self.github.clone(),
        }
    }
}

/// `catalog.pull_request`: the repository (given, or read from a github.com URL), the fork,
/// the API base; the branch and title unless given, and the token, from `run`.
pub(super) fn pull_request(
    pr: &PullRequestSpec,
    url: &str,
    insecure: bool,
    run: &TargetRun,
) -> Result<PullRequest, (&'static str, String)> {
    let repository = match &pr.repository {
        Some(r) => owner_repo(r).ok_or(("repository", format!("'{r}' is not OWNER/REPO")))?,
        None => github_repo(url).ok_or((
            "repository",
            format!("{url} is not a github.com repository URL; name the repository (repository: OWNER/REPO)"),
        ))?,
    };
    let fork = match &pr.fork {
        Some(f) => owner_repo(f).ok_or(("fork", format!("'{f}' is not OWNER/REPO")))?,
        None => repository.clone(),
    };
    let api = pr
        .api_url
        .as_deref()
        .unwrap_or("https://api.github.com")
        .trim_end_matches('/')
        .to_string();
    check_url(&api, insecure).map_err(|e| ("api_url", e))?;
    if let Some(b) = &pr.branch
        && !branch_ok(b)
    {
        return Err(("branch", format!("'{b}' is not a branch name git accepts")));
    }
    Ok(run.pull_request(
        api,
        &repository,
        &fork,
        pr.branch.clone(),
        pr.title.clone(),
        pr.draft,
    ))
}
