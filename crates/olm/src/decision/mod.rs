//! The release decision: where a new version goes against the channel heads that are
//! published, as plain data. The executor reads the heads (an app registry's highest release,
//! or a file-based catalog's channel heads) and calls [`decide_from_registry`] or
//! [`decide_from_catalog`] once; both take [`decide`]'s decision, so the CSV in a bundle image
//! and its catalog entry always agree, and a first release ([`first`]) is the same for both.
//!
//! - Versions compare as SemVer on every channel of the release. Above every head: the new
//!   CSV `replaces` the head of the first channel and `skips` the heads of the others
//!   ([`Decision::Replaces`]); a CSV that names its own `replaces` keeps it, and its `skips`,
//!   as its maintainer wrote them, and one that would leave a head behind is refused
//!   ([`DecisionError::ReplacesConflict`]). Equal: the same release again ([`Decision::SameVersion`]).
//!   Below a head: refused, or nothing published under [`OlderPolicy::Skip`].
//! - A CSV already published joins more channels unchanged, under a new release
//!   ([`Decision::AddChannels`], named by [`channel_release`]).
//! - The previous bundle's other CSVs and CRDs are carried, and the package file points every
//!   channel of the release at the new CSV ([`decide`] returns the merged bundle).
//! - A release published concurrently is taken into a cumulative bundle at its SemVer place
//!   ([`splice`]), as a sequential publication would have placed it; [`race`] holds the rules
//!   that say when a racing release forks the channel and what a re-base takes in.

mod catalog;
mod decide;
pub mod explain;
mod first;
mod join;
mod model;
mod name;
mod own;
pub mod race;
mod registry;
mod skip_range;
mod splice;

pub use catalog::{CatalogRead, decide_from_catalog, skeleton};
pub use decide::{
    Decided, Published, ReadFrom, clear_dangling, decide, first_package, set_heads, set_skips,
    skips_of,
};
pub use first::{first, usual_first_version};
pub use join::edges;
pub use model::{Decision, DecisionError, Older, OlderPolicy};
pub use name::channel_release;
pub use registry::{decide_from_registry, default_channel_note};
pub use skip_range::{stale_for_replaced, stale_skip_range};
pub use splice::{chain, splice};
