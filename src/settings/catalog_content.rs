//! The catalog keys that shape what the catalog stage writes rather than where it goes:
//! `catalog.template` (an `olm.template.basic` or `olm.semver` file inside the source folder the
//! catalog is rendered from), `catalog.deprecate` (the release's `olm.deprecations` entries, each
//! naming exactly one bundle, channel or the package, with a message) and
//! `catalog.bundle_objects` (how an entry carries the bundle's manifests). Every problem is
//! collected with the key's line.

use std::path::{Path, PathBuf};

use olm_release_olm::fbc::{Deprecated, Deprecation, ObjectStyle};

use super::inputs::PipelineFile;
use super::urls::resolve_path;
use crate::error::Problem;
use crate::pipeline::model::CatalogSpec;

/// What `catalog:` says about the entries the stage writes.
#[derive(Debug, Clone)]
pub(crate) struct CatalogContent {
    /// How entries carry their manifests (`catalog.bundle_objects`; `None`: as the package's
    /// existing entries do).
    pub(crate) style: Option<ObjectStyle>,
    /// `catalog.template`, resolved against the source folder.
    pub(crate) template: Option<PathBuf>,
    /// `catalog.deprecate`, checked.
    pub(crate) deprecate: Vec<Deprecation>,
}

/// The content keys of `spec`; `source` is the folder `catalog.template` must lie in.
pub(crate) fn content(
    spec: &CatalogSpec,
    file: &PipelineFile,
    source: &Path,
    problems: &mut Vec<Problem>,
) -> CatalogContent {
    let template = spec.template.as_ref().map(|t| {
        let path = resolve_path(source, Path::new(t));
        if !normal(&path).starts_with(normal(source)) || !path.is_file() {
            problems.push(Problem::new(
                file.at(&["catalog", "template"]),
                format!(
                    "catalog.template: {} is not a file inside the source folder {}; name the olm.template.basic or olm.semver file the catalog is rendered from",
                    path.display(),
                    source.display()
                ),
            ));
        }
        path
    });
    CatalogContent {
        style: spec.bundle_objects.map(|b| {
            if b {
                ObjectStyle::BundleObjects
            } else {
                ObjectStyle::CsvMetadata
            }
        }),
        template,
        deprecate: deprecations(spec, file, problems),
    }
}

/// `catalog.deprecate`, each entry naming exactly one of a bundle, a channel or the package,
/// with a message.
fn deprecations(
    spec: &CatalogSpec,
    file: &PipelineFile,
    problems: &mut Vec<Problem>,
) -> Vec<Deprecation> {
    let mut out = Vec::new();
    for (i, d) in spec.deprecate.iter().enumerate() {
        let at = file.at(&["catalog", "deprecate"]);
        let what = match (&d.bundle, &d.channel, d.package) {
            (Some(b), None, false) if !b.is_empty() => Deprecated::Bundle(b.clone()),
            (None, Some(c), false) if !c.is_empty() => Deprecated::Channel(c.clone()),
            (None, None, true) => Deprecated::Package,
            _ => {
                problems.push(Problem::new(
                    at,
                    format!("catalog.deprecate[{i}]: name exactly one of bundle: NAME, channel: NAME or package: true"),
                ));
                continue;
            }
        };
        if d.message.trim().is_empty() {
            problems.push(Problem::new(
                at,
                format!(
                    "catalog.deprecate[{i}]: message is empty; say why, and what to use instead"
                ),
            ));
            continue;
        }
        out.push(Deprecation {
            what,
            message: d.message.clone(),
        });
    }
    out
}

/// `p` without `.` components and with `..` applied, so `a/../../b` cannot pass as inside `a`.
pub(crate) fn normal(p: &Path) -> PathBuf {
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
