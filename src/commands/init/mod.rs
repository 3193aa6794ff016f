//! `olm-release init`: scaffolds an operator repository for olm-release, as `cargo dist init`
//! does for a Rust project. It scans the repository ([`scan`]), works out the layout of its OLM
//! manifests and the operator's parts ([`detect`]), and writes a release and an alpha pipeline
//! ([`pipeline`]), templates where the repository has none to render in place ([`starter`]),
//! and CI configurations ([`ci`]). Every file is computed before any is written, and none that
//! exists is overwritten without `--force`. It prints what it found, what it wrote, and the
//! secrets and variables to set.

pub(crate) mod ci;
pub(crate) mod detect;
pub(crate) mod parts;
pub(crate) mod pipeline;
pub(crate) mod scan;
pub(crate) mod starter;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::cli::{CiKind, InitArgs};
use crate::error::Result;
use detect::{Found, Layout};

/// Why `init` could not scaffold.
#[derive(Debug, thiserror::Error)]
pub(crate) enum InitError {
    #[error("{}: cannot scan the repository: {source}", dir.display())]
    Scan {
        dir: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "{}: no OLM manifests, CRDs or operator Deployment found; run init in the operator's repository (or pass --source)",
        dir.display()
    )]
    Nothing { dir: PathBuf },
    #[error("--github '{0}' is not OWNER/REPO")]
    BadRepo(String),
    #[error(
        "not overwriting {}: pass --force to replace, or --out DIR to write elsewhere",
        .0.join(", ")
    )]
    Exists(Vec<String>),
    #[error("{}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl olm_release_base::Classified for InitError {
    fn class(&self) -> olm_release_base::Class {
        match self {
            InitError::Write { .. } => olm_release_base::Class::Stage,
            _ => olm_release_base::Class::Input,
        }
    }
}

/// What the pipelines are written with: the detected values with the user's overrides.
pub(crate) struct Choices {
    pub package: String,
    pub channel: String,
    /// The app-registry namespace.
    pub namespace: String,
    /// The namespace the operator runs in (for `{{.Namespace}}`-like variables).
    pub operator_namespace: String,
    /// OWNER/REPO on GitHub.
    pub github: Option<String>,
    /// The branch alpha builds come from.
    pub branch: String,
    pub templates: String,
    pub bundle: String,
    pub includes: BTreeMap<String, String>,
    pub csv_name: Option<String>,
    /// Template variables filled from the CSV parts: (variable, part path).
    pub csv_vars: Vec<(String, String)>,
}

/// `init`.
pub(crate) fn run(args: &InitArgs) -> Result<()> {
    let plan = plan(args)?;
    let root = args.out.as_deref().unwrap_or(&args.source);
    let existing: Vec<String> = plan
        .files
        .iter()
        .filter(|(p, _)| root.join(p).exists())
        .map(|(p, _)| p.clone())
        .collect();
    if !existing.is_empty() && !args.force {
        return Err(InitError::Exists(existing).into());
    }
    for line in &plan.found_lines {
        eprintln!("found: {line}");
    }
    for (rel, text) in &plan.files {
        let path = root.join(rel);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|source| InitError::Write {
                path: dir.to_path_buf(),
                source,
            })?;
        }
        std::fs::write(&path, text).map_err(|source| InitError::Write {
            path: path.clone(),
            source,
        })?;
        let verb = if existing.contains(rel) {
            "replaced"
        } else {
            "wrote"
        };
        eprintln!("{verb} {}", path.display());
    }
    for line in &plan.todo {
        eprintln!("{line}");
    }
    Ok(())
}

/// Everything `init` would write and say, computed without writing.
pub(crate) struct Plan {
    pub files: Vec<(String, String)>,
    pub found_lines: Vec<String>,
    pub todo: Vec<String>,
}

