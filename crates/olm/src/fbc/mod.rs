//! File-based catalogs (FBC): where OLM reads operators today, and the catalog half of
//! publishing a release as a registry+v1 bundle image listed in a catalog.
//!
//! A catalog is a folder of YAML or JSON documents of three schemas (olm-docs,
//! "file-based-catalogs"; operator-registry `alpha/declcfg`): `olm.package` (name, default
//! channel, optional description and icon), `olm.channel` (the upgrade graph: entries with
//! `replaces`, `skips`, `skipRange`) and `olm.bundle` (a bundle image by digest with its
//! properties: exactly one `olm.package`, an `olm.gvk` per provided API). This module is pure
//! domain: plain data in, typed results and findings out; it knows nothing of pipelines, stages
//! or reports, so the catalog stage, `migrate` and `graph CATALOG` are thin wrappers.
//!
//! - [`model`]: the documents; [`parse`] and [`disk`] read a folder in any layout; [`write`](mod@write)
//!   renders the one layout this tool writes (`<root>/<package>/catalog.yaml`), byte-identical
//!   on a rerun; [`disk::plan`], [`disk::diff`] and [`disk::apply`] split writing so a dry-run
//!   shows the exact diff.
//! - [`add`](mod@add): a release's bundle joins its channels, `replaces` the head, keeps
//!   `defaultChannel` right, and is a no-op when already there.
//! - [`head`](mod@head): the head of a channel (fetch-previous from a catalog).
//! - [`validate`](mod@validate): the rules of `opm validate` (operator-registry `alpha/model/model.go`).
//! - [`release_model`] and [`compare`](mod@compare): the release model of an app-registry bundle and of a catalog,
//!   how they differ, their edges, and a skeleton bundle for the existing graph drawer.
//! - [`migrate`]: an app-registry release → per-CSV bundle contents → the catalog that keeps
//!   the same upgrade graph.
//! - [`entry`]: a bundle's `olm.bundle` entry as `opm render` writes it; [`load`]: the one
//!   loader every command reads catalogs through; [`rewrite`]: writing back one package's part;
//!   [`deprecate`](mod@deprecate): `olm.deprecations`; [`template`]: `olm.template.basic` and
//!   `olm.semver` catalog templates.
//! - [`apply`](mod@apply): a release applied to a parsed catalog, plainly or through its
//!   template, and whether a catalog holds a release; [`agree`](mod@agree): whether an app
//!   registry's decision and a catalog name the same channel head.
//! - [`swap`]: a catalog target's compare-and-swap lost to another job: whether what moved
//!   touches the release's package (decide again) or only others' (apply the same change
//!   again), and the pauses between tries until a deadline.

pub mod add;
pub mod agree;
pub mod apply;
pub mod compare;
pub mod deprecate;
pub mod disk;
pub mod entry;
pub mod error;
pub mod head;
pub mod load;
pub mod migrate;
pub mod model;
pub mod parse;
pub mod properties;
pub mod release_model;
pub mod rewrite;
pub mod swap;
pub mod template;
pub mod validate;
pub mod write;

pub use add::{AddBundle, AddOutcome, add};
pub use agree::{Agreement, agree};
pub use apply::{Applied, Kept, Release, apply, holds};
pub use compare::{Difference, compare};
pub use deprecate::{Deprecated, Deprecation, deprecate};
pub use disk::FileChange;
pub use entry::{BundleSource, ObjectStyle, bundle_entry};
pub use error::CatalogError;
pub use head::{ChannelHead, Head, channel_heads, head};
pub use load::Loaded;
pub use model::{BundleDoc, Catalog, ChannelDoc, Entry, PackageDoc, Property, RelatedImage};
pub use release_model::ReleaseModel;
pub use validate::validate;
