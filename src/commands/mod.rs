//! Commands that are not the pipeline itself, one module each.

pub(crate) mod completions;
pub mod graph;
pub(crate) mod init;
pub mod next_version;
pub mod publish;
pub mod registry;
pub mod verify;
