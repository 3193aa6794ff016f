//! The CI context, read once from the environment: which CI, tag, branch, build number and
//! pull request. Stages never read CI variables themselves; they get this struct.

use std::collections::BTreeMap;

use serde::Serialize;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub(crate) struct CiContext {
    /// `travis`, `github-actions`, or none when run by hand.
    pub(crate) provider: Option<String>,
    pub(crate) tag: Option<String>,
    pub(crate) branch: Option<String>,
    pub(crate) build_number: Option<String>,
    pub(crate) pull_request: Option<String>,
    pub(crate) commit: Option<String>,
    /// In GitHub Actions, the files a step's summary and outputs are appended to.
    #[serde(skip)]
    pub(crate) github_files: Option<crate::report::github::Files>,
}

impl CiContext {
    /// Reads Travis's or GitHub Actions' variables from `env`.
    pub(crate) fn from_env(env: &BTreeMap<String, String>) -> Self {
        let get = |k: &str| {
            env.get(k)
                .filter(|v| !v.is_empty() && v.as_str() != "false")
                .cloned()
        };
        if env.get("TRAVIS").map(String::as_str) == Some("true") {
            return CiContext {
                provider: Some("travis".into()),
                github_files: None,
                tag: get("TRAVIS_TAG"),
                branch: get("TRAVIS_BRANCH"),
                build_number: get("TRAVIS_BUILD_NUMBER"),
                pull_request: get("TRAVIS_PULL_REQUEST"),
                commit: get("TRAVIS_COMMIT"),
            };
        }
        if env.get("GITHUB_ACTIONS").map(String::as_str) == Some("true") {
            let git_ref = get("GITHUB_REF").unwrap_or_default();
            return CiContext {
                provider: Some("github-actions".into()),
                tag: git_ref.strip_prefix("refs/tags/").map(str::to_string),
                branch: git_ref.strip_prefix("refs/heads/").map(str::to_string),
                build_number: get("GITHUB_RUN_NUMBER"),
                pull_request: git_ref
                    .strip_prefix("refs/pull/")
                    .and_then(|r| r.split('/').next())
                    .map(str::to_string),
                commit: get("GITHUB_SHA"),
                github_files: Some(crate::report::github::Files {
                    step_summary: get("GITHUB_STEP_SUMMARY").map(Into::into),
                    output: get("GITHUB_OUTPUT").map(Into::into),
                }),
            };
        }
        CiContext::default()
    }
}
