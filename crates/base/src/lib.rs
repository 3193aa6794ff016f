//! The base every other olm-release crate stands on, and which stands on none of them: the
//! exit [`Class`] every error reports through [`Classified`]; reading the files a user names
//! within limits ([`input`]); writing YAML that every consumer reads back the same way
//! ([`yaml`]); content digests ([`digest`]); atomic writes and the removal of a killed run's
//! temporary files ([`atomic`]); paths under a root no symbolic link leads through
//! ([`links`]); locks ([`lock`]); secrets as a type and their removal from
//! messages ([`secret`]); reproducible timestamps ([`time`]); counted nouns ([`words`]).
#![deny(missing_docs)]

pub mod atomic;
mod class;
pub mod digest;
pub mod input;
pub mod links;
pub mod lock;
pub mod secret;
pub mod time;
pub mod words;
pub mod yaml;

pub use class::{Class, Classified};
pub use secret::Secret;
