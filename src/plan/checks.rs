//! The plan's checks before anything runs: credentials present and sendable for every write,
//! the release step's assets (each will exist, none twice, names GitHub keeps), and which
//! server reads the preflight step makes.

use std::path::Path;

use super::release_step::{AssetSpec, GitHubJob, ReleaseStep, ReleaseTarget, Sums};
use super::steps::{Check, PreflightStep, RegistryJob, RenderStep, Step};
use crate::error::Problem;
use crate::pipeline::model::AssetEntry;
use crate::settings::{
    ReleaseSettings, Settings, Target, github_problem, is_loopback, registry_problem, resolve_path,
};
use olm_release_appregistry::Location;

/// The asset file a `SHA256SUMS` asset is (given or generated).
pub(crate) const SUMS: &str = olm_release_github::sums::SUMS;

/// The release step of `release`, with its assets resolved to what they name.
pub(crate) fn release_step(
    s: &Settings,
    release: &ReleaseSettings,
    notes: super::notes::Notes,
) -> Option<ReleaseStep> {
    let target = match release.target.clone()? {
        Target::Dir(root) => ReleaseTarget::Dir { root },
        Target::GitHub { api, owner, repo } => ReleaseTarget::GitHub(GitHubJob {
            api,
            owner,
            repo,
            config: release.github.clone(),
            token: s.credentials.github.clone(),
            credentials: s
                .credentials
                .github
                .as_ref()
                .map(|_| "GITHUB_TOKEN or GH_TOKEN"),
        }),
    };
    let assets: Vec<AssetSpec> = release
        .assets
        .iter()
        .map(|a| match a {
            AssetEntry::Name(n) if n == "{csv}" => AssetSpec::Csv,
            AssetEntry::Name(n) if n == "{olm-v1}" => AssetSpec::OlmV1,
            AssetEntry::Name(n) => AssetSpec::Rendered { name: n.clone() },
            AssetEntry::File(f) => {
                let path = resolve_path(&s.source, Path::new(&f.file));
                let name = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                AssetSpec::File { name, path }
            }
        })
        .collect();
    let sums = if assets.iter().any(|a| name_of(a) == Some(SUMS)) {
        Sums::Given
    } else if assets.is_empty() {
        Sums::None
    } else {
        Sums::Generate
    };
    Some(ReleaseStep {
        target,
        tag: release.tag.clone(),
        assets,
        sums,
        prerelease: release.prerelease,
        draft: release.draft,
        notes,
        force: s.mode.force,
    })
}

/// The name an asset is attached under, when known before rendering.
/// Where `missing` (a path under `--source`) does exist when the run started from another
/// folder: the first folder holding the pipeline file, or one above it, that has the same
/// relative path; as "; it exists under DIR: run with --source DIR", else empty.
pub(crate) fn source_hint(s: &Settings, missing: &Path) -> String {
    let Ok(rel) = missing.strip_prefix(&s.source) else {
        return String::new();
    };
    let pipeline = std::fs::canonicalize(&s.file.shown).ok();
    let source = std::fs::canonicalize(&s.source).ok();
    pipeline
        .as_deref()
        .and_then(Path::parent)
        .into_iter()
        .flat_map(Path::ancestors)
        .find(|dir| Some(*dir) != source.as_deref() && dir.join(rel).exists())
        .map(|dir| {
            format!(
                "; it exists under {}: run with --source {}",
                dir.display(),
                dir.display()
            )
        })
        .unwrap_or_default()
}

fn name_of(a: &AssetSpec) -> Option<&str> {
    match a {
        AssetSpec::Csv => None,
        AssetSpec::OlmV1 => Some(super::release_step::OLM_V1_ASSET),
        AssetSpec::Rendered { name } | AssetSpec::File { name, .. } => Some(name),
    }
}

