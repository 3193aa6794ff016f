//! The `bundle_image:` and `catalog:` sections, resolved: the image target parsed (an `oci:`
//! folder resolved against the source folder), the tag checked, plain http refused off
//! loopback unless `--insecure`, the catalog folder resolved and kept inside the source or
//! the output folder, the image registry's credentials read from `OCI_USERNAME` and
//! `OCI_PASSWORD`, and `catalog.skips`/`catalog.skip_range` joined to the CSV's own edges (the
//! README promises them in the CSV's `spec.skips` and `olm.skipRange`, so the CSV in the image
//! says what its catalog entry says).

use std::path::{Path, PathBuf};

use super::inputs::{Env, PipelineFile};
use super::urls::resolve_path;
use crate::error::Problem;
use crate::pipeline::model::{BundleImageSpec, CatalogSpec};
use olm_release_base::secret::Secret;
use olm_release_oci::{self as oci, Target};

/// The variables holding the image registry's username and password (or token).
pub(crate) const OCI_USERNAME: &str = "OCI_USERNAME";
pub(crate) const OCI_PASSWORD: &str = "OCI_PASSWORD";

/// `bundle_image:`, resolved.
#[derive(Debug, Clone)]
pub(crate) struct BundleImageSettings {
    /// `None` when the target is unusable (a problem says why).
    pub(crate) target: Option<Target>,
    /// `None`: the version, as a tag.
    pub(crate) tag: Option<String>,
    /// The name the catalog pins by digest (`None`: unusable, a problem says why).
    pub(crate) image: Option<String>,
    pub(crate) insecure: bool,
}

/// `catalog:`, resolved.
#[derive(Debug, Clone)]
pub(crate) struct CatalogSettings {
    pub(crate) dir: PathBuf,
    pub(crate) skips: Vec<String>,
    pub(crate) skip_range: Option<String>,
    /// `catalog.older`: fetch-previous's policy when it reads this catalog.
    pub(crate) older: crate::pipeline::OlderPolicy,
}

pub(crate) fn bundle_image(
    spec: &BundleImageSpec,
    file: &PipelineFile,
    source: &Path,
    insecure: bool,
    problems: &mut Vec<Problem>,
) -> BundleImageSettings {
    let at = file.at(&["bundle_image", "target"]);
    let target = match Target::parse(&spec.target) {
        Ok(Target::Layout(p)) => Some(Target::Layout(resolve_path(source, &p))),
        Ok(Target::Registry(r)) => {
            if r.base.scheme() == "http" && !olm_release_http::is_loopback(&r.base) && !insecure {
                problems.push(Problem::new(
                    at,
                    format!(
                        "bundle_image.target: plain http to {} is refused off loopback; use https, or pass --insecure",
                        r.describe()
                    ),
                ));
                None
            } else {
                Some(Target::Registry(r))
            }
        }
        Err(e) => {
            problems.push(Problem::new(at, format!("bundle_image.target: {e}")));
            None
        }
    };
    if let Some(tag) = &spec.tag
        && let Err(e) = oci::check_tag(tag)
    {
        problems.push(Problem::new(
            file.at(&["bundle_image", "tag"]),
            format!("bundle_image.tag: {e}"),
        ));
    }
    let image = match (&spec.image, &target) {
        (Some(name), _)
            if name.contains('@') || name.rsplit('/').next().is_some_and(|l| l.contains(':')) =>
        {
            problems.push(Problem::new(
                file.at(&["bundle_image", "image"]),
                format!("bundle_image.image: '{name}' holds a tag or digest; give the name only (the catalog pins it by digest)"),
            ));
            None
        }
        (Some(name), _) => Some(name.clone()),
        (None, Some(Target::Registry(r))) => Some(r.describe()),
        (None, Some(Target::Layout(_))) => {
            problems.push(Problem::new(
                file.at(&["bundle_image", "target"]),
                "bundle_image.image: an oci: target needs the image name the catalog lists (e.g. image: quay.io/ORG/REPOSITORY)".to_string(),
            ));
            None
        }
        (None, None) => None,
    };
    BundleImageSettings {
        target,
        tag: spec.tag.clone(),
        image,
        insecure,
    }
}

