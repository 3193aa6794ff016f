//! The bundle tarball: writing it reproducibly and reading it defensively.
//!
//! Writing follows what the app registry's consumers read (the flattened format of
//! operator-courier's `format.py`, which operator-registry's `pkg/appregistry` package loads for
//! OLM's catalog): by default one flattened `bundle.yaml` whose `data.customResourceDefinitions`, `data.clusterServiceVersions`
//! and `data.packages` are YAML strings holding lists; optionally the nested tree (the package
//! file plus one folder per CSV version). The tar is reproducible: entries sorted, modes fixed,
//! owner 0, mtime from `SOURCE_DATE_EPOCH` (or 0), and the gzip header carries no name or time.
//! The registry's digest is the sha256 of the *uncompressed* tar.
//!
//! Reading treats every blob and file as untrusted, within [`Limits`]: non-gzip or truncated
//! data, entries with `..` or an absolute path, links, devices, too many entries, too many
//! bytes or too high a compression ratio are refused while streaming ([`unpack`]), with an
//! error naming the entry; each YAML text is measured by a linear scan against the bundle's
//! `Budget` (nesting depth, values, alias expansion) before the parser sees it ([`scan`]);
//! files on disk are read through `olm_release_base::input` (`folder.rs`). Errors are
//! [`ReadError`]s (and [`WriteError`]s when writing). Nothing is written to disk while
//! reading.
//!
//! The API, every reader taking the [`Limits`] the command resolved (the application reads
//! `--max-bundle-bytes`; tests and tools use `Limits::default()`):
//! - a bundle on disk: [`read_path`] (folder, `bundle.yaml` or `.tar.gz`), or [`read_dir_with`]
//!   to visit a folder's CSVs one at a time; [`read_path_contents`] and [`read_dir_with`] also
//!   hand back the other objects beside the CSVs ([`Contents`]), which `publish` validates;
//! - bytes in memory: [`unpack`] (a `.tar.gz` into files and its digest), [`read_bundle`] (those
//!   files), [`read_flattened`] (one `bundle.yaml`), [`tar_digest`] (the digest alone);
//! - a blob a registry served: [`unpack_release`], which also checks the digest the registry
//!   listed. Its errors are input-class (the bytes are wrong): a caller that pulled the blob wraps
//!   them in a stage-class error of its own;
//! - writing: [`bundle_files`], [`flatten`]/[`flatten_parts`], [`pack`], [`write_folder`].
//!
//! [`Limits::for_packed`] re-reads a tarball this process packed (its own size, any ratio).

mod budget;
mod error;
mod folder;
mod model;
mod pulled;
mod read;
pub mod scan;
mod unpack;
mod walk;
mod write;

pub use budget::Budget;
pub use error::{ReadError, WriteError};
pub use folder::{Input, open};
pub use folder::{read_dir_with, read_path, read_path_contents};
pub use model::{Contents, Files, Layout, Limits, Packed, is_gzip};
pub use pulled::unpack_release;
pub use read::check_files;
pub use read::{
    parse_flattened_list, parse_flattened_top, parse_single, read_bundle, read_flattened,
};
pub use unpack::{inspect, unpack_as};
pub use unpack::{tar_digest, unpack};
pub use walk::list;
pub use write::{bundle_files, csv_list_item, flatten, flatten_parts, pack, write_folder};
