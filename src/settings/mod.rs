//! Resolved settings: the command line, the environment and the pipeline file, combined once.
//!
//! This is the only module that reads the environment (through the map `main` captures at
//! start-up). The pipeline file is read, checked and expanded ([`crate::pipeline`]); then every
//! value is turned into its type: relative paths resolved against the source folder, URLs
//! checked, the version parsed as strict SemVer, credentials read into [`Secret`](olm_release_base::Secret)s, and
//! `release.options` parsed into the target's configuration. A value that cannot be turned
//! into its type is recorded as a [`Problem`](crate::error::Problem) naming `FILE:LINE` (or the variable), and
//! resolution goes on, so the plan builder can report every problem at once. Only a pipeline
//! file that cannot be read or parsed at all stops here. Nothing downstream looks at clap or
//! the environment.

mod author;
mod catalog;
mod catalog_content;
mod catalog_flags;
mod catalog_keys;
mod credentials;
mod images;
mod inputs;
mod limits;
mod model;
mod network;
mod notes;
mod operatorhub;
mod options;
mod pull_request;
mod resolve;
mod target_run;
mod unread;
mod urls;
mod verify;

pub(crate) use author::CommitAuthor;
pub(crate) use catalog::{CatalogTarget, DEFAULT_PUBLISH_DEADLINE, GitTarget, TargetRun};
pub(crate) use catalog_flags::{command_pull_request, command_target};
pub(crate) use credentials::git as git_credentials;
pub(crate) use credentials::github as github_token;
pub(crate) use credentials::{
    GIT_CREDENTIALS, OCI_PASSWORD, OCI_USERNAME, SECRET_VARIABLES, github_problem, registry_problem,
};
pub(crate) use images::{ImageJob, ImageTarget};
pub use inputs::Env;
pub(crate) use limits::{base_limits, bundle_limits};
pub(crate) use model::{CONCURRENT_WAIT, ReleaseSettings, RunMode, Settings};
pub(crate) use network::network;
pub(crate) use notes::NotesSource;
pub(crate) use pull_request::PullRequest;
pub(crate) use resolve::{
    TimeSource, epoch, epoch_or_zero, image_credentials, parse_version, registry_credentials,
    registry_location, resolve,
};
pub(crate) use urls::{Target, is_loopback, resolve_path};
