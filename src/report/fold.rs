//! Folding a CI log: each stage a section the log viewer can collapse (`travis_fold` on
//! Travis, `::group::` on GitHub Actions), or nothing when run by hand.

/// How stage sections are folded in a CI log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Fold {
    #[default]
    None,
    /// `travis_fold:start:NAME` … `travis_fold:end:NAME`
    Travis,
    /// `::group::NAME` … `::endgroup::`
    GitHubActions,
}

impl Fold {
    /// The folding of the CI this runs in (`provider` as in [`crate::ci::CiContext`]).
    pub(crate) fn for_provider(provider: Option<&str>) -> Self {
        match provider {
            Some("travis") => Fold::Travis,
            Some("github-actions") => Fold::GitHubActions,
            _ => Fold::None,
        }
    }

    /// The line that opens a stage's section, if this CI folds.
    pub(crate) fn start(self, stage: &str) -> Option<String> {
        match self {
            Fold::None => None,
            Fold::Travis => Some(format!("travis_fold:start:olm-release.{stage}")),
            Fold::GitHubActions => Some(format!("::group::{stage}")),
        }
    }

    /// The line that closes it.
    pub(crate) fn end(self, stage: &str) -> Option<String> {
        match self {
            Fold::None => None,
            Fold::Travis => Some(format!("travis_fold:end:olm-release.{stage}")),
            Fold::GitHubActions => Some("::endgroup::".to_string()),
        }
    }
}
