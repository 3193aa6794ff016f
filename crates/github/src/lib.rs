//! GitHub's REST API as olm-release uses it: releases and their assets (`Request`, the
//! one call that brings a release in line), pull requests and git data (`propose`, which proposes a
//! catalog change or an OperatorHub bundle), and [`folder`], the local folder that stands in for a
//! GitHub release in runs without one; [`sums`], the `SHA256SUMS` beside a release's assets.
//!
//! The GitHub release target: attach the chosen assets to the release for a tag, idempotently.
//!
//! The recipe is draft-then-publish: find the release by tag ("Get a release by tag name"
//! never returns drafts), else among all pages of the release list (the only way to see a
//! draft), else create it as a draft; bring its assets in line with the local ones ([`plan`],
//! [`assets`]); list them again and compare names, sizes and digests; publish last
//! (`draft: false`, keeping `prerelease`) unless the pipeline asks for a draft. A failure before
//! publishing leaves a draft that a re-run completes. An asset of a published release is
//! immutable: the same name with other content is refused, both sha256 shown, unless
//! `--force` (as the registry push does); a dry-run says it would refuse. The release notes are
//! the release's `body` when it is created, and replace a found release's body that differs.
//! Every write is asked of the
//! [`Gate`] first; a dry-run with a token reads the release and lists exactly what it would
//! create, upload, replace, delete and keep, and without a token it reads nothing and lists
//! every asset as an upload.
//!
//! [`client`] talks to the API (octocrab; uploads by reqwest in `upload`), [`limits`] decides
//! retries, [`config`] holds the knobs parsed from `release.options` and the upload URL rules.
//!
//! Pull requests ([`propose`]): a change to a repository's files, committed through the git
//! data API (`gitdata`) on a branch of a fork and proposed through the pulls API (`pulls`),
//! found and updated again on a rerun; the files a branch holds are read the same way
//! ([`read_folder`], [`read_file`]).
#![deny(missing_docs)]

mod asset;
pub mod folder;
pub mod sums;
pub use asset::{Asset, FolderError};

mod assets;
mod client;
mod config;
mod error;
mod gitdata;
mod limits;
pub mod octo;
mod plan;
mod propose;
mod pulls;
mod releases;
mod upload;

use serde_json::json;

pub use client::Client;
pub use config::Config;
pub use error::ApiError;
pub use error::GitHubError;
pub use gitdata::Author;
pub use propose::{Proposal, Proposed, default_branch, propose, read_file, read_folder};

/// A result whose error is a [`GitHubError`].
pub(crate) type Result<T, E = GitHubError> = std::result::Result<T, E>;

use client::Release;
use olm_release_http::events::{Events, Gate, Write};
use plan::Action;

/// The release to bring in line: which repository and tag, and how it should end up.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// The REST API base (`release.api_url`), such as `https://api.github.com`.
    pub api: &'a str,
    /// The repository's owner (a user or organisation).
    pub owner: &'a str,
    /// The repository's name.
    pub repo: &'a str,
    /// The tag the release is for.
    pub tag: &'a str,
    /// Mark the release as a prerelease (kept when it is published).
    pub prerelease: bool,
    /// Leave the release a draft instead of publishing it.
    pub draft: bool,
    /// Replace a published asset whose content differs (`--force`).
    pub force: bool,
    /// The release notes: the release's `body` on create, and updated on a re-run when the
    /// release's differs. `None` sends no body and leaves an existing one alone.
    pub body: Option<&'a str>,
}

