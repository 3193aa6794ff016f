//! Carrying out the asset [`Plan`] on a release, and checking the result.
//!
//! Every write is asked of the [`Gate`] first, so a dry-run reports each upload, replacement
//! and deletion (with sizes and digests) and performs none. Strays go first; then the uploads,
//! a few at a time (`concurrency`, default 3, never all at once, as GitHub's REST best
//! practices ask); `SHA256SUMS` last, once everything it lists is there. Any failed asset
//! fails the step (after the others finished), leaving a draft that a re-run completes.

use futures_util::StreamExt;

use super::client::{Client, Release};
use super::plan::{Action, Plan, Remote, temp_name};
use super::{GitHubError, Result};
use crate::Asset;
use olm_release_http::events::{Events, Gate, Write};

/// Whether every planned write was performed (false in a dry-run).
pub(super) async fn apply(
    gate: &dyn Gate,
    events: &dyn Events,
    client: &Client,
    release: &Release,
    target: &str,
    assets: &[Asset],
    plan: &Plan,
) -> Result<bool> {
    let mut performed = true;
    for stray in &plan.strays {
        let w = Write {
            what: format!(
                "delete leftover asset {} (state {}, {} bytes)",
                stray.name, stray.state, stray.size
            ),
            target: target.to_string(),
            digest: stray.digest.as_deref().map(hex_of),
        };
        if gate.allow(&w) {
            client.delete_asset(stray.id).await?;
            gate.done(w);
        } else {
            performed = false;
        }
    }
    let endpoint = client.upload_endpoint(release)?;
    let (sums, rest): (Vec<_>, Vec<_>) = assets
        .iter()
        .zip(&plan.actions)
        .partition(|(a, _)| a.name == "SHA256SUMS");
    for batch in [rest, sums] {
        let results: Vec<Result<bool>> = futures_util::stream::iter(batch)
            .map(|(asset, action)| {
                let at = Place {
                    client,
                    release: release.id,
                    endpoint: &endpoint,
                    target,
                };
                one(gate, events, at, asset, action)
            })
            .buffer_unordered(client.cfg.concurrency)
            .collect()
            .await;
        let mut failures = Vec::new();
        for r in results {
            match r {
                Ok(done) => performed &= done,
                Err(e) => failures.push(e.to_string()),
            }
        }
        if !failures.is_empty() {
            return Err(GitHubError::Assets {
                target: target.to_string(),
                failures,
            });
        }
    }
    Ok(performed)
}

/// Where an asset goes.
#[derive(Clone, Copy)]
struct Place<'a> {
    client: &'a Client,
    release: u64,
    endpoint: &'a str,
    target: &'a str,
}

/// One asset's action; true when its write was performed (or none was needed).
async fn one(
    gate: &dyn Gate,
    events: &dyn Events,
    at: Place<'_>,
    asset: &Asset,
    action: &Action,
) -> Result<bool> {
    let Place {
        client,
        release,
        endpoint,
        target,
    } = at;
    let size = asset.bytes.len();
    let w = |verb: &str| Write {
        what: format!("{verb} asset {} ({size} bytes)", asset.name),
        target: target.to_string(),
        digest: Some(asset.sha256.clone()),
    };
    let upload = |name: String| async move {
        let spinner = events.transfer(&format!("uploading {name} ({size} bytes)"));
        let r = client
            .upload(release, endpoint, &name, &asset.bytes, &asset.sha256)
            .await;
        drop(spinner);
        let r = r?;
        check_uploaded(&r, &name, asset)?;
        Ok::<Remote, GitHubError>(r)
    };
    match action {
        Action::Keep => {
            gate.kept(Write {
                what: format!("asset {} ({size} bytes)", asset.name),
                ..w("")
            });
            Ok(true)
        }
        Action::Upload => {
            let write = w("upload");
            if !gate.allow(&write) {
                return Ok(false);
            }
            upload(asset.name.clone()).await?;
            gate.done(write);
            Ok(true)
        }
        Action::Replace { old } => {
            let write = w("replace");
            if !gate.allow(&write) {
                return Ok(false);
            }
            let new = upload(temp_name(&asset.name)).await?;
            swap(client, &asset.name, Some(*old), new.id).await?;
            gate.done(write);
            Ok(true)
        }
        Action::Finish { temp, old } => {
            let write = w("finish replacing");
            if !gate.allow(&write) {
                return Ok(false);
            }
            swap(client, &asset.name, *old, *temp).await?;
            gate.done(write);
            Ok(true)
        }
    }
}

/// Deletes the old asset (if any) and gives the new one its name: the asset exists under one
/// name or the other at every moment.
async fn swap(client: &Client, name: &str, old: Option<u64>, new: u64) -> Result<()> {
    if let Some(old) = old {
        client.delete_asset(old).await?;
    }
    let renamed = client.rename_asset(new, name).await?;
    if renamed.name != name {
        return Err(GitHubError::Renamed {
            name: name.into(),
            got: renamed.name,
        });
    }
    Ok(())
}

/// The upload's answer must carry the name asked for and the local bytes' size and digest.
fn check_uploaded(r: &Remote, name: &str, asset: &Asset) -> Result<()> {
    if r.name != name {
        return Err(GitHubError::StoredAs {
            name: name.into(),
            got: r.name.clone(),
        });
    }
    let want = format!("sha256:{}", asset.sha256);
    if r.size != asset.bytes.len() as u64 || r.digest.as_ref().is_some_and(|d| *d != want) {
        return Err(GitHubError::Stored {
            name: name.into(),
            size: r.size,
            digest: r.digest.clone().unwrap_or_else(|| "null".into()),
            want_size: asset.bytes.len(),
            want,
        });
    }
    Ok(())
}

/// Lists the release's assets again and checks each local asset is there, uploaded, with the
/// same size and digest.
pub(super) async fn verify(
    events: &dyn Events,
    client: &Client,
    release: &Release,
    target: &str,
    assets: &[Asset],
) -> Result<()> {
    let remote = client.assets(release.id).await?;
    let mut problems = Vec::new();
    for a in assets {
        let want = format!("sha256:{}", a.sha256);
        match remote.iter().find(|r| r.name == a.name) {
            None => problems.push(format!("{} is missing", a.name)),
            Some(r) if r.state != "uploaded" => {
                problems.push(format!("{} is in state '{}'", a.name, r.state))
            }
            Some(r) if r.size != a.bytes.len() as u64 => problems.push(format!(
                "{} has {} bytes, expected {}",
                a.name,
                r.size,
                a.bytes.len()
            )),
            Some(r) => match &r.digest {
                Some(d) if *d != want => {
                    problems.push(format!("{} has digest {d}, expected {want}", a.name))
                }
                None => events.warn(&format!(
                    "{target}: GitHub reports no digest for {}; checked its size only",
                    a.name
                )),
                Some(_) => {}
            },
        }
    }
    if problems.is_empty() {
        events.detail(&format!(
            "{target}: all {} assets verified (names, sizes, digests)",
            assets.len()
        ));
        return Ok(());
    }
    Err(GitHubError::Unconverged {
        target: target.to_string(),
        problems,
    })
}

/// `sha256:<hex>` → `<hex>` (the report prints its own prefix).
fn hex_of(digest: &str) -> String {
    digest.strip_prefix("sha256:").unwrap_or(digest).to_string()
}