/// `catalog:`; the folder must lie inside the source or the output folder, so a typo never
/// writes a catalog somewhere else on the machine.
pub(crate) fn catalog(
    spec: &CatalogSpec,
    file: &PipelineFile,
    source: &Path,
    out: &Path,
    problems: &mut Vec<Problem>,
) -> CatalogSettings {
    let dir = resolve_path(source, Path::new(&spec.dir));
    let inside = |root: &Path| normal(&dir).starts_with(normal(root));
    if spec.dir.is_empty() || !(inside(source) || inside(out)) {
        problems.push(Problem::new(
            file.at(&["catalog", "dir"]),
            format!(
                "catalog.dir: {} is outside the source folder {} and the output folder {}; give a folder inside one of them",
                dir.display(),
                source.display(),
                out.display()
            ),
        ));
    }
    CatalogSettings {
        dir,
        skips: spec.skips.clone(),
        skip_range: spec.skip_range.clone(),
        older: spec.older,
    }
}

/// `p` without `.` components and with `..` applied, so `a/../../b` cannot pass as inside `a`.
fn normal(p: &Path) -> PathBuf {
    let base = if p.is_absolute() {
        PathBuf::new()
    } else {
        std::env::current_dir().unwrap_or_default()
    };
    let mut out = PathBuf::new();
    for c in base.join(p).components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// `OCI_USERNAME` with `OCI_PASSWORD`; one without the other is a problem.
pub(crate) fn credentials(env: &Env, problems: &mut Vec<Problem>) -> Option<oci::Credentials> {
    let get = |k: &str| env.get(k).filter(|v| !v.is_empty());
    match (get(OCI_USERNAME), get(OCI_PASSWORD)) {
        (Some(u), Some(p)) => Some(oci::Credentials {
            username: u.clone(),
            password: Secret::new(p.clone()),
        }),
        (None, None) => None,
        (Some(_), None) | (None, Some(_)) => {
            problems.push(Problem::new(
                "OCI_USERNAME / OCI_PASSWORD",
                "set both (the image registry's username and password or token), or neither"
                    .to_string(),
            ));
            None
        }
    }
}

/// The new CSV's `spec.skips` and `olm.skipRange`: the top-level `skips`/`skip_range` with
/// `catalog.skips` added (each name once, in order) and `catalog.skip_range` as the range when
/// the top level sets none. Two different ranges are a problem: the CSV in the image and its
/// catalog entry would disagree.
pub(crate) fn csv_edges(
    skips: &[String],
    skip_range: Option<&str>,
    catalog: Option<&CatalogSpec>,
    file: &PipelineFile,
    problems: &mut Vec<Problem>,
) -> (Vec<String>, Option<String>) {
    let mut all = skips.to_vec();
    let Some(c) = catalog else {
        return (all, skip_range.map(str::to_string));
    };
    for s in &c.skips {
        if !all.contains(s) {
            all.push(s.clone());
        }
    }
    let range = match (skip_range, c.skip_range.as_deref()) {
        (Some(top), Some(cat)) if top != cat => {
            problems.push(Problem::new(
                file.at(&["catalog", "skip_range"]),
                format!(
                    "catalog.skip_range '{cat}' differs from skip_range '{top}': the CSV's olm.skipRange and its catalog entry's skipRange would disagree; keep one of them"
                ),
            ));
            Some(top.to_string())
        }
        (Some(r), _) | (None, Some(r)) => Some(r.to_string()),
        (None, None) => None,
    };
    (all, range)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parent_step_does_not_make_a_folder_inside() {
        assert!(normal(Path::new("/a/b/./c")).starts_with("/a/b"));
        assert!(!normal(Path::new("/a/b/../../etc")).starts_with("/a/b"));
    }
}