/// Attaches `assets` to the release `req` names. Without a client (a dry-run without a token)
/// nothing is read and every asset is listed as an upload.
pub async fn publish(
    req: &Request<'_>,
    client: Option<&Client>,
    assets: &[Asset],
    gate: &dyn Gate,
    events: &dyn Events,
) -> Result<()> {
    let target = format!("github:{}/{} release {}", req.owner, req.repo, req.tag);
    let Some(client) = client else {
        events.note(&format!(
            "{target}: no GITHUB_TOKEN or GH_TOKEN, so the dry-run reads nothing from {} and lists every asset as an upload",
            req.api
        ));
        return fresh(gate, req, &target, assets, true);
    };
    let release = match find(client, req.tag).await? {
        Some(r) => {
            let state = if r.draft { "draft" } else { "published" };
            events.note(&format!(
                "{target}: found the {state} release (id {}); updating it",
                r.id
            ));
            r
        }
        None => match create(gate, events, client, req, &target).await? {
            Some(r) => r,
            None => {
                // Dry-run: nothing exists yet, so every asset would be uploaded.
                return fresh(gate, req, &target, assets, false);
            }
        },
    };
    let remote = client.assets(release.id).await?;
    let plan = plan::plan(assets, &remote);
    let deletes = !plan.strays.is_empty()
        || plan.actions.iter().any(|a| {
            matches!(
                a,
                Action::Replace { .. } | Action::Finish { old: Some(_), .. }
            )
        });
    if release.immutable == Some(true) && !release.draft && deletes {
        return Err(GitHubError::Immutable { target });
    }
    // Published assets are immutable unless forced; a draft (a run that did not finish) is not
    // published yet, so a re-run completes it whatever it holds.
    let changed = plan::changed(assets, &remote, &plan);
    if !release.draft && !req.force && !changed.is_empty() {
        let changed_count = changed.len();
        let refusal = GitHubError::AssetChanged {
            target: target.clone(),
            changed,
        };
        let w = Write {
            what: format!(
                "replace {} (would refuse: {refusal})",
                match changed_count {
                    1 => "a published asset".to_string(),
                    n => format!("{n} published assets"),
                }
            ),
            target: target.clone(),
            digest: None,
        };
        // A dry-run records the refusal and stops where the real run would.
        if gate.allow(&w) {
            return Err(refusal);
        }
        return Ok(());
    }
    notes(gate, client, req, &release, &target).await?;
    let performed = assets::apply(gate, events, client, &release, &target, assets, &plan).await?;
    if performed {
        assets::verify(events, client, &release, &target, assets).await?;
    }
    finish(gate, events, client, req, &release, &target).await
}

/// What [`publish`] would refuse, read without writing anything, so a run can ask before its
/// first write to any target: a published release (not a draft) whose assets differ from
/// `assets` without `force`, or a release GitHub keeps immutable that would need a delete.
/// `None`: no release yet, a draft, or one `publish` would bring in line.
pub async fn refusal(
    req: &Request<'_>,
    client: &Client,
    assets: &[Asset],
) -> Result<Option<GitHubError>> {
    let target = format!("github:{}/{} release {}", req.owner, req.repo, req.tag);
    let Some(release) = find(client, req.tag).await? else {
        return Ok(None);
    };
    if release.draft {
        return Ok(None);
    }
    let remote = client.assets(release.id).await?;
    let plan = plan::plan(assets, &remote);
    let deletes = !plan.strays.is_empty()
        || plan.actions.iter().any(|a| {
            matches!(
                a,
                Action::Replace { .. } | Action::Finish { old: Some(_), .. }
            )
        });
    if release.immutable == Some(true) && deletes {
        return Ok(Some(GitHubError::Immutable { target }));
    }
    let changed = plan::changed(assets, &remote, &plan);
    Ok(
        (!req.force && !changed.is_empty())
            .then_some(GitHubError::AssetChanged { target, changed }),
    )
}

/// The release for `tag`: published (by tag) or draft (from the full list).
async fn find(client: &Client, tag: &str) -> Result<Option<Release>> {
    if let Some(r) = client.release_by_tag(tag).await? {
        return Ok(Some(r));
    }
    Ok(client
        .releases()
        .await?
        .into_iter()
        .find(|r| r.tag_name == tag))
}

/// Creates the draft (None in a dry-run). A 422 `already_exists` means another run won the
/// race: the release is looked up again.
async fn create(
    gate: &dyn Gate,
    events: &dyn Events,
    client: &Client,
    req: &Request<'_>,
    target: &str,
) -> Result<Option<Release>> {
    let w = Write {
        what: format!(
            "create draft release {}{}{}",
            req.tag,
            if req.prerelease { " (prerelease)" } else { "" },
            with_notes(req)
        ),
        target: target.to_string(),
        digest: None,
    };
    if !gate.allow(&w) {
        return Ok(None);
    }
    match client.create_draft(req.tag, req.prerelease, req.body).await {
        Ok(r) => {
            gate.done(w);
            Ok(Some(r))
        }
        Err(e) if e.already_exists() => {
            events.note(&format!(
                "{target}: created meanwhile by another run; using it"
            ));
            match find(client, req.tag).await? {
                Some(r) => Ok(Some(r)),
                None => Err(GitHubError::Vanished { source: e }),
            }
        }
        Err(e) => Err(e.into()),
    }
}

