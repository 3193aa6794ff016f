//! The `catalog:` section, resolved: where the catalog is kept, as one typed value
//! ([`CatalogTarget`]: the target with everything its store needs to read it, write it and know
//! whether someone else wrote it meanwhile, built once here from the keys and the run's
//! credentials, time and output folder, [`TargetRun`]; the plan holds it as built and the
//! executor's catalog step hands it to its store), and how the entry is added.
//!
//! Targets: `dir:PATH` (or the older `dir: PATH`), a folder that must lie inside the source or
//! the output folder, so a typo never writes a catalog somewhere else on the machine;
//! `git:URL` with `branch` and `path`, any URL or path the git CLI reaches (a relative path is
//! a repository under `--source`; credentials never in the URL, plain `http://` only on
//! loopback or with `--insecure`); `image:HOST[:PORT]/REPOSITORY:TAG` or `image:oci:PATH:TAG`,
//! a catalog image built on `base_image`, which must be pinned by digest.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

use super::author::CommitAuthor;
use super::catalog_content::{CatalogContent, content, normal};
use super::catalog_keys as keys;
pub(crate) use super::catalog_keys::DEFAULT_PUBLISH_DEADLINE;
use super::images::ImageTarget;
use super::inputs::PipelineFile;
use super::pull_request::{PullRequest, pull_request};
pub(crate) use super::target_run::TargetRun;
use super::urls::{check_url, resolve_path};
use crate::error::Problem;
use crate::pipeline::model::CatalogSpec;
use olm_release_oci::ImageLocation;
use olm_release_olm::fbc::swap::Patience;

/// `catalog:`, resolved.
#[derive(Debug, Clone)]
pub(crate) struct CatalogSettings {
    /// The one catalog target, built once (the plan's steps share it); `None` when it is
    /// unusable (a problem says why).
    pub(crate) target: Option<Arc<CatalogTarget>>,
    /// The kind the target names (`dir`, `git`, `image`), even when it is unusable.
    pub(crate) kind: Option<&'static str>,
    pub(crate) skips: Vec<String>,
    pub(crate) skip_range: Option<String>,
    /// `catalog.older`: fetch-previous's policy when it reads this catalog.
    pub(crate) older: crate::pipeline::OlderPolicy,
    /// What the entries carry: `catalog.bundle_objects`, `catalog.template`, `catalog.deprecate`.
    pub(crate) content: CatalogContent,
}

/// `catalog.target` (or `import --catalog`) as written, checked: the kind, and what it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Parsed {
    /// A folder.
    Dir(PathBuf),
    /// A git URL or path, as the git CLI takes it (a relative path resolved against `--source`).
    Git(String),
    /// A catalog image and its tag.
    Image(ImageLocation, String),
}

impl Parsed {
    pub(super) fn kind(&self) -> &'static str {
        match self {
            Parsed::Dir(_) => "dir",
            Parsed::Git(_) => "git",
            Parsed::Image(..) => "image",
        }
    }
}

/// `catalog:`, its target built with `run`.
pub(crate) fn catalog(
    spec: &CatalogSpec,
    file: &PipelineFile,
    source: &Path,
    out: &Path,
    insecure: bool,
    run: &TargetRun,
    problems: &mut Vec<Problem>,
) -> CatalogSettings {
    let mut problem = |key: &str, message: String| {
        problems.push(Problem::new(file.at(&["catalog", key]), message));
    };
    let parsed = match (&spec.target, &spec.dir) {
        (Some(_), Some(_)) => {
            problem(
                "dir",
                "catalog.dir and catalog.target are both set; keep one (catalog.dir: PATH is target: dir:PATH)".into(),
            );
            None
        }
        (None, None) => {
            problem(
                "target",
                "catalog: needs a target (dir:PATH, git:URL, image:HOST/REPOSITORY:TAG or image:oci:PATH:TAG)".into(),
            );
            None
        }
        (None, Some(dir)) => dir_target(dir, "catalog.dir", source, out)
            .map_err(|m| problem("dir", m))
            .ok(),
        (Some(t), None) => parse_target(t, source, out, insecure)
            .map_err(|m| problem("target", format!("catalog.target: {m}")))
            .ok(),
    };
    let kind = parsed.as_ref().map(Parsed::kind);
    keys::refuse_other_kinds(spec, kind, &mut problem);
    let target = parsed.and_then(|t| match t {
        Parsed::Dir(dir) => Some(CatalogTarget::Dir { dir }),
        Parsed::Git(url) => {
            let (branch, path, author) = keys::git_keys(spec, &mut problem);
            let pull_request = spec.pull_request.as_ref().and_then(|pr| {
                pull_request(pr, &url, insecure, run)
                    .map_err(|(key, m)| {
                        problem("pull_request", format!("catalog.pull_request.{key}: {m}"))
                    })
                    .ok()
            });
            Some(run.git(url, branch, path, author, pull_request))
        }
        Parsed::Image(image, tag) => {
            let base = keys::base_key(spec, source, insecure, &mut problem)?;
            Some(CatalogTarget::Image(Box::new(
                run.image(image, tag, base, insecure),
            )))
        }
    });
    CatalogSettings {
        target: target.map(Arc::new),
        kind,
        skips: spec.skips.clone(),
        skip_range: spec.skip_range.clone(),
        older: spec.older,
        content: content(spec, file, source, problems),
    }
}

