//! The rules of each `olm.bundle` document: it names a known package, once; it has an image
//! (pinned by digest, or a warning); exactly one `olm.package` property naming its package, with
//! a SemVer version no other bundle of the package has.

use std::collections::{HashMap, HashSet};

use super::{
    BUNDLE_IMAGE, BUNDLE_VERSION, DUPLICATE, IMAGE_DIGEST, PACKAGE_NAME, PACKAGE_PROPERTY, Sink,
    UNKNOWN_PACKAGE, obj_bundle,
};
use crate::fbc::model::*;

pub(super) fn bundles(catalog: &Catalog, known: &HashSet<&str>, sink: &mut Sink) {
    let mut seen = HashSet::new();
    // (package, version) → the first bundle with it.
    let mut versions: HashMap<(&str, semver::Version), &str> = HashMap::new();
    for b in &catalog.bundles {
        let (at, obj) = (&b.origin, obj_bundle(b));
        if b.package.is_empty() {
            let msg = format!("bundle {} names no package", b.name);
            sink.add(&PACKAGE_NAME, at, obj.clone(), "package", msg);
        } else if !known.contains(b.package.as_str()) {
            let msg = format!(
                "bundle {} names package {}, which has no olm.package document",
                b.name, b.package
            );
            sink.add(&UNKNOWN_PACKAGE, at, obj.clone(), "package", msg);
        }
        if !seen.insert((b.package.as_str(), b.name.as_str())) {
            let msg = format!("package {} has bundle {} twice", b.package, b.name);
            sink.add(&DUPLICATE, at, obj.clone(), "name", msg);
        }
        if b.image.is_empty() {
            let msg = format!("bundle {} has no image", b.name);
            sink.add(&BUNDLE_IMAGE, at, obj.clone(), "image", msg);
        } else if !crate::fbc::add::is_pinned(&b.image) {
            let msg = format!(
                "bundle {} references {} by tag, not by digest",
                b.name, b.image
            );
            sink.add(&IMAGE_DIGEST, at, obj.clone(), "image", msg);
        }
        let props: Vec<&Property> = b.package_properties().collect();
        let [prop] = props.as_slice() else {
            let msg = format!(
                "bundle {} has {} olm.package properties; exactly one is required",
                b.name,
                props.len()
            );
            sink.add(&PACKAGE_PROPERTY, at, obj.clone(), "properties", msg);
            continue;
        };
        let Some(value) = prop.as_package() else {
            let msg = format!(
                "the olm.package property of {} needs string fields packageName and version",
                b.name
            );
            sink.add(&PACKAGE_PROPERTY, at, obj.clone(), "properties", msg);
            continue;
        };
        if value.package_name != b.package {
            let msg = format!(
                "bundle {} is in package {} but its olm.package property names {}",
                b.name, b.package, value.package_name
            );
            sink.add(&PACKAGE_NAME, at, obj.clone(), "properties", msg);
        }
        match semver::Version::parse(&value.version) {
            Err(e) => {
                let msg = format!(
                    "bundle {} has version {:?}, which is not SemVer: {e}",
                    b.name, value.version
                );
                sink.add(&BUNDLE_VERSION, at, obj.clone(), "properties", msg);
            }
            Ok(v) => {
                let shown = v.to_string();
                if let Some(first) = versions.insert((b.package.as_str(), v), b.name.as_str())
                    && first != b.name
                {
                    let msg = format!(
                        "package {} has version {shown} twice: {first} and {}",
                        b.package, b.name
                    );
                    sink.add(&BUNDLE_VERSION, at, obj.clone(), "properties", msg);
                }
            }
        }
    }
}
