//! The `catalog:` section, resolved: where the catalog is kept (its target) and how the entry
//! is added.
//!
//! Targets: `dir:PATH` (or the older `dir: PATH`), a folder that must lie inside the source or
//! the output folder, so a typo never writes a catalog somewhere else on the machine;
//! `git:URL` with `branch` and `path`, any URL or path the git CLI reaches (a relative path is
//! a repository under `--source`; credentials never in the URL, plain `http://` only on
//! loopback or with `--insecure`); `image:HOST[:PORT]/REPOSITORY:TAG` or `image:oci:PATH:TAG`,
//! a catalog image built on `base_image`, which must be pinned by digest.

use std::path::{Path, PathBuf};

use std::sync::Arc;

use super::catalog_content::{CatalogContent, content, normal};
use super::catalog_target::{CatalogTarget, PullRequest, TargetRun};
use super::inputs::PipelineFile;
use super::urls::{check_url, resolve_path};
use crate::error::Problem;
use crate::pipeline::model::{CatalogSpec, OperatorHubSpec, PullRequestSpec};
use olm_release_oci::ImageLocation;
use olm_release_olm::fbc::swap::Patience;

/// The default of `catalog.path` for git targets.
pub(crate) const DEFAULT_PATH: &str = "catalog";
/// The default of `catalog.author`.
pub(crate) const DEFAULT_AUTHOR: &str = "olm-release <olm-release@users.noreply.github.com>";
/// The default of `catalog.publish_deadline_seconds`.
pub(crate) const DEFAULT_PUBLISH_DEADLINE: std::time::Duration =
    std::time::Duration::from_secs(300);

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

/// `catalog.retries` and `catalog.publish_deadline_seconds`: how long, and at most how many
/// times, a job tries again after another job moved the target.
pub(crate) fn patience(spec: &CatalogSpec) -> Patience {
    Patience {
        deadline: spec
            .publish_deadline_seconds
            .map_or(DEFAULT_PUBLISH_DEADLINE, std::time::Duration::from_secs),
        retries: spec.retries,
    }
}