/// `dir:PATH`, `git:URL` or `image:…`.
pub(super) fn parse_target(
    t: &str,
    source: &Path,
    out: &Path,
    insecure: bool,
) -> Result<Parsed, String> {
    if let Some(dir) = t.strip_prefix("dir:") {
        return dir_target(dir, "catalog.target", source, out);
    }
    if let Some(url) = t.strip_prefix("git:") {
        return Ok(Parsed::Git(git_url(url, source, insecure)?));
    }
    if let Some(image) = t.strip_prefix("image:") {
        let (target, tag) = image_ref(image, source)?;
        if let ImageLocation::Remote(r) = &target
            && r.base.scheme() == "http"
            && !olm_release_http::is_loopback(&r.base)
            && !insecure
        {
            return Err(format!(
                "plain http to {} is refused off loopback; use https, or pass --insecure",
                r.describe()
            ));
        }
        return Ok(Parsed::Image(target, tag));
    }
    Err(format!(
        "'{t}' is none of dir:PATH, git:URL, image:HOST[:PORT]/REPOSITORY:TAG or image:oci:PATH:TAG"
    ))
}

/// A catalog folder inside the source or the output folder.
fn dir_target(dir: &str, key: &str, source: &Path, out: &Path) -> Result<Parsed, String> {
    let path = resolve_path(source, Path::new(dir));
    let inside = |root: &Path| normal(&path).starts_with(normal(root));
    if dir.is_empty() || !(inside(source) || inside(out)) {
        return Err(format!(
            "{key}: {} is outside the source folder {} and the output folder {}; give a folder inside one of them",
            path.display(),
            source.display(),
            out.display()
        ));
    }
    Ok(Parsed::Dir(path))
}

/// A git URL (`https://`, `http://` on loopback or with `--insecure`, `ssh://`, `git://`,
/// `file://`, scp-like `user@host:path`) without credentials, or a path (relative to `--source`).
fn git_url(url: &str, source: &Path, insecure: bool) -> Result<String, String> {
    if url.is_empty() {
        return Err("git: needs a URL or a path".into());
    }
    if let Some((scheme, _)) = url.split_once("://") {
        match scheme {
            "https" | "http" => {
                if reqwest::Url::parse(url)
                    .is_ok_and(|u| !u.username().is_empty() && u.password().is_none())
                {
                    return Err(format!(
                        "the URL of {} names a user; remove it and set GIT_USERNAME instead",
                        reqwest::Url::parse(url)
                            .ok()
                            .and_then(|u| u.host_str().map(str::to_string))
                            .unwrap_or_default()
                    ));
                }
                check_url(url, insecure).map_err(|e| {
                    e.replace("QUAY_TOKEN, GITHUB_TOKEN, …", "GIT_TOKEN or GITHUB_TOKEN")
                })?;
                Ok(url.to_string())
            }
            "ssh" | "git" | "file" => Ok(url.to_string()),
            other => Err(format!(
                "'{other}://' is not a transport olm-release drives git over (https, ssh, git, file)"
            )),
        }
    } else if scp_like(url) {
        Ok(url.to_string())
    } else {
        Ok(resolve_path(source, Path::new(url)).display().to_string())
    }
}

