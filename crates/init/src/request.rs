//! What `init` is asked ([`Request`]): the repository to adopt and the options of
//! `olm-release init`, as plain data; and the olm-release release its CI configurations
//! install ([`InstallerPin`]), which the program running `init` knows (its own version and
//! installer) and this crate does not.

use std::path::PathBuf;

/// A CI service `init` writes a configuration for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CiService {
    /// `.travis.yml`.
    Travis,
    /// `.github/workflows/olm-release.yml` (GitHub Actions).
    Github,
    /// `.gitlab/olm-release.gitlab-ci.yml`, which the repository's `.gitlab-ci.yml` includes
    /// (GitLab CI/CD's `include: local`).
    Gitlab,
}

/// The olm-release release the CI configurations install: they download its installer from
/// `url`, check it against `sha256` before running it, and ask it for `version`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstallerPin {
    /// The olm-release version installed (`OLM_RELEASE_VERSION`), e.g. `0.1.0`.
    pub version: String,
    /// Where the installer script of that version is downloaded from.
    pub url: String,
    /// The installer script's sha256, in lowercase hex.
    pub sha256: String,
}

/// What `init` is asked to do: adopt the repository at `source`.
#[derive(Debug, Clone)]
pub struct Request {
    /// The operator repository to scan.
    pub source: PathBuf,
    /// Write the files under this folder instead of the repository (their paths stay relative
    /// to the repository).
    pub out: Option<PathBuf>,
    /// Replace files the user changed since `init` wrote them (without it they are kept and
    /// named as conflicts; files still as `init` wrote them are refreshed either way).
    pub force: bool,
    /// The OLM package; default: the bundle's annotations or the package file.
    pub package: Option<String>,
    /// The channels releases go to (`--channel stable,stable-v1.5`; the first is the one whose
    /// head a release replaces); empty: the Makefile's `CHANNELS`, else the bundle's channels
    /// or the package file's default channel, else alpha.
    pub channels: Vec<String>,
    /// The package's default channel (`--default-channel`); default: the Makefile's
    /// `DEFAULT_CHANNEL`, else the bundle's or the package file's.
    pub default_channel: Option<String>,
    /// The organisation of the bundle image (and of the app registry); default: the GitHub
    /// owner.
    pub namespace: Option<String>,
    /// The GitHub repository whose releases get the assets, OWNER/REPO; default: the origin
    /// remote's.
    pub github: Option<String>,
    /// The CI configurations to write (none when empty); `None`: those of the CI services the
    /// repository already uses (`.github/workflows/`, `.travis.yml`, `.gitlab-ci.yml`), none
    /// guessed where it uses none.
    pub ci: Option<Vec<CiService>>,
    /// The operator to release when the repository holds several: a package, the name of the
    /// operator's Deployment, or a bundle folder (`bundle/stable`) where the repository holds
    /// several flavours of one package.
    pub operator: Option<String>,
    /// Also publish to an app registry (the 2019 path: Quay's CNR API), besides the bundle
    /// image and the catalog.
    pub app_registry: bool,
    /// The olm-release release the CI configurations install.
    pub installer: InstallerPin,
}

impl Request {
    /// Adopting the repository at `source` as `olm-release init` does without options: in
    /// place, nothing replaced, everything detected, the CI configurations of the CI services
    /// the repository uses.
    pub fn new(source: impl Into<PathBuf>, installer: InstallerPin) -> Self {
        Request {
            source: source.into(),
            out: None,
            force: false,
            package: None,
            channels: Vec::new(),
            default_channel: None,
            namespace: None,
            github: None,
            ci: None,
            operator: None,
            app_registry: false,
            installer,
        }
    }
}
