//! Which CI configurations `init` writes: those asked for (`--ci`), else those of the CI
//! services the repository already uses, told by the files each service reads — GitHub
//! Actions a workflow under `.github/workflows/`
//! (<https://docs.github.com/en/actions/using-workflows/about-workflows>), Travis CI
//! `.travis.yml`, GitLab CI/CD `.gitlab-ci.yml` (<https://docs.gitlab.com/ee/ci/yaml/>). A
//! repository that uses none gets none, and `init` says so rather than guessing.
//!
//! GitLab reads one `.gitlab-ci.yml`, which is the project's: `init` writes its job to a file
//! of its own and asks the user to include it (`include: local`,
//! <https://docs.gitlab.com/ee/ci/yaml/includes.html>), never editing the project's file.

use std::path::Path;

use super::request::CiService;

/// Where the GitLab job goes; the repository's `.gitlab-ci.yml` includes it.
pub(crate) const GITLAB_FILE: &str = ".gitlab/olm-release.gitlab-ci.yml";

/// The CI services to write for, and a line saying why (for `init`'s report).
pub(crate) fn choose(source: &Path, asked: Option<&[CiService]>) -> (Vec<CiService>, String) {
    if let Some(asked) = asked {
        let why = match asked {
            [] => "no CI configuration (--ci none)".to_string(),
            some => format!("CI configurations for {} (--ci)", names(some)),
        };
        return (asked.to_vec(), why);
    }
    let used = used(source);
    let why = match used.as_slice() {
        [] => "no CI configuration: the repository has no .github/workflows/, .travis.yml or .gitlab-ci.yml (pass --ci github, travis or gitlab to have one written)".to_string(),
        some => format!("CI configurations for {}, the CI the repository uses", names(some)),
    };
    (used, why)
}

/// The CI services whose configuration the repository holds.
pub(crate) fn used(source: &Path) -> Vec<CiService> {
    let mut out = Vec::new();
    let workflows = std::fs::read_dir(source.join(".github/workflows"))
        .map(|dir| {
            dir.filter_map(Result::ok).any(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                name.ends_with(".yml") || name.ends_with(".yaml")
            })
        })
        .unwrap_or(false);
    if workflows {
        out.push(CiService::Github);
    }
    if source.join(".travis.yml").is_file() {
        out.push(CiService::Travis);
    }
    if source.join(".gitlab-ci.yml").is_file() {
        out.push(CiService::Gitlab);
    }
    out
}

fn names(services: &[CiService]) -> String {
    services
        .iter()
        .map(|s| match s {
            CiService::Github => "GitHub Actions",
            CiService::Travis => "Travis CI",
            CiService::Gitlab => "GitLab CI/CD",
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The next step a GitLab job needs: the project's `.gitlab-ci.yml` including it, unless it
/// already names the file.
pub(crate) fn gitlab_step(source: &Path) -> Option<String> {
    let text = std::fs::read_to_string(source.join(".gitlab-ci.yml")).unwrap_or_default();
    (!text.contains(GITLAB_FILE)).then(|| {
        format!(
            "add to .gitlab-ci.yml: `include: [{{local: {GITLAB_FILE}}}]` (GitLab runs the olm-release job from there)"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ci_the_repository_uses_and_none_guessed() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let (none, why) = choose(d, None);
        assert!(none.is_empty());
        assert!(
            why.starts_with("no CI configuration: the repository has no"),
            "{why}"
        );
        std::fs::create_dir_all(d.join(".github/workflows")).unwrap();
        assert!(used(d).is_empty(), "an empty workflows folder runs nothing");
        std::fs::write(d.join(".github/workflows/test.yaml"), "on: push\n").unwrap();
        std::fs::write(d.join(".gitlab-ci.yml"), "stages: [test]\n").unwrap();
        let (both, why) = choose(d, None);
        assert_eq!(both, vec![CiService::Github, CiService::Gitlab]);
        assert!(why.contains("GitHub Actions, GitLab CI/CD"), "{why}");
        assert!(gitlab_step(d).unwrap().contains(GITLAB_FILE));
        std::fs::write(d.join(".travis.yml"), "language: go\n").unwrap();
        assert_eq!(choose(d, Some(&[])).0, vec![]);
        assert_eq!(choose(d, None).0.len(), 3);
        std::fs::write(
            d.join(".gitlab-ci.yml"),
            format!("include:\n  - local: {GITLAB_FILE}\n"),
        )
        .unwrap();
        assert_eq!(gitlab_step(d), None, "already included");
    }
}