/// Each asset will exist, none is named twice, GitHub would keep every name, and a folder
/// target can hold the tag. `render` is the plan's render step, `packaged` whether the
/// package step runs (its bundle folder then holds the bundle's files).
pub(crate) fn assets(
    s: &Settings,
    release: &ReleaseStep,
    render: Option<&RenderStep>,
    packaged: bool,
) -> Vec<Problem> {
    let at = s.file.at(&["release", "assets"]);
    let mut problems = Vec::new();
    let mut problem = |m: String| problems.push(Problem::new(at.clone(), m));
    let written = render.map(rendered_names);
    let mut seen: Vec<&str> = Vec::new();
    for a in &release.assets {
        match a {
            AssetSpec::Rendered { name } => match &written {
                Some(Ok(w)) => {
                    let bundle_file = [".clusterserviceversion.yaml", ".crd.yaml", ".package.yaml"]
                        .iter()
                        .any(|suffix| name.ends_with(suffix));
                    let found = w.outside.contains(name)
                        || (!packaged && w.inside.contains(name))
                        || (packaged && bundle_file);
                    if !found {
                        let mut all: Vec<&String> = w.outside.iter().collect();
                        if !packaged {
                            all.extend(&w.inside);
                        }
                        problem(format!(
                            "release.assets: '{name}' matches no file the render stage writes; it writes: {}",
                            olm_release_base::words::some(&all, 10)
                        ));
                    }
                }
                Some(Err(e)) => problem(format!(
                    "release.assets: cannot check '{name}': render.templates {}: {e}",
                    render
                        .map(|r| r.templates.display().to_string())
                        .unwrap_or_default()
                )),
                None => {}
            },
            AssetSpec::OlmV1 if !super::catalog::publishes_image(s) => problem(
                "release.assets: '{olm-v1}' attaches the ClusterCatalog and ClusterExtension of the release's catalog image, but the pipeline has none: set catalog.target: image:… and the catalog stage".to_string(),
            ),
            AssetSpec::File { path, .. } if !path.is_file() => problem(format!(
                "release.assets: file {} does not exist (paths are relative to --source){}",
                path.display(),
                source_hint(s, path)
            )),
            _ => {}
        }
        if let Some(n) = name_of(a) {
            if seen.contains(&n) {
                problem(format!("release.assets: '{n}' is listed twice"));
            }
            seen.push(n);
            if matches!(release.target, ReleaseTarget::GitHub(_)) && !github_keeps(n) {
                problem(format!(
                    "release.assets: '{n}' would be renamed by GitHub; use letters, digits, '.', '-', '_' and '+' only, without a leading or trailing dot"
                ));
            }
        }
    }
    let tag = &release.tag;
    if matches!(release.target, ReleaseTarget::Dir { .. })
        && (tag.is_empty() || tag.contains(['/', '\\']) || tag == "." || tag == "..")
    {
        problems.push(Problem::new(
            s.file.at(&["release", "tag"]),
            format!("release.tag '{tag}' cannot name a folder"),
        ));
    }
    problems
}

/// GitHub renames asset names with special characters or leading/trailing dots, which would
/// break the name-based comparison.
pub(crate) fn github_keeps(name: &str) -> bool {
    let plain = name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'+'));
    plain && !name.starts_with('.') && !name.ends_with('.')
}

/// The base names of what render writes, outside and inside the bundle folder.
struct Written {
    outside: Vec<String>,
    inside: Vec<String>,
}

fn rendered_names(r: &RenderStep) -> std::io::Result<Written> {
    let mut files = Vec::new();
    list(&r.templates, &r.templates, &mut files)?;
    let mut w = Written {
        outside: Vec::new(),
        inside: Vec::new(),
    };
    for rel in files {
        let out = rel
            .strip_suffix(".in")
            .unwrap_or(&rel)
            .replace("VERSION", &r.version.to_string());
        if !(out.ends_with(".yaml") || out.ends_with(".yml")) {
            continue;
        }
        let base = out.rsplit('/').next().unwrap_or(&out).to_string();
        if Path::new(&out).starts_with(&r.bundle_dir) {
            w.inside.push(base);
        } else {
            w.outside.push(base);
        }
    }
    Ok(w)
}

fn list(root: &Path, dir: &Path, out: &mut Vec<String>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            list(root, &path, out)?;
        } else if let Ok(rel) = path.strip_prefix(root) {
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
    Ok(())
}

/// Credentials present and sendable for every write of `steps`: the registry of a push, the
/// GitHub repository of a release.
pub(crate) fn credentials(s: &Settings, steps: &[Step]) -> Vec<Problem> {
    let dry_run = s.mode.dry_run;
    let mut problems = Vec::new();
    for step in steps {
        match step {
            Step::Push(p) => problems.extend(registry_credentials(&p.registry, dry_run, "registry.url")),
            Step::BundleImage(b) => problems.extend(super::images::credentials(b, dry_run)),
            Step::FetchPrevious(f) => {
                if let Some((registry, _)) = f.registry() {
                    problems.extend(sendable(registry));
                }
            }
            Step::Release(ReleaseStep {
                target: ReleaseTarget::GitHub(g),
                ..
            }) => match &g.token {
                Some(t) => problems.extend(
                    github_problem(t).map(|m| Problem::new("GITHUB_TOKEN / GH_TOKEN", m)),
                ),
                None if !dry_run => problems.push(Problem::new(
                    "GITHUB_TOKEN",
                    format!(
                        "github:{}/{} release: set GITHUB_TOKEN (or GH_TOKEN) to a token that may write releases of {}/{}",
                        g.owner, g.repo, g.owner, g.repo
                    ),
                )),
                None => {}
            },
            _ => {}
        }
    }
    problems.dedup();
    problems
}

