//! The release step's plan: the target (a GitHub repository's releases, or a folder), the
//! tag, the assets as the pipeline names them and where `SHA256SUMS` comes from. A token is
//! held but never serialised; the plan shows the variable it came from.

use std::path::PathBuf;

use serde::Serialize;

use olm_release_base::secret::Secret;
use olm_release_github::Config as GitHubConfig;

/// Attach the assets to the release target.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ReleaseStep {
    pub(crate) target: ReleaseTarget,
    pub(crate) tag: String,
    pub(crate) assets: Vec<AssetSpec>,
    pub(crate) sums: Sums,
    pub(crate) prerelease: bool,
    pub(crate) draft: bool,
    /// The release notes: the GitHub release's body, the `dir:` target's `NOTES.md`.
    pub(crate) notes: super::notes::Notes,
    /// `--force`: replace a published asset whose content differs (the plan's header shows it).
    #[serde(skip)]
    pub(crate) force: bool,
}

#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub(crate) enum ReleaseTarget {
    /// Assets land in `<root>/<tag>/`.
    Dir {
        root: PathBuf,
    },
    GitHub(GitHubJob),
}

/// A GitHub repository's releases, and how to talk to the API.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct GitHubJob {
    pub(crate) api: String,
    pub(crate) owner: String,
    pub(crate) repo: String,
    #[serde(skip)]
    pub(crate) config: GitHubConfig,
    #[serde(skip)]
    pub(crate) token: Option<Secret>,
    /// The variable the token came from.
    pub(crate) credentials: Option<&'static str>,
}

/// One asset, as the pipeline names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub(crate) enum AssetSpec {
    /// `{csv}`: this release's CSV, as packaged (with `replaces`) when the package step runs.
    Csv,
    /// A rendered file (or a file of the bundle folder) by its exact base name.
    Rendered { name: String },
    /// A file of the source folder, attached under its base name.
    File { name: String, path: PathBuf },
    /// `{olm-v1}`: the ClusterCatalog and ClusterExtension that install the release from its
    /// catalog image, as [`OLM_V1_ASSET`].
    OlmV1,
}

/// The asset `{olm-v1}` is attached as.
pub(crate) const OLM_V1_ASSET: &str = "olm-v1-install.yaml";

impl AssetSpec {
    /// How the pipeline wrote it.
    pub(crate) fn shown(&self) -> String {
        match self {
            AssetSpec::Csv => "{csv}".into(),
            AssetSpec::OlmV1 => "{olm-v1}".into(),
            AssetSpec::Rendered { name } => name.clone(),
            AssetSpec::File { path, .. } => path.display().to_string(),
        }
    }
}

/// Where `SHA256SUMS` comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Sums {
    /// Generated from the other assets and attached last.
    Generate,
    /// One of the assets is named `SHA256SUMS`: checked to list every other asset with its
    /// sha256, and attached as it is.
    Given,
    /// No assets, no sums.
    None,
}
