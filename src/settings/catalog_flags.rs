//! A catalog target given on a command line (`import --catalog`, with `--catalog-branch`,
//! `--catalog-path` and `--base-image`), checked as the pipeline's `catalog:` keys are
//! ([`super::catalog`]).

use std::path::Path;

use super::author::author;
use super::catalog::{CatalogTarget, Parsed, TargetRun, parse_target};
use super::catalog_keys::{DEFAULT_AUTHOR, DEFAULT_PATH, base_image, branch_ok, folder_in_repo};
use super::pull_request::pull_request;
use super::urls::resolve_path;
use crate::error::Problem;
use crate::pipeline::model::PullRequestSpec;

/// A catalog target given on a command line (`import --catalog`): `dir:PATH` or a plain folder
/// (anywhere, since the user named it), `git:URL` with `branch` and `path`, or `image:REF:TAG`
/// with `base`, checked as the pipeline's `catalog:` keys are, and built with `run`; the
/// problems name the flags.
pub(crate) fn command_target(
    target: &str,
    branch: Option<&str>,
    path: Option<&str>,
    base: Option<&str>,
    cwd: &Path,
    insecure: bool,
    run: &TargetRun,
) -> Result<CatalogTarget, Vec<Problem>> {
    let mut problems = Vec::new();
    let known = ["dir:", "git:", "image:"]
        .iter()
        .any(|p| target.starts_with(p));
    let parsed = if known && !target.starts_with("dir:") {
        parse_target(target, cwd, cwd, insecure)
    } else {
        let dir = target.strip_prefix("dir:").unwrap_or(target);
        match dir.is_empty() {
            true => Err("dir: needs a folder".to_string()),
            false => Ok(Parsed::Dir(resolve_path(cwd, Path::new(dir)))),
        }
    };
    let kind = Parsed::kind;
    let target = match parsed {
        Ok(t) => t,
        Err(m) => return Err(vec![Problem::new("--catalog", m)]),
    };
    for (flag, set, wants) in [
        ("--catalog-branch", branch.is_some(), "git"),
        ("--catalog-path", path.is_some(), "git"),
        ("--base-image", base.is_some(), "image"),
    ] {
        if set && kind(&target) != wants {
            problems.push(Problem::new(
                flag,
                format!("is for {wants}: catalogs; --catalog is {}:", kind(&target)),
            ));
        }
    }
    let target = match target {
        Parsed::Git(url) => {
            if let Some(b) = branch.filter(|b| !branch_ok(b)) {
                problems.push(Problem::new(
                    "--catalog-branch",
                    format!("'{b}' is not a branch name git accepts"),
                ));
            }
            let path = match path.map(folder_in_repo).transpose() {
                Ok(p) => p.unwrap_or_else(|| DEFAULT_PATH.to_string()),
                Err(m) => {
                    problems.push(Problem::new("--catalog-path", m));
                    DEFAULT_PATH.to_string()
                }
            };
            let author = author(DEFAULT_AUTHOR).unwrap_or_default();
            Some(run.git(url, branch.map(str::to_string), path, author, None))
        }
        Parsed::Image(image, tag) => {
            let base = match base.map(|b| base_image(b, cwd, insecure)) {
                None => {
                    problems.push(Problem::new(
                        "--base-image",
                        "an image: catalog needs the opm base image, pinned by digest (e.g. quay.io/operator-framework/opm@sha256:…)",
                    ));
                    None
                }
                Some(Ok(b)) => Some(b),
                Some(Err(m)) => {
                    problems.push(Problem::new("--base-image", m));
                    None
                }
            };
            base.map(|b| CatalogTarget::Image(Box::new(run.image(image, tag, b, insecure))))
        }
        Parsed::Dir(dir) => Some(CatalogTarget::Dir { dir }),
    };
    match (problems.is_empty(), target) {
        (true, Some(target)) => Ok(target),
        _ => Err(problems),
    }
}

/// `import --pull-request` with `--pull-request-repository`, `--pull-request-fork` and
/// `--github-api`: the catalog proposed as a pull request, checked as a pipeline's
/// `catalog.pull_request` is; only a git: catalog can be proposed.
pub(crate) fn command_pull_request(
    target: &mut CatalogTarget,
    repository: Option<&str>,
    fork: Option<&str>,
    api: Option<&str>,
    insecure: bool,
    run: &TargetRun,
) -> Result<(), Problem> {
    let CatalogTarget::Git(g) = target else {
        return Err(Problem::new(
            "--pull-request",
            "is for git: catalogs (a GitHub repository's URL)",
        ));
    };
    let spec = PullRequestSpec {
        repository: repository.map(str::to_string),
        fork: fork.map(str::to_string),
        api_url: api.map(str::to_string),
        ..PullRequestSpec::default()
    };
    let flag = |key: &str| match key {
        "repository" => "--pull-request-repository",
        "fork" => "--pull-request-fork",
        "api_url" => "--github-api",
        _ => "--pull-request",
    };
    let pr = pull_request(&spec, &g.git, insecure, run)
        .map_err(|(key, m)| Problem::new(flag(key), m))?;
    g.pull_request = Some(pr);
    Ok(())
}