/// Scans, detects and renders every file.
pub(crate) fn plan(args: &InitArgs) -> Result<Plan, InitError> {
    let source = &args.source;
    let scan = scan::scan(source).map_err(|e| InitError::Scan {
        dir: source.clone(),
        source: e,
    })?;
    let found = detect::detect(&scan);
    if matches!(found.layout, Layout::Plain { csv: None })
        && found.crds.is_empty()
        && found.deployment.is_none()
    {
        return Err(InitError::Nothing {
            dir: source.clone(),
        });
    }
    let github = match &args.github {
        Some(r) => Some(check_repo(r)?),
        None => origin_repo(source),
    };
    let owner = github.as_deref().and_then(|r| r.split('/').next());
    let package = args
        .package
        .clone()
        .or_else(|| found.package.as_ref().map(|(p, _)| p.clone()))
        .or_else(|| found.deployment.as_ref().map(|d| d.name.clone()))
        .unwrap_or_else(|| dir_name(source));
    let mut c = Choices {
        channel: args
            .channel
            .clone()
            .or_else(|| found.channel.clone())
            .unwrap_or_else(|| "alpha".into()),
        namespace: args
            .namespace
            .clone()
            .or_else(|| owner.map(str::to_string))
            .unwrap_or_else(|| package.clone()),
        operator_namespace: found
            .deployment
            .as_ref()
            .and_then(|d| d.namespace.clone())
            .unwrap_or_else(|| package.clone()),
        github: github.clone(),
        branch: default_branch(source),
        templates: starter::TEMPLATES.into(),
        bundle: starter::BUNDLE.into(),
        includes: found.includes.clone(),
        csv_name: found.csv_name.clone(),
        csv_vars: csv_vars(&found),
        package,
    };
    let mut files = Vec::new();
    let mut todo = Vec::new();
    match &found.layout {
        Layout::Templates { templates, bundle } => {
            c.templates = templates.clone();
            c.bundle = bundle.clone();
        }
        _ => {
            let name = c
                .csv_name
                .clone()
                .unwrap_or_else(|| format!("{}.v{{version}}", c.package));
            let generated = starter::generate(&found, &c.package, &name, owner);
            c.includes = generated.includes;
            c.csv_name = Some(name);
            if generated.starter_csv {
                todo.push(format!(
                    "edit {}: the CSV to start from (description, maintainers, links)",
                    generated.files[0].0
                ));
            }
            files.extend(generated.files);
        }
    }
    files.push((
        "pipelines/release.yaml".into(),
        pipeline::write(pipeline::Kind::Release, &found, &c),
    ));
    files.push((
        "pipelines/alpha.yaml".into(),
        pipeline::write(pipeline::Kind::Alpha, &found, &c),
    ));
    let kinds = if args.ci.is_empty() {
        vec![CiKind::Travis, CiKind::Github]
    } else {
        args.ci.clone()
    };
    if kinds.contains(&CiKind::Travis) {
        files.push((".travis.yml".into(), ci::travis(&c)));
    }
    if kinds.contains(&CiKind::Github) {
        files.push((".github/workflows/olm-release.yml".into(), ci::github(&c)));
    }
    todo.extend(next_steps(&found, &c));
    Ok(Plan {
        found_lines: found_lines(&found, &c),
        files,
        todo,
    })
}

/// Template variables that name a CSV part (`OperatorRules`, `OperatorDeploymentSpec`,
/// `KubeVirtLogo`), mapped to it.
fn csv_vars(found: &Found) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for var in found.vars.keys() {
        let lower = var.to_ascii_lowercase();
        let part = if lower.ends_with("rules") {
            found.permissions.as_ref().map(|p| {
                let key = if p.cluster {
                    "clusterPermissions"
                } else {
                    "permissions"
                };
                format!("{key}[{}].rules", p.service_account)
            })
        } else if lower.contains("deploymentspec") {
            found
                .deployment
                .as_ref()
                .map(|d| format!("deployments[{}].spec", d.name))
        } else if lower.contains("logo") || lower.contains("icon") {
            found.icon.as_ref().map(|_| "icon.base64data".to_string())
        } else {
            None
        };
        if let Some(p) = part {
            out.push((var.clone(), p));
        }
    }
    out
}

