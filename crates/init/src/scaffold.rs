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
use super::{
    bundle_metadata, channels, ci, ci_used, flavour_variants, flavours, gitignore, messages,
    pipeline_file, scan, starter,
};

/// One file `init` writes.
pub(crate) struct ScaffoldFile {
    /// Relative to the repository.
    pub path: String,
    pub text: String,
    /// A starting point the user completes (the CSV to start from): written once, never
    /// compared or replaced afterwards.
    pub seed: bool,
    /// An edit of the repository's own file as it is now (`_out/` added to `.gitignore`):
    /// written without `force`.
    pub edit: bool,
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
    let mut found = detect::detect(&scan, &ask)?;
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
    let chosen = channels::choose(
        source,
        &request.channels,
        request.default_channel.as_deref(),
        (
            &found.channels,
            found.default_channel.as_deref(),
            found.package.as_ref().map(|(_, from)| from.as_str()),
        ),
    );
    found.channels = chosen.channels.clone();
    found.default_channel = chosen.default_channel.clone();
    found.notes.extend(chosen.notes.iter().cloned());
    let channels = chosen.channels;
    let mut c = Choices {
        default_channel: chosen
            .default_channel
            .filter(|d| channels.len() > 1 && channels.contains(d) && *d != channels[0]),
        channels,
        channels_from: chosen.from,
        namespace: image_organisation(request, owner, &package, &mut found.notes),
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
                files.push(ScaffoldFile {
                    path,
                    text,
                    seed,
                    edit: false,
                });
            }
        }
    }
    if let Layout::Bundle(b) = &found.layout {
        let dir = format!("{}/{}", starter::TEMPLATES, starter::BUNDLE);
        let (extra, inserted) = bundle_metadata::templates(source, b, &dir);
        c.files.extend(inserted);
        files.extend(extra.into_iter().map(|(path, text)| ScaffoldFile {
            path,
            text,
            seed: false,
            edit: false,
        }));
    }
    let mut variants = Vec::new();
    for f in &found.flavours {
        let name = c.csv_name.clone().unwrap_or_default();
        let (variant, templates) =
            flavour_variants::variant(&scan, source, f, &found, (&c.package, &name, owner));
        variants.push(variant);
        files.extend(templates.into_iter().map(|(path, text)| ScaffoldFile {
            path,
            text,
            seed: false,
            edit: false,
        }));
    }
    for (path, text) in &found.built {
        files.push(ScaffoldFile {
            path: path.clone(),
            text: text.clone(),
            seed: false,
            edit: false,
        });
    }
    files.push(ScaffoldFile {
        path: pipeline_file::PATH.into(),
        text: pipeline_file::write(&found, &c)
            + &flavours::variants_text(&variants, &c.package, &c.bundle_image()),
        seed: false,
        edit: false,
    });
    let (services, ci_line) = ci_used::choose(source, request.ci.as_deref());
    found.notes.push(ci_line);
    for service in services {
        let (path, text) = match service {
            CiService::Travis => (".travis.yml", ci::travis(&c, &request.installer)),
            CiService::Github => (
                ".github/workflows/olm-release.yml",
                ci::github(&c, &request.installer),
            ),
            CiService::Gitlab => {
                next_steps.extend(ci_used::gitlab_step(source));
                (ci_used::GITLAB_FILE, ci::gitlab(&c, &request.installer))
            }
        };
        files.push(ScaffoldFile {
            path: path.into(),
            text,
            seed: false,
            edit: false,
        });
    }
    if let Some(text) = gitignore::with_out(source) {
        files.push(ScaffoldFile {
            path: gitignore::PATH.into(),
            text,
            seed: false,
            edit: true,
        });
    }
    next_steps.extend(messages::next_steps(&found, &c));
    Ok(Scaffold {
        found_lines: messages::found_lines(&found, &c),
        files,
        next_steps,
    })
}

/// The bundle image's organisation (`--namespace`, else the GitHub owner, else the package),
/// lowercased: an OCI repository name is lowercase (the distribution spec's `<name>` grammar,
/// <https://github.com/opencontainers/distribution-spec/blob/main/spec.md#pulling-manifests>),
/// so `quay.io/Acme/…` would be refused by every registry; said when it changed.
fn image_organisation(
    request: &Request,
    owner: Option<&str>,
    package: &str,
    notes: &mut Vec<String>,
) -> String {
    let asked = request
        .namespace
        .as_deref()
        .or(owner)
        .unwrap_or(package)
        .to_string();
    let lower = asked.to_ascii_lowercase();
    if lower != asked {
        notes.push(format!(
            "image organisation {lower}, not {asked}: image repository names are lowercase"
        ));
    }
    lower
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
