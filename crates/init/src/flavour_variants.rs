//! The pipeline variant of each other bundle flavour ([`super::flavours`]): the flavour read as
//! the released bundle is (its CSV, CRDs, objects, images, metadata), with the release's
//! channels, its templates written under its own folder (`olm-openshift/bundle/`).

use std::path::Path;

use super::bundles::{self, BundleDir};
use super::flavours::{Variant, templates_dir, variant_name};
use super::found::{Found, Layout};
use super::scan::Scan;
use super::{bundle_metadata, starter};

/// The templates and the variant of the flavour `f` of the package `found` releases: `f` read
/// as the released bundle is (its CSV, CRDs, objects, images), with the release's channels,
/// its templates under [`templates_dir`].
pub(crate) fn variant(
    scan: &Scan,
    source: &Path,
    f: &BundleDir,
    found: &Found,
    names: (&str, &str, Option<&str>),
) -> (Variant, Vec<(String, String)>) {
    let (package, csv_name, owner) = names;
    let mut ff = Found::new(Layout::Bundle(Box::new(f.clone())));
    bundles::read(scan, f, &mut ff);
    ff.channels = found.channels.clone();
    ff.default_channel = found.default_channel.clone();
    let generated = starter::generate(&ff, package, csv_name, owner);
    let templates = templates_dir(f);
    let relocate = |p: &str| {
        p.strip_prefix(starter::TEMPLATES)
            .map_or(p.to_string(), |rest| format!("{templates}{rest}"))
    };
    let mut files: Vec<(String, String)> = generated
        .files
        .iter()
        .map(|(p, t)| (relocate(p), t.clone()))
        .collect();
    let dir = format!("{templates}/{}", starter::BUNDLE);
    let (extra, inserted) = bundle_metadata::templates(source, f, &dir);
    files.extend(extra);
    let mut vars: Vec<(String, String)> = generated.inserted.into_iter().collect();
    vars.extend(inserted);
    (
        Variant {
            name: variant_name(f),
            templates,
            files: vars,
            images: ff.images,
        },
        files,
    )
}
