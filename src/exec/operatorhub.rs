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
//! the files it would propose. The folder, the answer to what the catalog holds, `ci.yaml`, the
//! commit message and the body are the domain's (`olm::community::proposal`); this step reads
//! and proposes.

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
use olm_release_github::{self as github, Proposal};
use olm_release_olm::community::proposal::{self, Against};

/// The operatorhub step.
pub(crate) async fn run(step: &OperatorhubStep, exec: &Exec<'_>, v: &Verified) -> Result<()> {
    let report = exec.report;
    let (upstream, fork) = clients(&step.pull, &exec.events())?;
    let (base, ours, published) = read(step, &upstream, v).await?;
    let repo = &step.pull.repository;
    let root = &ours.root;
    let mut files = match ours.against(&published, step.force) {
        Against::Same => {
            report.info(&format!(
                "{repo} (branch {base}) already has {root}/ with these {}: nothing to propose",
                olm_release_base::words::count(ours.files.len(), "file")
            ));
            return Ok(());
        }
        Against::Changed(differ) => {
            return Err(OperatorhubError::Changed {
                repository: repo.clone(),
                folder: root.clone(),
                differ,
            }
            .into());
        }
        Against::Write(files) => files,
    };
    let ci = format!("operators/{}/ci.yaml", step.package);
    match github::read_file(&upstream, &base, &ci).await? {
        Some(_) => report.detail(&format!("{repo}: {ci} is kept as it is")),
        None => {
            let owner = step.pull.fork.split('/').next().unwrap_or_default();
            let text = proposal::new_ci_yaml(owner);
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
    let author = step.commit.github();
    let (package, version) = (&step.package, &step.version.to_string());
    let message = proposal::commit_message(package, version, root, &step.commit.author);
    let body = proposal::pull_request_body(package, version, root, &step.channels);
    let pull = Proposal {
        base: &base,
        branch: &step.pull.branch,
        files: &files,
        message: &message,
        author: &author,
        title: &step.pull.title,
        body: &body,
        draft: step.pull.draft,
    };
    let done = github::propose(&pull, &upstream, &fork, &exec.gate, report.as_ref()).await?;
    if let Published::Written(line) = proposed(done) {
        report.info(&line);
    }
    Ok(())
}

/// The base branch (the step's, or the repository's default), our version folder built from
/// `v`, and the files the base branch holds there (reads only).
async fn read(
    step: &OperatorhubStep,
    upstream: &github::Client,
    v: &Verified,
) -> Result<(String, proposal::Proposal, BTreeMap<String, Vec<u8>>)> {
    let base = match &step.base {
        Some(b) => b.clone(),
        None => github::default_branch(upstream).await?,
    };
    let folder = bundle_folder(&step.package, v, &step.channels)?;
    let ours = proposal::Proposal::new(&step.package, &step.version.to_string(), &folder);
    let published = github::read_folder(upstream, &base, &ours.root)
        .await?
        .map(|(_, files)| files)
        .unwrap_or_default();
    Ok((base, ours, published))
}

/// What the step would refuse, asked read-only before the run's first write to any target (the
/// push, the bundle image and the catalog come first): a version folder the community catalog
/// already has with other files, unless `--force`.
pub(super) async fn refusal(step: &OperatorhubStep, exec: &Exec<'_>, v: &Verified) -> Result<()> {
    if step.force {
        return Ok(());
    }
    let (upstream, _) = clients(&step.pull, &exec.events())?;
    let (_, ours, published) = read(step, &upstream, v).await?;
    match ours.refused_by(&published) {
        None => Ok(()),
        Some(differ) => Err(OperatorhubError::Changed {
            repository: step.pull.repository.clone(),
            folder: ours.root,
            differ,
        }
        .into()),
    }
}