/// `[user@]host:path` as git reads it: a colon before any slash.
fn scp_like(url: &str) -> bool {
    match (url.find(':'), url.find('/')) {
        (Some(c), Some(s)) => c < s && c > 1,
        (Some(c), None) => c > 1,
        _ => false,
    }
}

/// `image:HOST[:PORT]/REPOSITORY:TAG` or `image:oci:PATH:TAG`, without `image:`.
fn image_ref(text: &str, source: &Path) -> Result<(ImageLocation, String), String> {
    let (name, tag) = match text.rsplit_once(':') {
        Some((name, tag)) if !tag.contains('/') && !name.is_empty() && name != "oci" => (name, tag),
        _ => {
            return Err(format!(
                "'image:{text}' has no tag; write image:HOST[:PORT]/REPOSITORY:TAG or image:oci:PATH:TAG"
            ));
        }
    };
    olm_release_oci::check_tag(tag).map_err(|e| e.to_string())?;
    let target = ImageLocation::parse(name).map_err(|e| e.to_string())?;
    Ok(match target {
        ImageLocation::Layout(p) => (ImageLocation::Layout(resolve_path(source, &p)), tag.into()),
        r => (r, tag.into()),
    })
}

/// Where the catalog is kept, and how to reach it.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub(crate) enum CatalogTarget {
    /// A folder, locked from fetch-previous to the write.
    Dir { dir: PathBuf },
    /// A folder of a git branch.
    Git(Box<GitTarget>),
    /// A catalog image's tag.
    Image(Box<ImageTarget>),
}

impl CatalogTarget {
    /// `dir:PATH`, `git:URL (branch B, folder P)`, `image:REF:TAG`.
    pub(crate) fn describe(&self) -> String {
        match self {
            CatalogTarget::Dir { dir } => dir.display().to_string(),
            CatalogTarget::Git(g) => format!(
                "{}/ of branch {} of {}",
                g.path,
                g.branch.as_deref().unwrap_or("(the default branch)"),
                g.git
            ),
            CatalogTarget::Image(i) => i.describe(),
        }
    }

    /// How long and how often a job tries again after another job moved the target
    /// (`catalog.publish_deadline_seconds`, `catalog.retries`; a `dir:` folder is locked, so
    /// it never moves).
    pub(crate) fn patience(&self) -> Patience {
        match self {
            CatalogTarget::Dir { .. } => Patience {
                deadline: std::time::Duration::ZERO,
                retries: Some(0),
            },
            CatalogTarget::Git(g) => g.patience,
            CatalogTarget::Image(i) => i.patience,
        }
    }
}

/// A folder of a branch of a git repository.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct GitTarget {
    /// The URL or path, as the git CLI takes it (a relative path resolved against `--source`).
    pub(crate) git: String,
    /// `None`: the remote's default branch.
    pub(crate) branch: Option<String>,
    /// The catalog folder in the repository (`catalog.path`), with `/`, no leading `/`.
    pub(crate) path: String,
    /// The commit's author and committer, and its date.
    #[serde(flatten)]
    pub(crate) commit: CommitAuthor,
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
    pub(crate) pull_request: Option<PullRequest>,
    /// The scratch checkout (under the output folder).
    #[serde(skip)]
    pub(crate) scratch: PathBuf,
}

impl TargetRun<'_> {
    /// `git:URL`: the folder `path` of `branch`, committed as `author`.
    pub(crate) fn git(
        &self,
        url: String,
        branch: Option<String>,
        path: String,
        author: (String, String),
        pull_request: Option<PullRequest>,
    ) -> CatalogTarget {
        CatalogTarget::Git(Box::new(GitTarget {
            git: url,
            branch,
            path,
            commit: CommitAuthor::new(author, (self.epoch)()),
            credentials: self.git.as_ref().map(|_| super::GIT_CREDENTIALS),
            secret: self.git.clone(),
            patience: self.patience,
            budget: self.budget,
            pull_request,
            scratch: self.scratch.join("catalog-git"),
        }))
    }
}

#[cfg(test)]
mod tests;
