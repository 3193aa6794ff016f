//! The `git` binary as a client: a catalog kept in a git repository is read by fetching one
//! branch into a temporary checkout, and written by a commit pushed without force, so that the
//! push is a compare-and-swap: it lands only when the branch still names the commit the
//! checkout was made from ([`Pushed::Moved`] otherwise, and the caller decides again).
//!
//! Requests are plain data ([`Remote`], [`Signature`]); the binary is driven with its output in
//! the C locale, `GIT_TERMINAL_PROMPT=0` (a missing credential fails instead of waiting for a
//! prompt that never comes), and, when [`Credentials`] are given, a credential helper passed
//! through `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n` that answers from the
//! child's environment (gitcredentials(7), git-config(1) "ENVIRONMENT"): the token is never in
//! a URL, an argument list or a message. Errors are [`GitError`], with the secret removed from
//! anything git printed.
#![deny(missing_docs)]

mod command;
mod error;
mod repo;

pub use command::{Credentials, Git};
pub use error::GitError;
pub use repo::{Checkout, Pushed, Remote, Signature};
