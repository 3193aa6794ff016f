//! Errors and their exit codes.
//!
//! Each area has its own error enum (thiserror), and each variant knows its [`Class`]:
//! input errors (the pipeline file, a variable, an argument, a credential or an input file is
//! wrong: exit 2), stage failures (a step ran and failed, or a server said no: exit 1), and
//! internal errors (a bug: exit 70, `EX_SOFTWARE` of sysexits.h, with a line asking for a
//! report), and an interrupted run (Ctrl-C: exit 130). [`Error`] gathers them for `main`,
//! which maps the class to the exit code. Causes
//! stay attached as `source()`, so the JSON summary can list the chain; the message a user
//! reads names the file and line, field, URL and the fix. Errors never carry secrets: clients
//! build them from status, URL path and server text only, and scrub what they hold.
//!
//! Problems found before anything runs (the plan's static checks) are collected, not stopped
//! at: [`Problems`] lists every one of them at once.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

pub(crate) use crate::commands::CommandError;
use crate::exec::StepError;
use crate::pipeline::PipelineError;
pub use olm_release_appregistry::RegistryError;
use olm_release_targets::TargetError;
use olm_release_targets::github::GitHubError;

pub use olm_release_base::Class;

/// Any error of the program. Its `Display` is the message a user reads (what went wrong,
/// where, and how to fix it); [`Error::class`] decides the exit code; the causes under the
/// message stay available as `source()` and through [`Error::causes`].
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct Error(Box<Kind>);

/// What an [`Error`] is, by area.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Kind {
    #[error(transparent)]
    Pipeline(#[from] PipelineError),
    /// Problems found before anything ran, all of them.
    #[error(transparent)]
    Problems(#[from] Problems),
    /// A step of the plan failed.
    #[error("stage {stage}: {source}")]
    Step {
        stage: &'static str,
        #[source]
        source: Box<Error>,
    },
    #[error(transparent)]
    StepFailed(#[from] StepError),
    #[error(transparent)]
    Registry(#[from] RegistryError),
    #[error(transparent)]
    GitHub(#[from] GitHubError),
    #[error(transparent)]
    Target(#[from] TargetError),
    #[error(transparent)]
    Command(#[from] CommandError),
    #[error(transparent)]
    NextVersion(#[from] crate::commands::next_version::NextVersionError),
    #[error(transparent)]
    Init(#[from] crate::commands::init::InitError),
    #[error(transparent)]
    Oci(#[from] olm_release_oci::OciError),
    #[error(transparent)]
    BundleImage(#[from] olm_release_olm::bundle_image::BundleImageError),
    #[error(transparent)]
    Catalog(#[from] olm_release_olm::fbc::CatalogError),
    /// `SSL_CERT_FILE`, `SSL_CERT_DIR` or a proxy variable cannot be used.
    #[error(transparent)]
    Network(#[from] olm_release_http::NetworkError),
    /// A bundle (a `.tar.gz`, a `bundle.yaml`, a folder) that cannot be read.
    #[error(transparent)]
    BundleRead(#[from] olm_release_olm::archive::ReadError),
    /// A bundle that cannot be written.
    #[error(transparent)]
    BundleWrite(#[from] olm_release_olm::archive::WriteError),
    /// Reading or writing a local file.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        class: Class,
        #[source]
        source: std::io::Error,
    },
    /// Writing under the output folder failed.
    #[error("cannot write {}: {source} (the output folder is chosen by --out; default: _out/<pipeline name> under the current folder)", path.display())]
    Output {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("internal error (a bug in olm-release; please report it with this message): {0}")]
    Internal(String),
    /// Ctrl-C during a step.
    #[error(transparent)]
    Interrupted(#[from] crate::exec::Interrupted),
}

/// A result whose error is an [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl<T: Into<Kind>> From<T> for Error {
    fn from(kind: T) -> Error {
        Error(Box::new(kind.into()))
    }
}

impl Error {
    /// A bug: something the code's own invariants rule out happened.
    pub(crate) fn internal(message: impl Into<String>) -> Self {
        Kind::Internal(message.into()).into()
    }

    /// An I/O error on `path`, classed as `class`.
    pub(crate) fn io(class: Class, path: &Path, source: std::io::Error) -> Self {
        Kind::Io {
            path: path.to_path_buf(),
            class,
            source,
        }
        .into()
    }

    /// Writing `path`, under the output folder `--out` chose, failed.
    pub(crate) fn output(path: &Path, source: std::io::Error) -> Self {
        Kind::Output {
            path: path.to_path_buf(),
            source,
        }
        .into()
    }

    /// Step `stage` failed with `source`.
    pub(crate) fn step(stage: &'static str, source: Error) -> Self {
        Kind::Step {
            stage,
            source: Box::new(source),
        }
        .into()
    }

    /// What the error is, by area.
    pub(crate) fn kind(&self) -> &Kind {
        &self.0
    }

    /// What kind of failure this is: input (exit 2), stage (exit 1) or internal (exit 70).
    pub fn class(&self) -> Class {
        match &*self.0 {
            Kind::Pipeline(_) | Kind::Problems(_) => Class::Input,
            Kind::Step { source, .. } => source.class(),
            Kind::StepFailed(e) => e.class(),
            Kind::Registry(e) => e.class(),
            Kind::GitHub(e) => e.class(),
            Kind::Target(e) => e.class(),
            Kind::Command(e) => e.class(),
            Kind::NextVersion(e) => e.class(),
            Kind::Init(e) => e.class(),
            Kind::Oci(e) => e.class(),
            Kind::BundleImage(e) => e.class(),
            Kind::Catalog(e) => e.class(),
            Kind::Network(_) => Class::Input,
            Kind::BundleRead(e) => e.class(),
            Kind::BundleWrite(e) => e.class(),
            Kind::Io { class, .. } => *class,
            Kind::Output { .. } => Class::Stage,
            Kind::Internal(_) => Class::Internal,
            Kind::Interrupted(_) => Class::Interrupted,
        }
    }

    /// The process exit code for this error.
    pub fn exit_code(&self) -> i32 {
        self.class().exit_code()
    }

    /// The causes under this error's own message, outermost first (for the JSON summary).
    pub fn causes(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut cause = std::error::Error::source(self);
        while let Some(c) = cause {
            out.push(c.to_string());
            cause = c.source();
        }
        out
    }
}

impl From<olm_release_targets::github::ApiError> for Kind {
    fn from(e: olm_release_targets::github::ApiError) -> Kind {
        Kind::GitHub(e.into())
    }
}

/// One thing wrong with the inputs, found before anything ran.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// Where: `FILE:LINE`, an argument (`--registry`) or a variable (`GITHUB_TOKEN`).
    pub at: String,
    /// What is wrong and how to fix it.
    pub message: String,
}

impl Problem {
    pub(crate) fn new(at: impl Into<String>, message: impl Into<String>) -> Self {
        Problem {
            at: at.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

/// Every problem the static checks found (never empty). Input errors: exit 2.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problems(pub Vec<Problem>);

impl fmt::Display for Problems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.as_slice() {
            [one] => one.fmt(f),
            all => {
                write!(f, "{} problems; nothing was run:", all.len())?;
                for p in all {
                    write!(f, "\n  - {p}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for Problems {}