fn found_lines(found: &Found, c: &Choices) -> Vec<String> {
    let mut out = vec![format!("layout: {}", found.layout.describe())];
    let from = found
        .package
        .as_ref()
        .map(|(_, from)| format!(" (from {from})"))
        .unwrap_or_default();
    out.push(format!(
        "package {}{from}, channel {}",
        c.package, c.channel
    ));
    if let Some(csv) = &found.csv {
        out.push(format!("CSV {csv}"));
    }
    for crd in &found.crds {
        out.push(format!("CRD {} in {}", crd.name, crd.file));
    }
    match &found.deployment {
        Some(d) => out.push(format!("Deployment {} in {}", d.name, d.file)),
        None => {
            out.push("no operator Deployment file: the CSV template's own deployment stays".into())
        }
    }
    if let Some(p) = &found.permissions {
        out.push(format!(
            "service account {}, role {}, RBAC {}",
            p.service_account,
            p.role,
            p.files.join(", ")
        ));
    }
    if let Some(icon) = &found.icon {
        out.push(format!("icon {icon}"));
    }
    for (var, dir) in &c.includes {
        out.push(format!(
            "includes {{{{index .{var} \"FILE\"}}}} from {dir}/"
        ));
    }
    out
}

fn next_steps(found: &Found, c: &Choices) -> Vec<String> {
    let mut out = Vec::new();
    let required: Vec<String> = pipeline::var_values(pipeline::Kind::Release, found, c)
        .into_iter()
        .filter(|v| v.required)
        .map(|v| format!("{} (for {{{{.{}}}}})", v.env, v.name))
        .collect();
    if !required.is_empty() {
        out.push(format!(
            "set these variables in CI (or edit their defaults into the pipelines): {}",
            required.join(", ")
        ));
    }
    out.push(
        "set these secrets in CI: QUAY_USERNAME and QUAY_PASSWORD (or QUAY_TOKEN) for the app registry, GITHUB_TOKEN for the release (GitHub Actions provides it)"
            .into(),
    );
    if c.github.is_none() {
        out.push("no GitHub remote found: the release target reads GITHUB_REPOSITORY or TRAVIS_REPO_SLUG (or pass --github OWNER/REPO)".into());
    }
    if found.literal_package {
        out.push(format!(
            "the package file writes packageName literally, so alpha builds go to {} too: write {{{{.PackageName}}}} there to publish them apart",
            c.package
        ));
    }
    out.push("try it: VERSION=0.0.1 olm-release run pipelines/release.yaml --dry-run".into());
    out
}

fn check_repo(r: &str) -> Result<String, InitError> {
    match r.split_once('/') {
        Some((o, n)) if !o.is_empty() && !n.is_empty() && !n.contains('/') => Ok(r.to_string()),
        _ => Err(InitError::BadRepo(r.to_string())),
    }
}

/// OWNER/REPO of the `origin` remote when it is on github.com.
fn origin_repo(source: &Path) -> Option<String> {
    let url = git(source, &["remote", "get-url", "origin"])?;
    let rest = url
        .split_once("github.com")?
        .1
        .trim_start_matches([':', '/']);
    let repo = rest.trim_end_matches('/').trim_end_matches(".git");
    check_repo(repo).ok()
}

/// The branch alpha builds come from: origin's default, else main or master.
fn default_branch(source: &Path) -> String {
    let head = git(
        source,
        &["symbolic-ref", "--short", "refs/remotes/origin/HEAD"],
    );
    if let Some(b) = head.as_deref().and_then(|h| h.strip_prefix("origin/")) {
        return b.to_string();
    }
    match git(
        source,
        &["rev-parse", "--verify", "--quiet", "refs/heads/main"],
    ) {
        Some(_) => "main".into(),
        None => "master".into(),
    }
}

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
}

fn dir_name(dir: &Path) -> String {
    dir.canonicalize()
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "operator".into())
}
