//! The `catalog:` and `operatorhub:` keys besides the target, checked one by one: a branch
//! name git accepts, a folder inside the repository, an author `Name <email>`, `OWNER/REPO`,
//! a base image pinned by digest.

use std::path::Path;

use super::author::author;
use super::urls::resolve_path;
use crate::pipeline::model::CatalogSpec;
use olm_release_oci::ImageLocation;
use olm_release_olm::fbc::swap::Patience;

/// The default of `catalog.path` for git targets.
pub(crate) const DEFAULT_PATH: &str = "catalog";
/// The default of `catalog.author`.
pub(crate) const DEFAULT_AUTHOR: &str = "olm-release <olm-release@users.noreply.github.com>";
/// The default of `catalog.publish_deadline_seconds`.
pub(crate) const DEFAULT_PUBLISH_DEADLINE: std::time::Duration =
    std::time::Duration::from_secs(300);

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

/// Keys of one kind of target refused on another (`kind`), so a typo in `target` is not
/// silent.
pub(super) fn refuse_other_kinds(
    spec: &CatalogSpec,
    kind: Option<&str>,
    problem: &mut impl FnMut(&str, String),
) {
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
}

/// A git target's `branch`, `path` (default `catalog`) and `author` (default
/// [`DEFAULT_AUTHOR`]); an unusable one is a problem, and the default (or nothing) stands in.
pub(super) fn git_keys(
    spec: &CatalogSpec,
    problem: &mut impl FnMut(&str, String),
) -> (Option<String>, String, (String, String)) {
    if let Some(b) = &spec.branch
        && !branch_ok(b)
    {
        problem(
            "branch",
            format!("catalog.branch: '{b}' is not a branch name git accepts"),
        );
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
    (spec.branch.clone(), path, author)
}

/// An image target's `base_image`, pinned by digest (`None`: missing or unusable; a problem
/// says why).
pub(super) fn base_key(
    spec: &CatalogSpec,
    source: &Path,
    insecure: bool,
    problem: &mut impl FnMut(&str, String),
) -> Option<(ImageLocation, String)> {
    match spec.base_image.as_deref() {
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
    }
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
pub(super) fn github_repo(url: &str) -> Option<(String, String)> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
