//! The GitHub release target: attach the chosen assets to the release for a tag, idempotently.
//!
//! The recipe is draft-then-publish (fact sheet §7.2): find the release by tag, else among all
//! pages of the release list (the only way to see a draft), else create it as a draft; bring
//! its assets in line with the local ones ([`plan`], [`assets`]); list them again and compare
//! names, sizes and digests; publish last (`draft: false`, keeping `prerelease`) unless the
//! pipeline asks for a draft. A failure before publishing leaves a draft that a re-run
//! completes. Every write goes through [`Ctx::may_write`]; a dry-run with a token reads the
//! release and lists exactly what it would create, upload, replace, delete and keep, and
//! without a token it reads nothing and lists every asset as an upload.
//!
//! [`client`] talks to the API (octocrab; uploads by reqwest in `upload`), [`limits`] decides retries,
//! [`config`] holds the knobs from `release.options` and the upload URL rules.

pub mod assets;
pub mod client;
pub mod config;
pub mod limits;
pub mod plan;
mod upload;

use serde_json::json;

use super::Asset;
use crate::error::{Error, Result};
use crate::report::Write;
use crate::settings::ReleaseSettings;
use crate::stages::Ctx;
use client::{Client, Release};
use config::Config;
use plan::Action;

pub async fn publish(
    ctx: &Ctx<'_>,
    settings: &ReleaseSettings,
    api: &str,
    owner: &str,
    repo: &str,
    assets: &[Asset],
) -> Result<()> {
    let options = ctx
        .settings
        .pipeline
        .release
        .as_ref()
        .map(|r| r.options.clone())
        .unwrap_or_default();
    let cfg = Config::from_options(&options)?;
    check_names(assets)?;
    let tag = &settings.tag;
    let target = format!("github:{owner}/{repo} release {tag}");
    let Some(token) = &settings.token else {
        if ctx.settings.dry_run {
            ctx.report.decision(&format!(
                "{target}: no GITHUB_TOKEN or GH_TOKEN, so the dry-run reads nothing from {api} and lists every asset as an upload"
            ));
            fresh(ctx, settings, &target, assets, true);
            return Ok(());
        }
        return Err(Error::input(format!(
            "{target}: set GITHUB_TOKEN (or GH_TOKEN) to a token that may write releases of {owner}/{repo}"
        )));
    };
    let client = Client::new(api, owner, repo, token, cfg, ctx.report)?;
    let release = match find(&client, tag).await? {
        Some(r) => {
            let state = if r.draft { "draft" } else { "published" };
            ctx.report.decision(&format!(
                "{target}: found the {state} release (id {}); updating it",
                r.id
            ));
            r
        }
        None => match create(ctx, &client, settings, &target).await? {
            Some(r) => r,
            None => {
                // Dry-run: nothing exists yet, so every asset would be uploaded.
                fresh(ctx, settings, &target, assets, false);
                return Ok(());
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
        return Err(Error::stage(format!(
            "{target}: the release is published and immutable, so its assets cannot be replaced or deleted; \
             publish a new tag instead"
        )));
    }
    let performed = assets::apply(ctx, &client, &release, &target, assets, &plan).await?;
    if performed {
        assets::verify(ctx, &client, &release, &target, assets).await?;
    }
    finish(ctx, &client, settings, &release, &target).await
}

/// GitHub renames asset names with special characters or leading/trailing dots, which would
/// break the name-based comparison; refuse them before any request.
fn check_names(assets: &[Asset]) -> Result<()> {
    for a in assets {
        let plain = a
            .name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'+'));
        if !plain || a.name.starts_with('.') || a.name.ends_with('.') {
            return Err(Error::input(format!(
                "release.assets: '{}' would be renamed by GitHub; use letters, digits, '.', '-', '_' and '+' only, \
                 without a leading or trailing dot",
                a.name
            )));
        }
    }
    Ok(())
}

/// The release for `tag`: published (by tag) or draft (from the full list).
async fn find(client: &Client<'_>, tag: &str) -> Result<Option<Release>> {
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
    ctx: &Ctx<'_>,
    client: &Client<'_>,
    settings: &ReleaseSettings,
    target: &str,
) -> Result<Option<Release>> {
    let w = Write {
        what: format!(
            "create draft release {}{}",
            settings.tag,
            if settings.prerelease {
                " (prerelease)"
            } else {
                ""
            }
        ),
        target: target.to_string(),
        digest: None,
    };
    if !ctx.may_write(w.clone()) {
        return Ok(None);
    }
    match client
        .create_draft(&settings.tag, settings.prerelease)
        .await
    {
        Ok(r) => {
            ctx.report.published(w);
            Ok(Some(r))
        }
        Err(e) if e.already_exists() => {
            ctx.report.info(&format!(
                "{target}: created meanwhile by another run; using it"
            ));
            match find(client, &settings.tag).await? {
                Some(r) => Ok(Some(r)),
                None => Err(Error::stage(format!(
                    "{e}; yet no release for the tag can be found (does the token have push access?)"
                ))),
            }
        }
        Err(e) => Err(e.into()),
    }
}

/// Dry-run without a release to read: every asset is an upload, then the publish.
fn fresh(ctx: &Ctx<'_>, settings: &ReleaseSettings, target: &str, assets: &[Asset], unread: bool) {
    if unread {
        ctx.may_write(Write {
            what: format!("find or create draft release {}", settings.tag),
            target: target.to_string(),
            digest: None,
        });
    }
    for a in assets {
        ctx.may_write(Write {
            what: format!("upload asset {} ({} bytes)", a.name, a.bytes.len()),
            target: target.to_string(),
            digest: Some(a.sha256.clone()),
        });
    }
    if !settings.draft {
        ctx.may_write(publish_write(settings, target));
    }
}

fn publish_write(settings: &ReleaseSettings, target: &str) -> Write {
    Write {
        what: format!(
            "publish release {}{}",
            settings.tag,
            if settings.prerelease {
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
    ctx: &Ctx<'_>,
    client: &Client<'_>,
    settings: &ReleaseSettings,
    release: &Release,
    target: &str,
) -> Result<()> {
    if !release.draft && settings.draft {
        ctx.report.warn(&format!(
            "{target}: already published; release.draft: true does not unpublish it"
        ));
    }
    let draft = release.draft && settings.draft;
    if draft == release.draft && settings.prerelease == release.prerelease {
        return Ok(());
    }
    let w = if release.draft && !draft {
        publish_write(settings, target)
    } else {
        Write {
            what: format!(
                "mark release {} prerelease: {}",
                settings.tag, settings.prerelease
            ),
            target: target.to_string(),
            digest: None,
        }
    };
    if ctx.may_write(w.clone()) {
        let body = json!({ "draft": draft, "prerelease": settings.prerelease });
        client.update_release(release.id, &body).await?;
        ctx.report.published(w);
    }
    Ok(())
}
