//! The `operatorhub:` section, resolved: the community repository, the fork the bundle is
//! pushed to, the branches, the author and the API base.

use super::author::author;
use super::catalog_keys::{branch_ok, owner_repo};
use super::inputs::PipelineFile;
use super::urls::check_url;
use crate::error::Problem;
use crate::pipeline::model::OperatorHubSpec;

/// The default of `operatorhub.repository`.
pub(crate) const OPERATORHUB: &str = "k8s-operatorhub/community-operators";

/// `operatorhub:`, resolved.
#[derive(Debug, Clone)]
pub(crate) struct OperatorHubSettings {
    pub(crate) api: String,
    pub(crate) repository: (String, String),
    pub(crate) fork: (String, String),
    /// `None`: the repository's default branch.
    pub(crate) base: Option<String>,
    pub(crate) branch: Option<String>,
    pub(crate) title: Option<String>,
    pub(crate) author: (String, String),
    pub(crate) draft: bool,
}

/// `operatorhub:`; `None` when a key is unusable (a problem says why).
pub(crate) fn operatorhub(
    spec: &OperatorHubSpec,
    file: &PipelineFile,
    insecure: bool,
    problems: &mut Vec<Problem>,
) -> Option<OperatorHubSettings> {
    let before = problems.len();
    let mut problem = |key: &str, message: String| {
        problems.push(Problem::new(file.at(&["operatorhub", key]), message));
    };
    let repository = spec.repository.as_deref().unwrap_or(OPERATORHUB);
    let repository = owner_repo(repository).ok_or_else(|| {
        problem(
            "repository",
            format!("operatorhub.repository: '{repository}' is not OWNER/REPO"),
        )
    });
    let fork = owner_repo(&spec.fork).ok_or_else(|| {
        problem(
            "fork",
            format!(
                "operatorhub.fork: '{}' is not OWNER/REPO (your fork of the community repository)",
                spec.fork
            ),
        )
    });
    let author =
        author(&spec.author).map_err(|m| problem("author", format!("operatorhub.author: {m}")));
    let api = spec
        .api_url
        .as_deref()
        .unwrap_or("https://api.github.com")
        .trim_end_matches('/')
        .to_string();
    if let Err(e) = check_url(&api, insecure) {
        problem("api_url", format!("operatorhub.api_url: {e}"));
    }
    for (key, b) in [("base", &spec.base), ("branch", &spec.branch)] {
        if let Some(b) = b
            && !branch_ok(b)
        {
            problem(
                key,
                format!("operatorhub.{key}: '{b}' is not a branch name git accepts"),
            );
        }
    }
    let (Ok(repository), Ok(fork), Ok(author)) = (repository, fork, author) else {
        return None;
    };
    (problems.len() == before).then(|| OperatorHubSettings {
        api,
        repository,
        fork,
        base: spec.base.clone(),
        branch: spec.branch.clone(),
        title: spec.title.clone(),
        author,
        draft: spec.draft,
    })
}
