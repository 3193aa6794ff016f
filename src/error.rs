//! Errors and their exit codes.
//!
//! Two classes matter to a user and to CI: input errors (the pipeline file, a variable, an
//! argument or an input file is wrong: exit 2) and stage failures (a stage ran and failed, or a
//! server said no: exit 1). Every error carries a message that names what went wrong and where
//! (file and line, field, URL) and how to fix it. Errors never carry secrets: clients build them
//! from status, URL path and server text only.
//!
//! Problems found before anything runs (the plan's static checks) are collected, not stopped at:
//! [`Problems`] lists every one of them at once.

use std::fmt;
use std::path::Path;

use serde::Serialize;

/// What kind of failure this is; decides the exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// The pipeline file, a variable, an argument or an input file is wrong (exit 2).
    Input,
    /// A stage failed while running, or a server refused (exit 1).
    Stage,
    /// A bug in olm-release (exit 70, `EX_SOFTWARE` of sysexits.h): the message asks for a
    /// report.
    Internal,
}

impl Class {
    /// The process exit code for this class.
    pub fn exit_code(self) -> i32 {
        match self {
            Class::Input => 2,
            Class::Stage => 1,
            Class::Internal => 70,
        }
    }
}

/// An error with its class and a human message (already holding its context).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A failure described by its message.
    #[error("{message}")]
    Message { class: Class, message: String },
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
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An input error (exit 2).
    pub fn input(message: impl Into<String>) -> Self {
        Error::Message {
            class: Class::Input,
            message: message.into(),
        }
    }

    /// A stage failure (exit 1).
    pub fn stage(message: impl Into<String>) -> Self {
        Error::Message {
            class: Class::Stage,
            message: message.into(),
        }
    }

    /// A bug: something the code's own invariants rule out happened.
    pub fn internal(message: impl Into<String>) -> Self {
        Error::Message {
            class: Class::Internal,
            message: format!(
                "internal error (a bug in olm-release; please report it with this message): {}",
                message.into()
            ),
        }
    }

    /// What kind of failure this is.
    pub fn class(&self) -> Class {
        match self {
            Error::Message { class, .. } => *class,
            Error::Problems(_) => Class::Input,
            Error::Step { source, .. } => source.class(),
        }
    }

    /// Prefixes the message with what was being done ("reading X: <cause>").
    pub fn context(self, what: impl fmt::Display) -> Self {
        let class = self.class();
        Error::Message {
            class,
            message: format!("{what}: {self}"),
        }
    }

    /// The process exit code for this error.
    pub fn exit_code(&self) -> i32 {
        self.class().exit_code()
    }

    /// An I/O error on `path`, classed as `class`.
    pub fn io(class: Class, path: &Path, err: std::io::Error) -> Self {
        Error::Message {
            class,
            message: format!("{}: {err}", path.display()),
        }
    }
}

/// Adds context to any result whose error can be shown.
pub trait Context<T> {
    /// On error, wraps it as a stage failure prefixed with `what`.
    fn stage_context(self, what: impl FnOnce() -> String) -> Result<T>;
    /// On error, wraps it as an input error prefixed with `what`.
    fn input_context(self, what: impl FnOnce() -> String) -> Result<T>;
}

impl<T, E: fmt::Display> Context<T> for std::result::Result<T, E> {
    fn stage_context(self, what: impl FnOnce() -> String) -> Result<T> {
        self.map_err(|e| Error::stage(format!("{}: {e}", what())))
    }
    fn input_context(self, what: impl FnOnce() -> String) -> Result<T> {
        self.map_err(|e| Error::input(format!("{}: {e}", what())))
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
