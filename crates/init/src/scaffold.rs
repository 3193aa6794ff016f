//! Everything `init` would write and say, computed without writing ([`Scaffold`]): the scan,
//! what was found, the user's choices over it, and the files.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use super::choices::Choices;
use super::detect::{self, Ask};
use super::error::InitError;
use super::found::{Found, Layout};
use super::request::{CiService, Request};
use super::{ci, messages, pipeline_file, scan, starter};

/// One file `init` writes.
pub(crate) struct ScaffoldFile {
    /// Relative to the repository.
    pub path: String,
    pub text: String,
    /// A starting point the user completes (the CSV to start from): written once, never
    /// compared or replaced afterwards.
    pub seed: bool,
}

/// Everything `init` would write and say.
pub(crate) struct Scaffold {
    pub files: Vec<ScaffoldFile>,
    /// What was found, one finding a line.
    pub found_lines: Vec<String>,
    /// What is left for the user to do.
    pub next_steps: Vec<String>,
}

/// Scans, detects and renders every file.
pub(crate) fn scaffold(request: &Request) -> Result<Scaffold, InitError> {
    let source = &request.source;
    let scan = scan::scan(source).map_err(|e| InitError::Scan {
        dir: source.clone(),
        source: e,
    })?;
    let ask = Ask {
        operator: request.operator.as_deref(),
        repo: dir_name(source),
        source,
    };
    let found = detect::detect(&scan, &ask)?;
    if found.is_empty() {
        return Err(InitError::Nothing {
            dir: source.clone(),
        });
    }
    let github = match &request.github {
        Some(r) => Some(check_repo(r)?),
        None => origin_repo(source),
    };
    let owner = github.as_deref().and_then(|r| r.split('/').next());
    let package = request
        .package
        .clone()
        .or_else(|| found.package.as_ref().map(|(p, _)| p.clone()))
        .or_else(|| found.deployment.as_ref().map(|d| d.name.clone()))
        .unwrap_or_else(|| dir_name(source));
    let channels = match &request.channel {
        Some(c) => vec![c.clone()],
        None if found.channels.is_empty() => vec!["alpha".to_string()],
        None => found.channels.clone(),
    };
    let mut c = Choices {
        default_channel: found
            .default_channel
            .clone()
            .filter(|d| channels.len() > 1 && channels.contains(d) && *d != channels[0]),
        channels,
        namespace: request
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
        files: BTreeMap::new(),
        csv_name: found.csv_name.clone(),
        csv_vars: csv_vars(&found),
        app_registry: request.app_registry,
        package,
    };
    let mut files = Vec::new();
    let mut next_steps = found.todo.clone();
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
            c.includes = BTreeMap::new();
            c.files = generated.inserted;
            c.csv_name = Some(name);
            if let Some(csv) = &generated.starter_csv {
                next_steps.push(format!(
                    "edit {csv}: the CSV to start from (description, maintainers, links)"
                ));
            }
            for (path, text) in generated.files {
                let seed = generated.starter_csv.as_ref() == Some(&path);
                files.push(ScaffoldFile { path, text, seed });
            }
        }
    }
    for (path, text) in &found.built {
        files.push(ScaffoldFile {
            path: path.clone(),
            text: text.clone(),
            seed: false,
        });
    }
    files.push(ScaffoldFile {
        path: pipeline_file::PATH.into(),
        text: pipeline_file::write(&found, &c),
        seed: false,
    });
    if request.ci.contains(&CiService::Travis) {
        files.push(ScaffoldFile {
            path: ".travis.yml".into(),
            text: ci::travis(&c, &request.installer),
            seed: false,
        });
    }
    if request.ci.contains(&CiService::Github) {
        files.push(ScaffoldFile {
            path: ".github/workflows/olm-release.yml".into(),
            text: ci::github(&c, &request.installer),
            seed: false,
        });
    }
    next_steps.extend(messages::next_steps(&found, &c));
    Ok(Scaffold {
        found_lines: messages::found_lines(&found, &c),
        files,
        next_steps,
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
