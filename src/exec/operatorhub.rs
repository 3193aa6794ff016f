//! The `operatorhub` step: the verified bundle as a registry+v1 folder, proposed to a
//! community catalog as `operators/<package>/<version>/` (`manifests/` and
//! `metadata/annotations.yaml`, as k8s-operatorhub/community-operators and
//! redhat-openshift-ecosystem/community-operators-prod lay bundles out) by a pull request from
//! a fork, through [`olm_release_github::propose`].
//!
//! Read first, from the base branch: a version folder the catalog already has with the same
//! files means nothing to do (a published bundle is not changed: other files are refused
//! unless `--force`, asked by [`refusal`] before the run's first write too); the package's `ci.yaml` is kept as it is (a package new to the catalog
//! gets one naming the fork's owner as reviewer, which the pull request shows). The commit is
//! signed off (`Signed-off-by:`, the DCO the community repositories check). A rerun finds the
//! open pull request; a merged one means nothing to do. A dry-run reads everything and lists
//! the files it would propose.

use std::collections::BTreeMap;

use super::bundle_image::bundle_folder;
use super::catalog_target::Published;
use super::catalog_target::pull::{clients, proposed};
use super::context::Exec;
use super::outputs::Verified;
use crate::error::Result;
use crate::error::step::OperatorhubError;
use crate::plan::OperatorhubStep;
use olm_release_base::digest::sha256_hex;
use olm_release_github::{self as github, Author, Proposal};

/// The operatorhub step.
pub(crate) async fn run(step: &OperatorhubStep, exec: &Exec<'_>, v: &Verified) -> Result<()> {
    let report = exec.report;
    let (upstream, fork) = clients(&step.pull, &exec.events())?;
    let (base, folders) = folders(step, &upstream, v).await?;
    let Folders {
        root,
        ours,
        published,
    } = folders;
    let repo = &step.pull.repository;
    let mut files: Vec<(String, Option<Vec<u8>>)> = Vec::new();
    if !published.is_empty() {
        if published == ours {
            report.info(&format!(
                "{repo} (branch {base}) already has {root}/ with these {}: nothing to propose",
                olm_release_base::words::count(ours.len(), "file")
            ));
            return Ok(());
        }
        if !step.force {
            return Err(OperatorhubError::Changed {
                repository: repo.clone(),
                folder: root,
                differ: differ(&published, &ours),
            }
            .into());
        }
        for path in published.keys().filter(|p| !ours.contains_key(*p)) {
            files.push((format!("{root}/{path}"), None));
        }
    }
    for (path, bytes) in &ours {
        files.push((format!("{root}/{path}"), Some(bytes.clone())));
    }
    let ci = format!("operators/{}/ci.yaml", step.package);
    match github::read_file(&upstream, &base, &ci).await? {
        Some(_) => report.detail(&format!("{repo}: {ci} is kept as it is")),
        None => {
            let owner = step.pull.fork.split('/').next().unwrap_or_default();
            let text = format!(
                "# The package's settings for the community catalog's pipelines (written by olm-release for a\n# package new to the catalog: review it in the pull request).\nreviewers:\n  - {owner}\nupdateGraph: replaces-mode\n"
            );
            report.note(&format!(
                "{repo} has no {ci} (a package new to the catalog): the pull request adds one naming {owner} as reviewer"
            ));
            files.push((ci, Some(text.into_bytes())));
        }
    }
    let listing: Vec<String> = files
        .iter()
        .map(|(path, bytes)| match bytes {
            Some(b) => format!("  {path} ({} bytes, sha256:{})", b.len(), sha256_hex(b)),
            None => format!("  {path} (removed)"),
        })
        .collect();
    report.block(
        &format!(
            "the pull request's files (branch {} of {}):\n{}\n",
            step.pull.branch,
            step.pull.fork,
            listing.join("\n")
        ),
        step.show_files,
    );
    let author = Author {
        name: step.name.clone(),
        email: step.email.clone(),
        epoch: step.date,
    };
    let message = format!(
        "operator {} ({})\n\nAdds {root}/ built by olm-release from the verified bundle.\n\nSigned-off-by: {}\n",
        step.package, step.version, step.author
    );
    let body = format!(
        "Adds `{root}/`: the {} bundle of {} {} (channels {}), validated by olm-release before it was proposed.\n",
        "registry+v1",
        step.package,
        step.version,
        step.channels.join(", ")
    );
    let proposal = Proposal {
        base: &base,
        branch: &step.pull.branch,
        files: &files,
        message: &message,
        author: &author,
        title: &step.pull.title,
        body: &body,
        draft: step.pull.draft,
    };
    let done = github::propose(&proposal, &upstream, &fork, &exec.gate, report.as_ref()).await?;
    if let Published::Written(line) = proposed(done) {
        report.info(&line);
    }
    Ok(())
}

/// The version folder the step proposes and what the base branch holds there.
struct Folders {
    /// `operators/<package>/<version>`.
    root: String,
    /// Our files, by their path inside the version folder.
    ours: BTreeMap<String, Vec<u8>>,
    /// The base branch's files there (empty when the version is new to the catalog).
    published: BTreeMap<String, Vec<u8>>,
}

/// The base branch (the step's, or the repository's default) and, built from `v`, our version
/// folder beside the one the base branch holds (reads only).
async fn folders(
    step: &OperatorhubStep,
    upstream: &github::Client,
    v: &Verified,
) -> Result<(String, Folders)> {
    let base = match &step.base {
        Some(b) => b.clone(),
        None => github::default_branch(upstream).await?,
    };
    let folder = bundle_folder(&step.package, v, &step.channels)?;
    let root = format!("operators/{}/{}", step.package, step.version);
    let ours: BTreeMap<String, Vec<u8>> = folder
        .files()
        .iter()
        .filter(|(path, _)| path.starts_with("manifests/") || path.starts_with("metadata/"))
        .map(|(path, bytes)| (path.clone(), bytes.clone()))
        .collect();
    let published = github::read_folder(upstream, &base, &root)
        .await?
        .map(|(_, files)| files)
        .unwrap_or_default();
    Ok((
        base,
        Folders {
            root,
            ours,
            published,
        },
    ))
}

/// What the step would refuse, asked read-only before the run's first write to any target (the
/// push, the bundle image and the catalog come first): a version folder the community catalog
/// already has with other files, unless `--force`.
pub(super) async fn refusal(step: &OperatorhubStep, exec: &Exec<'_>, v: &Verified) -> Result<()> {
    if step.force {
        return Ok(());
    }
    let (upstream, _) = clients(&step.pull, &exec.events())?;
    let (_, folders) = folders(step, &upstream, v).await?;
    let Folders {
        root,
        ours,
        published,
    } = folders;
    if published.is_empty() || published == ours {
        return Ok(());
    }
    Err(OperatorhubError::Changed {
        repository: step.pull.repository.clone(),
        folder: root,
        differ: differ(&published, &ours),
    }
    .into())
}

/// The files that differ between the published folder and ours, for the refusal.
fn differ(published: &BTreeMap<String, Vec<u8>>, ours: &BTreeMap<String, Vec<u8>>) -> Vec<String> {
    let mut out = Vec::new();
    for (path, bytes) in ours {
        match published.get(path) {
            None => out.push(format!("{path} (new)")),
            Some(p) if p != bytes => out.push(format!("{path} (changed)")),
            Some(_) => {}
        }
    }
    for path in published.keys().filter(|p| !ours.contains_key(*p)) {
        out.push(format!("{path} (only in the catalog)"));
    }
    out
}
