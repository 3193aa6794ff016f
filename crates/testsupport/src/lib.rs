//! What the integration tests of every crate in the workspace share, so that a library crate's
//! tests (`crates/*/tests`) and the application's (`tests/`) find the same fixtures and peers
//! the same way: the repository root and the `shared` reference folder beside it ([`root`], [`shared`]), the
//! peers `scripts/test.sh` starts ([`peer`]), file trees ([`copy_dir`], [`list_files`],
//! [`file_contents`]), servers on loopback ports ([`serve_on_loopback`], [`hanging_port`]), and
//! external tools run to read results back ([`run`], [`umoci_unpack`]), and the case counts and
//! YAML values of property tests ([`fuzz`]).
//!
//! A test-only crate: nothing outside `[dev-dependencies]` uses it.
#![deny(missing_docs)]

mod files;
pub mod fuzz;
mod loopback;
mod paths;
mod tools;

pub use files::{copy_dir, file_contents, list_files};
pub use loopback::{hanging_port, serve_on_loopback};
pub use paths::{peer, root, shared};
pub use tools::{run, umoci_unpack};
