//! Errors and their exit codes.
//!
//! Two classes matter to a user and to CI: input errors (the pipeline file, a variable, an
//! argument or an input file is wrong: exit 2) and stage failures (a stage ran and failed:
//! exit 1). Every error carries a message that names what went wrong and where (file and line,
//! field, URL); the helpers here attach that context at the edges so deep code stays simple.
//! Errors never carry secrets: clients build them from status, URL path and server text only.

use std::fmt;
use std::path::Path;

/// What kind of failure this is; decides the exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// The pipeline file, a variable, an argument or an input file is wrong (exit 2).
    Input,
    /// A stage failed while running (exit 1).
    Stage,
}

/// An error with its class and a human message (already holding its context).
#[derive(Debug)]
pub struct Error {
    pub class: Class,
    pub message: String,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An input error (exit 2).
    pub fn input(message: impl Into<String>) -> Self {
        Error {
            class: Class::Input,
            message: message.into(),
        }
    }

    /// A stage failure (exit 1).
    pub fn stage(message: impl Into<String>) -> Self {
        Error {
            class: Class::Stage,
            message: message.into(),
        }
    }

    /// Prefixes the message with what was being done ("reading X: <cause>").
    pub fn context(mut self, what: impl fmt::Display) -> Self {
        self.message = format!("{what}: {}", self.message);
        self
    }

    /// The process exit code for this error.
    pub fn exit_code(&self) -> i32 {
        match self.class {
            Class::Input => 2,
            Class::Stage => 1,
        }
    }

    /// An I/O error on `path`, classed as `class`.
    pub fn io(class: Class, path: &Path, err: std::io::Error) -> Self {
        Error {
            class,
            message: format!("{}: {err}", path.display()),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

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
