//! What kind of failure an error is, which decides the process's exit code.
//!
//! Every error type of every crate implements [`Classified`]: the domain and the clients say
//! whether a failure is the user's input (exit 2), a stage that ran and failed or a server
//! that refused (exit 1), a bug (exit 70) or an interruption (exit 130). The application's
//! error wraps them and maps the class to the exit code at the top, in one place.

use serde::Serialize;

/// What kind of failure this is; decides the exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// The pipeline file, a variable, an argument or an input file is wrong (exit 2).
    Input,
    /// A stage failed while running, or a server refused (exit 1).
    Stage,
    /// A bug in olm-release (exit 70, `EX_SOFTWARE` of sysexits.h); the message asks for a
    /// report.
    Internal,
    /// The run was interrupted (Ctrl-C, SIGINT): exit 130, the shells' 128 + SIGINT.
    Interrupted,
}

impl Class {
    /// The process exit code for this class.
    pub fn exit_code(self) -> i32 {
        match self {
            Class::Input => 2,
            Class::Stage => 1,
            Class::Internal => 70,
            Class::Interrupted => 130,
        }
    }
}

/// An error that knows its [`Class`]. Its `Display` is the message a user reads (what went
/// wrong, where, how to fix it); its causes stay attached as `source()`.
pub trait Classified: std::error::Error + Send + Sync + 'static {
    /// What kind of failure this is.
    fn class(&self) -> Class;
}

#[cfg(test)]
mod tests {
    use super::Class;

    #[test]
    fn every_class_has_its_exit_code() {
        assert_eq!(
            [
                Class::Input,
                Class::Stage,
                Class::Internal,
                Class::Interrupted
            ]
            .map(Class::exit_code),
            [2, 1, 70, 130]
        );
    }
}