/// A push to an HTTP registry needs credentials (except a registry on loopback, such as a
/// local appr server, which has no authentication); given ones must be sendable.
pub(crate) fn registry_credentials(r: &RegistryJob, dry_run: bool, named: &str) -> Vec<Problem> {
    let mut problems = sendable(r);
    if let Location::Http(url) = &r.location
        && r.credentials.is_none()
        && !dry_run
        && !is_loopback(url)
    {
        problems.push(Problem::new(
            "QUAY_TOKEN",
            format!(
                "pushing to {url} ({named}) needs credentials: set QUAY_TOKEN, or QUAY_USERNAME and QUAY_PASSWORD"
            ),
        ));
    }
    problems
}

fn sendable(r: &RegistryJob) -> Vec<Problem> {
    match (&r.location, &r.credentials) {
        (Location::Http(_), Some(c)) => registry_problem(c)
            .map(|(var, m)| Problem::new(var, m))
            .into_iter()
            .collect(),
        _ => Vec::new(),
    }
}

/// The registry read of the preflight step, if the registry is an HTTP one and the run can
/// authenticate (a dry-run without credentials skips it, and says so in `notes`).
pub(crate) fn registry_check(
    r: &RegistryJob,
    namespace: &str,
    package: &str,
    dry_run: bool,
    notes: &mut Vec<String>,
) -> Option<Check> {
    if !matches!(r.location, Location::Http(_)) {
        return None;
    }
    if dry_run && r.credentials.is_none() {
        notes.push(format!(
            "preflight: no QUAY_TOKEN or QUAY_USERNAME/QUAY_PASSWORD, so the dry-run does not check {}",
            r.location
        ));
        return None;
    }
    Some(Check::Registry {
        registry: r.clone(),
        namespace: namespace.to_string(),
        package: package.to_string(),
    })
}

/// The preflight step of `steps`: one read of each server the plan writes to, when it writes
/// to more than one. Its purpose is that a run never writes to one server and then finds it
/// cannot write to the next (a bundle pushed, the GitHub release refused). A plan with a
/// single server to write to needs none: that server's first request is either a read (the
/// GitHub release looks its release up first) or the write itself, which is atomic (a push is
/// stored whole or not at all), so a refusal there also leaves nothing written.
pub(crate) fn preflight(s: &Settings, steps: &[Step], notes: &mut Vec<String>) -> PreflightStep {
    let dry_run = s.mode.dry_run;
    let registry = steps.iter().find_map(|st| match st {
        Step::Push(p) if matches!(p.registry.location, Location::Http(_)) => {
            Some((&p.registry, &p.namespace, &p.package))
        }
        _ => None,
    });
    let github: Vec<&GitHubJob> = steps
        .iter()
        .filter_map(|st| match st {
            Step::Release(ReleaseStep {
                target: ReleaseTarget::GitHub(g),
                ..
            }) => Some(g),
            _ => None,
        })
        .collect();
    let image = steps.iter().find_map(|st| match st {
        Step::BundleImage(b)
            if matches!(b.image.target, olm_release_oci::ImageLocation::Remote(_)) =>
        {
            Some(b)
        }
        _ => None,
    });
    let mut checks = Vec::new();
    let servers = usize::from(registry.is_some()) + usize::from(image.is_some()) + github.len();
    if servers < 2 {
        return PreflightStep { checks };
    }
    if let Some(b) = image {
        if b.image.secret.is_some() || !b.image.remote() || !dry_run {
            checks.push(Check::Image {
                image: b.image.clone(),
                tag: b.tag.clone(),
            });
        } else {
            notes.push(format!(
                "preflight: no OCI_USERNAME and OCI_PASSWORD, so the dry-run does not check {}",
                b.image.target.describe()
            ));
        }
    }
    if let Some((r, ns, pkg)) = registry {
        checks.extend(registry_check(r, ns, pkg, dry_run, notes));
    }
    for g in github {
        if g.token.is_some() {
            checks.push(Check::GitHub(g.clone()));
        } else if dry_run {
            notes.push(format!(
                "preflight: no GITHUB_TOKEN or GH_TOKEN, so the dry-run reads nothing from {}",
                g.api
            ));
        }
    }
    PreflightStep { checks }
}
