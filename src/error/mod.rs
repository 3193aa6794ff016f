//! The program's error and its exit code.
//!
//! Every crate's errors are typed where they arise and know their [`Class`] through
//! [`Classified`]: input errors (the pipeline file, a variable, an argument, a credential or an
//! input file is wrong: exit 2), stage failures (a step ran and failed, or a server said no:
//! exit 1), internal errors (a bug: exit 70, `EX_SOFTWARE` of sysexits.h, with a line asking
//! for a report), and an interrupted run (Ctrl-C: exit 130). [`Error`] wraps any of them, adds
//! the few contexts the application itself gives (the stage that failed, a local file), and
//! maps the class to the exit code, in `main`, once. This module names no other module of the
//! application: each area converts into [`Error`] through [`Classified`], so the arrows point
//! here and never back. Causes stay attached as `source()`, so the JSON summary can list the
//! chain; the message a user reads names the file and line, field, URL and the fix. Errors
//! never carry secrets: clients build them from status, URL path and server text only, and
//! scrub what they hold.
//!
//! Problems found before anything runs (the plan's static checks) are collected, not stopped
//! at: [`Problems`] lists every one of them at once.
//!
//! The executor's steps fail with the types in `error::step`, one per step, beside this one: they
//! name only the library crates, so the executor's modules import them and nothing here imports
//! the executor.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

pub(crate) mod step;

pub use olm_release_base::{Class, Classified};

/// Any error of the program. Its `Display` is the message a user reads (what went wrong,
/// where, and how to fix it); [`Error::class`] decides the exit code; the causes under the
/// message stay available as `source()` and through [`Error::causes`].
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct Error(Box<Kind>);

/// What an [`Error`] is.
#[derive(Debug)]
enum Kind {
    /// A typed error of any area, which knows its own class; it reads as its own message,
    /// with its own causes.
    Typed(Box<dyn Classified>),
    /// A step of the plan failed.
    Step { stage: &'static str, source: Error },
    /// Reading or writing a local file.
    Io {
        path: PathBuf,
        class: Class,
        source: std::io::Error,
    },
    /// Writing under the output folder failed.
    Output {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A bug.
    Internal(String),
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kind::Typed(e) => e.fmt(f),
            Kind::Step { stage, source } => write!(f, "stage {stage}: {source}"),
            Kind::Io { path, source, .. } => write!(f, "{}: {source}", path.display()),
            Kind::Output { path, source } => write!(
                f,
                "cannot write {}: {source} (the output folder is chosen by --out; default: _out/<pipeline name> under the current folder)",
                path.display()
            ),
            Kind::Internal(message) => write!(
                f,
                "internal error (a bug in olm-release; please report it with this message): {message}"
            ),
        }
    }
}

impl std::error::Error for Kind {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Kind::Typed(e) => e.source(),
            Kind::Step { source, .. } => Some(source),
            Kind::Io { source, .. } | Kind::Output { source, .. } => Some(source),
            Kind::Internal(_) => None,
        }
    }
}

/// A result whose error is an [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl<E: Classified> From<E> for Error {
    fn from(e: E) -> Error {
        Error(Box::new(Kind::Typed(Box::new(e))))
    }
}

impl Error {
    /// A bug: something the code's own invariants rule out happened.
    pub(crate) fn internal(message: impl Into<String>) -> Self {
        Error(Box::new(Kind::Internal(message.into())))
    }

    /// An I/O error on `path`, classed as `class`.
    pub(crate) fn io(class: Class, path: &Path, source: std::io::Error) -> Self {
        Error(Box::new(Kind::Io {
            path: path.to_path_buf(),
            class,
            source,
        }))
    }

    /// Writing `path`, under the output folder `--out` chose, failed.
    pub(crate) fn output(path: &Path, source: std::io::Error) -> Self {
        Error(Box::new(Kind::Output {
            path: path.to_path_buf(),
            source,
        }))
    }

    /// Step `stage` failed with `source`.
    pub(crate) fn step(stage: &'static str, source: Error) -> Self {
        Error(Box::new(Kind::Step { stage, source }))
    }

    /// The typed error underneath the stage context, if it is an `E`.
    pub(crate) fn typed<E: Classified>(&self) -> Option<&E> {
        match &*self.0 {
            Kind::Typed(e) => {
                let e: &dyn std::error::Error = &**e;
                e.downcast_ref::<E>()
            }
            Kind::Step { source, .. } => source.typed(),
            _ => None,
        }
    }

    /// What kind of failure this is: input (exit 2), stage (exit 1), internal (exit 70) or
    /// interrupted (exit 130).
    pub fn class(&self) -> Class {
        match &*self.0 {
            Kind::Typed(e) => e.class(),
            Kind::Step { source, .. } => source.class(),
            Kind::Io { class, .. } => *class,
            Kind::Output { .. } => Class::Stage,
            Kind::Internal(_) => Class::Internal,
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

impl Classified for Problems {
    /// Problems of the inputs, found before anything ran.
    fn class(&self) -> Class {
        Class::Input
    }
}
