//! The release step: resolve the assets the plan names to bytes, then attach them to the
//! release target (a folder, or a GitHub release).
//!
//! Each rendered name must match exactly one file, checked before any request, so no glob can
//! match nothing or every old CSV: the packaged bundle folder first (it holds the final CSV,
//! with `replaces`), then every rendered file outside the bundle folder (or inside it, when no
//! package step ran). `{csv}` is this release's CSV; `{olm-v1}` the ClusterCatalog and ClusterExtension of its
//! catalog image (`olm-v1-install.yaml`); `- file: PATH` entries are read from the
//! source folder. `SHA256SUMS` lists every asset with its sha256 and goes last: generated, or,
//! when the pipeline attaches a file of that name, checked to list every other asset with the
//! right digest and attached as it is. The release notes (`release.notes`) go along as plain
//! text: the GitHub release's body, or `NOTES.md` in a folder.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::context::Exec;
use super::outputs::AssetSources;
use crate::error::step::AssetError;
use crate::error::{Error, Result};
use crate::plan::{AssetSpec, GitHubJob, Notes, ReleaseStep, ReleaseTarget, Sums};
use olm_release_base::Class;
use olm_release_github::{self as github, Asset, folder};
use olm_release_http::events::Gate;

/// The largest release asset read: GitHub's limit on one release file ("each file included
/// in a release must be under 2 GiB", GitHub Docs, About releases). Assets are regular files.
const MAX_ASSET_BYTES: u64 = 2 << 30;

/// The release step.
pub(crate) async fn run(
    step: &ReleaseStep,
    exec: &Exec<'_>,
    gate: &dyn Gate,
    sources: AssetSources<'_>,
) -> Result<()> {
    let assets = resolve(step, sources)?;
    let notes = notes(step, sources);
    match &step.target {
        ReleaseTarget::Dir { root } => Ok(folder::publish(
            root,
            &step.tag,
            &assets,
            notes.as_deref(),
            gate,
        )?),
        ReleaseTarget::GitHub(job) => {
            let req = request(step, job, notes.as_deref());
            let client = match &job.token {
                Some(_) => Some(exec.github(job)?),
                None => None,
            };
            Ok(github::publish(&req, client, &assets, gate, &*exec.events()).await?)
        }
    }
}

/// The GitHub client's request for `step`'s release in `job`'s repository, with `body` as its
/// notes: what the release step publishes and what the check before the first write reads.
pub(super) fn request<'a>(
    step: &'a ReleaseStep,
    job: &'a GitHubJob,
    body: Option<&'a str>,
) -> github::Request<'a> {
    github::Request {
        api: &job.api,
        owner: &job.owner,
        repo: &job.repo,
        tag: &step.tag,
        prerelease: step.prerelease,
        draft: step.draft,
        force: step.force,
        body,
    }
}

/// The release notes: the text the plan read, or fetch-previous's summary (none when
/// fetch-previous published nothing to compare, as with `older: skip`).
fn notes(step: &ReleaseStep, sources: AssetSources<'_>) -> Option<String> {
    match &step.notes {
        Notes::None => None,
        Notes::Text { text, .. } => Some(text.clone()),
        Notes::Summary => sources.summary.map(str::to_owned),
    }
}

/// The assets' bytes, in the plan's order, with `SHA256SUMS` appended or checked.
pub(crate) fn resolve(step: &ReleaseStep, sources: AssetSources<'_>) -> Result<Vec<Asset>> {
    let by_name = candidates(sources)?;
    let csv_file = sources
        .rendered
        .map(|r| olm_release_olm::csv_file_name(r.csv_name));
    let mut assets: Vec<Asset> = Vec::new();
    for spec in &step.assets {
        if matches!(spec, AssetSpec::OlmV1) {
            let yaml = sources.olm_v1.ok_or_else(|| {
                Error::internal("{olm-v1} is attached, but no catalog image was published")
            })?;
            let name = crate::plan::OLM_V1_ASSET.to_string();
            if assets.iter().any(|a| a.name == name) {
                return Err(AssetError::Twice { name }.into());
            }
            assets.push(Asset::new(name, yaml.as_bytes().to_vec()));
            continue;
        }
        let (name, path) = match spec {
            AssetSpec::OlmV1 => unreachable!("attached above"),
            AssetSpec::File { name, path } => (name.clone(), path.clone()),
            AssetSpec::Csv | AssetSpec::Rendered { .. } => {
                let wanted = match spec {
                    AssetSpec::Rendered { name } => name.clone(),
                    _ => csv_file.clone().ok_or_else(|| {
                        Error::internal("{csv} is attached, but nothing was rendered")
                    })?,
                };
                let path = match by_name.get(&wanted).map(Vec::as_slice) {
                    Some([one]) => one.clone(),
                    Some(many) => {
                        return Err(AssetError::Ambiguous {
                            name: spec.shown(),
                            files: many.iter().map(|p| p.display().to_string()).collect(),
                        }
                        .into());
                    }
                    None => {
                        return Err(AssetError::NoMatch {
                            name: spec.shown(),
                            available: by_name.keys().cloned().collect(),
                        }
                        .into());
                    }
                };
                (wanted, path)
            }
        };
        if assets.iter().any(|a| a.name == name) {
            return Err(AssetError::Twice { name }.into());
        }
        // Names known only now (`{csv}`, bundle files) get the check the plan made for the rest.
        if matches!(step.target, ReleaseTarget::GitHub(_)) && !crate::plan::github_keeps(&name) {
            return Err(AssetError::Renamed { name }.into());
        }
        let bytes = olm_release_base::input::read(&path, MAX_ASSET_BYTES)
            .map_err(|e| Error::io(Class::Stage, &path, e))?;
        assets.push(Asset::new(name, bytes));
    }
    match step.sums {
        Sums::Generate => assets.push(github::sums::generate(&assets)),
        Sums::Given => check_sums(&assets)?,
        Sums::None => {}
    }
    Ok(assets)
}

/// Files by base name: the packaged bundle folder first, then what render wrote outside it
/// (everything render wrote, when no bundle folder was packaged).
fn candidates(sources: AssetSources<'_>) -> Result<BTreeMap<String, Vec<PathBuf>>> {
    let mut by_name: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    let mut add = |path: PathBuf| {
        let base = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        by_name.entry(base).or_default().push(path);
    };
    if let Some(dir) = sources.bundle_folder {
        for entry in std::fs::read_dir(dir)
            .map_err(|e| Error::io(Class::Stage, dir, e))?
            .flatten()
        {
            add(entry.path());
        }
    }
    if let Some(r) = sources.rendered {
        for f in r.files {
            if !(f.in_bundle && sources.bundle_folder.is_some()) {
                add(r.dir.join(&f.path));
            }
        }
    }
    Ok(by_name)
}

/// A given `SHA256SUMS` lists every other asset, each with its sha256, and nothing else.
fn check_sums(assets: &[Asset]) -> Result<()> {
    let sums = assets
        .iter()
        .find(|a| a.name == crate::plan::SUMS)
        .ok_or_else(|| Error::internal("SHA256SUMS is given, but not among the assets"))?;
    let problems = github::sums::check(sums, assets);
    if problems.is_empty() {
        return Ok(());
    }
    Err(AssetError::Sums { problems }.into())
}
