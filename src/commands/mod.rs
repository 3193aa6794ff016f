//! Commands that are not the pipeline itself, one module each, and their errors.

pub(crate) mod completions;
pub(crate) mod diff;
pub(crate) mod graph;
pub(crate) mod import;
pub(crate) mod init;
pub(crate) mod install_manifests;
pub(crate) mod man;
pub(crate) mod migrate;
pub(crate) mod next_version;
pub(crate) mod plan;
pub(crate) mod publish;
pub(crate) mod registry;
pub(crate) mod render;
pub(crate) mod verify;

use olm_release_base::Class;

/// What can go wrong in a command outside the pipeline: a bad argument is an input error
/// (exit 2), a failed command (an invalid bundle, a registry without the release, git) a
/// stage failure (exit 1).
#[derive(Debug, thiserror::Error)]
pub(crate) enum CommandError {
    /// The command line itself (clap's message is printed above it).
    #[error("{0}")]
    Arguments(String),
    #[error("--registry: {0}")]
    Registry(String),
    #[error("'{0}': expected NAMESPACE/PACKAGE")]
    Package(String),
    /// How a `registry` subcommand names its package and release.
    #[error("{0}")]
    Where(String),
    /// A bundle path that cannot be read as a bundle.
    #[error("{0}")]
    Unreadable(String),
    #[error("{registry} {namespace}/{package} has no releases")]
    NoReleases {
        registry: String,
        namespace: String,
        package: String,
    },
    /// A pulled release that cannot be read as a bundle: the server's failure (exit 1), whatever
    /// the class of the reading error.
    #[error("{at}: {source}")]
    Release {
        at: String,
        #[source]
        source: olm_release_olm::archive::ReadError,
    },
    /// A pulled release that cannot be written as a bundle folder (exit 1: the content came
    /// from the registry, not from the user).
    #[error("writing {folder}: {source}")]
    PulledFolder {
        folder: String,
        #[source]
        source: olm_release_olm::archive::WriteError,
    },
    /// `verify`: the bundle has errors.
    #[error("{0}")]
    Invalid(String),
    /// `diff`: the bundles differ (exit 1, as `diff` and `cmp` do).
    #[error("{0}")]
    Different(String),
    #[error(
        "the dir: registry has no app-registry channels; OLM channels are in the bundle (registry show NS/PKG RELEASE)"
    )]
    NoChannels,
    #[error("writing the man page: {0}")]
    Man(String),
}

impl olm_release_base::Classified for CommandError {
    fn class(&self) -> Class {
        match self {
            CommandError::NoReleases { .. }
            | CommandError::Release { .. }
            | CommandError::PulledFolder { .. }
            | CommandError::Invalid(_)
            | CommandError::Different(_)
            | CommandError::Man(_) => Class::Stage,
            _ => Class::Input,
        }
    }
}
