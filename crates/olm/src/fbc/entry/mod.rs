//! A bundle's catalog entry, as `opm render` writes it: [`build`] assembles the `olm.bundle`
//! document (properties in opm's order and shapes, `relatedImages`), from the parts a release
//! holds in memory or from a bundle folder on disk ([`folder`]); [`csv_metadata`] is the
//! `olm.csv.metadata` value, [`related`] the related images, [`gojson`] the JSON form opm
//! compares and embeds values in; [`consistency`] checks, before anything is written, that a
//! bundle names one package everywhere; [`style`] is the entry style a package already uses.

pub mod build;
pub mod consistency;
pub mod csv_metadata;
pub mod folder;
pub mod gojson;
pub mod related;
pub mod style;

pub use build::{BundleSource, ObjectStyle, bundle_entry, file_properties};
pub use consistency::{check_package, metadata_properties};
pub use folder::{BundleDir, read_bundle_dir};
pub use style::style_of;
