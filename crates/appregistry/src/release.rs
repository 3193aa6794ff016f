//! One release of a package as an app registry holds it, what a push did, and the result of
//! every registry call: the plain data both kinds of registry (`appr` and `dir`) answer in, kept
//! apart from the [`Registry`](crate::Registry) that chooses between them.

use crate::error::RegistryError;

/// A registry call's result.
pub type Result<T, E = RegistryError> = std::result::Result<T, E>;

/// One published release of a package.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ReleaseInfo {
    /// The release name (strict SemVer).
    pub release: String,
    /// sha256 (hex) of the uncompressed tar.
    pub digest: String,
    /// Size of the compressed blob in bytes.
    pub size: u64,
}

impl ReleaseInfo {
    /// The release name parsed as SemVer; `None` when it is not SemVer.
    pub fn version(&self) -> Option<semver::Version> {
        semver::Version::parse(&self.release).ok()
    }
}

/// The merge rules for racing releases read release lists as these.
impl olm_release_olm::decision::race::Listed for ReleaseInfo {
    fn name(&self) -> &str {
        &self.release
    }
}

/// What a push did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PushOutcome {
    /// The release was stored.
    Pushed,
    /// The release already exists and the push was not forced (HTTP 409).
    Exists,
}