/// `catalog.retry_max_seconds`: how long one git command that talks to the remote may take.
pub(crate) fn git_budget(spec: &CatalogSpec) -> std::time::Duration {
    spec.retry_max_seconds.map_or(
        olm_release_http::retry::RetryPolicy::default().max_total,
        std::time::Duration::from_secs,
    )
}

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
    // Keys of one kind of target are refused on another, so a typo in `target` is not silent.
    for (key, set, wants) in [
        ("branch", spec.branch.is_some(), "git"),
        ("path", spec.path.is_some(), "git"),
        ("author", spec.author.is_some(), "git"),
        ("pull_request", spec.pull_request.is_some(), "git"),
        ("base_image", spec.base_image.is_some(), "image"),
    ] {
        if set && kind.is_some_and(|k| k != wants) {
            problem(
                key,
                format!(
                    "catalog.{key} is for {wants}: targets; this target is {}:",
                    kind.unwrap_or_default()
                ),
            );
        }
    }
    let target = parsed.and_then(|t| match t {
        Parsed::Dir(dir) => Some(CatalogTarget::Dir { dir }),
        Parsed::Git(url) => {
            if let Some(b) = &spec.branch
                && !branch_ok(b)
            {
                problem("branch", format!("catalog.branch: '{b}' is not a branch name git accepts"));
            }
            let path = match spec.path.as_deref().map(folder_in_repo).transpose() {
                Ok(p) => p.unwrap_or_else(|| DEFAULT_PATH.to_string()),
                Err(m) => {
                    problem("path", format!("catalog.path: {m}"));
                    DEFAULT_PATH.to_string()
                }
            };
            let author = author(spec.author.as_deref().unwrap_or(DEFAULT_AUTHOR))
                .map_err(|m| problem("author", format!("catalog.author: {m}")))
                .unwrap_or_default();
            let pull_request = spec.pull_request.as_ref().and_then(|pr| {
                pull_request(pr, &url, insecure, run)
                    .map_err(|(key, m)| problem("pull_request", format!("catalog.pull_request.{key}: {m}")))
                    .ok()
            });
            Some(run.git(url, spec.branch.clone(), path, author, pull_request))
        }
        Parsed::Image(target, tag) => {
            let base = match spec.base_image.as_deref() {
                None => {
                    problem(
                        "target",
                        "catalog.base_image: an image target needs the opm base image, pinned by digest (e.g. quay.io/operator-framework/opm@sha256:…)".into(),
                    );
                    None
                }
                Some(b) => base_image(b, source, insecure)
                    .map_err(|m| problem("base_image", format!("catalog.base_image: {m}")))
                    .ok(),
            };
            Some(run.image(target, tag, base?, insecure))
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

/// `HOST[:PORT]/REPOSITORY[:TAG]@sha256:…` or `oci:PATH@sha256:…`.
pub(super) fn base_image(
    text: &str,
    source: &Path,
    insecure: bool,
) -> Result<(ImageLocation, String), String> {
    let Some((name, digest)) = text.rsplit_once('@') else {
        return Err(format!(
            "'{text}' is not pinned by digest; write NAME@sha256:… (skopeo inspect docker://NAME:TAG prints the digest)"
        ));
    };
    let hex = digest.strip_prefix("sha256:").unwrap_or_default();
    if hex.len() != 64
        || !hex
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
    {
        return Err(format!(
            "'{digest}' is not a sha256 digest (sha256: and 64 lowercase hex digits)"
        ));
    }
    // A tag before the digest is allowed (name:v1.50.0@sha256:…) and ignored.
    let name = match name.rsplit_once(':') {
        Some((n, tag))
            if !tag.contains('/') && !n.is_empty() && n != "oci" && !name.starts_with("oci:") =>
        {
            n
        }
        _ => name,
    };
    let target = ImageLocation::parse(name).map_err(|e| e.to_string())?;
    let target = match target {
        ImageLocation::Layout(p) => ImageLocation::Layout(resolve_path(source, &p)),
        ImageLocation::Remote(r) => {
            if r.base.scheme() == "http" && !olm_release_http::is_loopback(&r.base) && !insecure {
                return Err(format!(
                    "plain http to {} is refused off loopback; use https, or pass --insecure",
                    r.describe()
                ));
            }
            ImageLocation::Remote(r)
        }
    };
    Ok((target, digest.to_string()))
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

/// `OWNER/REPO`.
pub(crate) fn owner_repo(text: &str) -> Option<(String, String)> {
    let (o, r) = text.split_once('/')?;
    let ok = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
    };
    (ok(o) && ok(r)).then(|| (o.to_string(), r.to_string()))
}

/// OWNER and REPO of `https://github.com/OWNER/REPO[.git]`.
fn github_repo(url: &str) -> Option<(String, String)> {
    let rest = url.strip_prefix("https://github.com/")?;
    owner_repo(rest.trim_end_matches('/').trim_end_matches(".git"))
}

/// A branch name git accepts (git-check-ref-format(1), the rules that matter here).
pub(crate) fn branch_ok(b: &str) -> bool {
    !b.is_empty()
        && !b.starts_with(['/', '-', '.'])
        && !b.ends_with(['/', '.'])
        && !b.ends_with(".lock")
        && !b.contains("..")
        && !b.contains("//")
        && !b.contains("@{")
        && b.bytes()
            .all(|c| c > b' ' && c != 0x7f && !b"~^:?*[\\".contains(&c))
}

/// A folder inside the repository: relative, no `..`, `/` as separator, no trailing `/`.
pub(super) fn folder_in_repo(p: &str) -> Result<String, String> {
    let p = p.trim_end_matches('/');
    if p.is_empty()
        || p.starts_with('/')
        || p.split('/').any(|c| c.is_empty() || c == "." || c == "..")
        || p.starts_with(".git")
    {
        return Err(format!(
            "'{p}' is not a folder inside the repository (a relative path such as catalog)"
        ));
    }
    Ok(p.to_string())
}

/// `Name <email>`.
pub(crate) fn author(text: &str) -> Result<(String, String), String> {
    let parsed = text
        .trim()
        .strip_suffix('>')
        .and_then(|t| t.rsplit_once('<'))
        .map(|(n, e)| (n.trim(), e.trim()));
    match parsed {
        Some((n, e))
            if !n.is_empty()
                && e.contains('@')
                && !e.contains(['<', '>', '\n'])
                && !n.contains(['<', '>', '\n']) =>
        {
            Ok((n.to_string(), e.to_string()))
        }
        _ => Err(format!("'{text}' is not `Name <email>`")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parent_step_does_not_make_a_folder_inside() {
        assert!(normal(Path::new("/a/b/./c")).starts_with("/a/b"));
        assert!(!normal(Path::new("/a/b/../../etc")).starts_with("/a/b"));
    }

    #[test]
    fn targets_of_each_kind_parse() {
        let src = Path::new("/src");
        let out = Path::new("/src/_out");
        assert_eq!(
            parse_target("dir:catalog", src, out, false),
            Ok(Parsed::Dir("/src/catalog".into()))
        );
        assert_eq!(
            parse_target("git:https://github.com/acme/op.git", src, out, false),
            Ok(Parsed::Git("https://github.com/acme/op.git".into()))
        );
        assert_eq!(
            parse_target("git:../catalogs.git", src, out, false),
            Ok(Parsed::Git("/src/../catalogs.git".into()))
        );
        assert_eq!(
            parse_target("git:git@github.com:acme/op.git", src, out, false),
            Ok(Parsed::Git("git@github.com:acme/op.git".into()))
        );
        assert!(
            parse_target("git:https://user:pw@github.com/a/b.git", src, out, false)
                .unwrap_err()
                .contains("credentials")
        );
        assert!(
            parse_target("git:https://tok@github.com/a/b.git", src, out, false)
                .unwrap_err()
                .contains("GIT_USERNAME")
        );
        assert!(
            parse_target("git:http://git.example.com/a.git", src, out, false)
                .unwrap_err()
                .contains("--insecure")
        );
        let Ok(Parsed::Image(target, tag)) =
            parse_target("image:quay.io/acme/catalog:latest", src, out, false)
        else {
            panic!()
        };
        assert_eq!(
            (target.describe().as_str(), tag.as_str()),
            ("quay.io/acme/catalog", "latest")
        );
        let Ok(Parsed::Image(target, tag)) =
            parse_target("image:127.0.0.1:5000/acme/catalog:v1", src, out, false)
        else {
            panic!()
        };
        assert_eq!(
            (target.describe().as_str(), tag.as_str()),
            ("127.0.0.1:5000/acme/catalog", "v1")
        );
        let Ok(Parsed::Image(target, tag)) = parse_target("image:oci:_out/cat:v1", src, out, false)
        else {
            panic!()
        };
        assert_eq!(
            (target, tag.as_str()),
            (ImageLocation::Layout("/src/_out/cat".into()), "v1")
        );
        assert!(
            parse_target("image:quay.io/acme/catalog", src, out, false)
                .unwrap_err()
                .contains("no tag")
        );
        assert!(
            parse_target("image:127.0.0.1:5000/acme/catalog", src, out, false)
                .unwrap_err()
                .contains("no tag")
        );
        assert!(parse_target("catalog", src, out, false).is_err());
    }

    #[test]
    fn base_images_are_pinned_by_digest() {
        let d = format!("sha256:{}", "a".repeat(64));
        let (r, digest) = base_image(
            &format!("quay.io/operator-framework/opm:v1.50.0@{d}"),
            Path::new("/s"),
            false,
        )
        .unwrap();
        assert_eq!(
            (r.describe().as_str(), digest.as_str()),
            ("quay.io/operator-framework/opm", d.as_str())
        );
        let (r, _) = base_image(&format!("oci:base@{d}"), Path::new("/s"), false).unwrap();
        assert_eq!(r, ImageLocation::Layout("/s/base".into()));
        assert!(
            base_image(
                "quay.io/operator-framework/opm:latest",
                Path::new("/s"),
                false
            )
            .unwrap_err()
            .contains("pinned by digest")
        );
        assert!(base_image("quay.io/o/opm@sha256:abc", Path::new("/s"), false).is_err());
    }

    #[test]
    fn authors_branches_and_repositories() {
        assert_eq!(author("A B <a@b.c>"), Ok(("A B".into(), "a@b.c".into())));
        assert!(author("a@b.c").is_err());
        assert!(
            branch_ok("olm-release/op-0.2.0")
                && !branch_ok("a..b")
                && !branch_ok("-x")
                && !branch_ok("a b")
        );
        assert_eq!(
            github_repo("https://github.com/acme/op.git"),
            Some(("acme".into(), "op".into()))
        );
        assert_eq!(github_repo("https://gitlab.com/acme/op.git"), None);
        assert_eq!(
            folder_in_repo("operators/catalog/"),
            Ok("operators/catalog".into())
        );
        assert!(
            folder_in_repo("../x").is_err()
                && folder_in_repo("/x").is_err()
                && folder_in_repo(".git").is_err()
        );
    }
}
