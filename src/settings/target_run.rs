//! What a catalog target needs besides its own keys, from the run: the credentials, the time
//! stamped on a commit or an image layer, the scratch folder, how long to wait for racing
//! jobs, and a pull request's defaults. The pipeline's settings and `import`'s flags fill it
//! once; the builders of each kind of target take it (`settings::catalog`,
//! `settings::images`, `settings::pull_request`).

use std::path::PathBuf;

use olm_release_olm::fbc::swap::Patience;

/// What a target needs besides its own keys: the run's credentials, time and scratch folder,
/// how long it waits for racing jobs, and the pull request's defaults.
pub(crate) struct TargetRun<'a> {
    /// The commit date and the image layer's time, computed when a target needs one.
    pub(crate) epoch: &'a dyn Fn() -> u64,
    pub(crate) git: Option<olm_release_git::Credentials>,
    pub(crate) github: Option<olm_release_base::Secret>,
    pub(crate) image: Option<olm_release_oci::Credentials>,
    /// Where scratch checkouts and images are read into (`catalog-git`, `catalog-image`).
    pub(crate) scratch: PathBuf,
    pub(crate) patience: Patience,
    /// How long one git command that talks to the remote may take.
    pub(crate) budget: std::time::Duration,
    pub(crate) base_limits: olm_release_oci::catalog_image::BaseLimits,
    /// A pull request's branch and title unless given.
    pub(crate) pull_branch: String,
    pub(crate) pull_title: String,
}
