//! Commands that are not the pipeline itself, one module each.

pub mod registry;
pub mod verify;