/// Dry-run without a release to read: every asset is an upload, then the publish. Each write
/// is asked of the gate, which skips and records it.
fn fresh(
    gate: &dyn Gate,
    req: &Request<'_>,
    target: &str,
    assets: &[Asset],
    unread: bool,
) -> Result<()> {
    let mut writes = Vec::new();
    if unread {
        writes.push(Write {
            what: format!(
                "find or create draft release {}{}",
                req.tag,
                with_notes(req)
            ),
            target: target.to_string(),
            digest: None,
        });
    }
    for a in assets {
        writes.push(Write {
            what: format!("upload asset {} ({} bytes)", a.name, a.bytes.len()),
            target: target.to_string(),
            digest: Some(a.sha256.clone()),
        });
    }
    if !req.draft {
        writes.push(publish_write(req, target));
    }
    for w in writes {
        if gate.allow(&w) {
            return Err(GitHubError::internal(format!(
                "{target}: a write was allowed without a release to write to ({})",
                w.what
            )));
        }
    }
    Ok(())
}

/// " with release notes (N bytes)" when the request has notes.
fn with_notes(req: &Request<'_>) -> String {
    req.body
        .map(|b| format!(" with release notes ({} bytes)", b.len()))
        .unwrap_or_default()
}

/// Brings a found release's body in line with the notes ("Update a release",
/// <https://docs.github.com/en/rest/releases/releases#update-a-release>): only when they
/// differ (line endings and trailing white space aside, which GitHub's editor changes), so a
/// re-run with the same notes writes nothing.
async fn notes(
    gate: &dyn Gate,
    client: &Client,
    req: &Request<'_>,
    release: &Release,
    target: &str,
) -> Result<()> {
    let Some(notes) = req.body else {
        return Ok(());
    };
    let same =
        |a: &str, b: &str| a.replace("\r\n", "\n").trim_end() == b.replace("\r\n", "\n").trim_end();
    if release.body.as_deref().is_some_and(|b| same(b, notes)) {
        return Ok(());
    }
    let w = Write {
        what: format!(
            "update the release notes of {} ({} bytes)",
            req.tag,
            notes.len()
        ),
        target: target.to_string(),
        digest: None,
    };
    if gate.allow(&w) {
        client
            .update_release(release.id, &json!({ "body": notes }))
            .await?;
        gate.done(w);
    }
    Ok(())
}

fn publish_write(req: &Request<'_>, target: &str) -> Write {
    Write {
        what: format!(
            "publish release {}{}",
            req.tag,
            if req.prerelease {
                " as a prerelease"
            } else {
                ""
            }
        ),
        target: target.to_string(),
        digest: None,
    }
}

/// Publishes last (unless the pipeline wants a draft) and keeps `prerelease` as configured.
async fn finish(
    gate: &dyn Gate,
    events: &dyn Events,
    client: &Client,
    req: &Request<'_>,
    release: &Release,
    target: &str,
) -> Result<()> {
    if !release.draft && req.draft {
        events.warn(&format!(
            "{target}: already published; release.draft: true does not unpublish it"
        ));
    }
    let draft = release.draft && req.draft;
    if draft == release.draft && req.prerelease == release.prerelease {
        return Ok(());
    }
    let w = if release.draft && !draft {
        publish_write(req, target)
    } else {
        Write {
            what: format!("mark release {} prerelease: {}", req.tag, req.prerelease),
            target: target.to_string(),
            digest: None,
        }
    };
    if gate.allow(&w) {
        let body = json!({ "draft": draft, "prerelease": req.prerelease });
        client.update_release(release.id, &body).await?;
        gate.done(w);
    }
    Ok(())
}
