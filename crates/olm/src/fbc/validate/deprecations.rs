//! The rules of `olm.deprecations` documents, as operator-registry applies them when it loads a
//! catalog (`alpha/declcfg/declcfg_to_model.go`): one document per package at most, naming a
//! package the catalog has; each entry's `reference.schema` is `olm.package` (with no name),
//! `olm.channel` or `olm.bundle` (with the name of one the package has), each reference once,
//! and a message (olm-docs "file-based-catalogs", "olm.deprecations").

use std::collections::HashSet;

use serde_yaml_ng::Value;

use super::{DEPRECATIONS, Sink};
use crate::fbc::model::{
    Catalog, SCHEMA_BUNDLE, SCHEMA_CHANNEL, SCHEMA_DEPRECATIONS, SCHEMA_PACKAGE,
};

fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or_default()
}

pub(super) fn deprecations(catalog: &Catalog, known: &HashSet<&str>, sink: &mut Sink) {
    let mut seen_packages = HashSet::new();
    for d in catalog
        .others
        .iter()
        .filter(|o| o.schema == SCHEMA_DEPRECATIONS)
    {
        let pkg = d.package.as_str();
        let obj = format!("olm.deprecations {pkg}");
        let mut err =
            |field: &str, msg: String| sink.add(&DEPRECATIONS, &d.origin, obj.clone(), field, msg);
        if pkg.is_empty() {
            err(
                "package",
                "an olm.deprecations document names no package".into(),
            );
            continue;
        }
        if !known.contains(pkg) {
            err(
                "package",
                format!("deprecations name package {pkg}, which the catalog does not have"),
            );
            continue;
        }
        if !seen_packages.insert(pkg) {
            err(
                "package",
                format!("package {pkg} has more than one olm.deprecations document"),
            );
            continue;
        }
        let entries: &[Value] = d
            .doc
            .get("entries")
            .and_then(Value::as_sequence)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        let mut refs = HashSet::new();
        for (i, e) in entries.iter().enumerate() {
            let at = |f: &str| format!("entries[{i}].{f}");
            let reference = e.get("reference").unwrap_or(&Value::Null);
            let (schema, name) = (text(reference, "schema"), text(reference, "name"));
            if text(e, "message").is_empty() {
                err(
                    &at("message"),
                    format!("the deprecation of {schema} {name} has no message"),
                );
            }
            if !refs.insert((schema, name)) {
                err(
                    &at("reference"),
                    format!("{schema} {name} is deprecated twice"),
                );
                continue;
            }
            match schema {
                SCHEMA_PACKAGE if !name.is_empty() => err(
                    &at("reference.name"),
                    format!(
                        "a package deprecation names no package (it applies to {pkg}), but names {name}"
                    ),
                ),
                SCHEMA_PACKAGE => {}
                SCHEMA_CHANNEL if catalog.channel(pkg, name).is_none() => err(
                    &at("reference.name"),
                    format!("cannot deprecate channel {name:?} of package {pkg}: no such channel"),
                ),
                SCHEMA_BUNDLE if catalog.bundle(pkg, name).is_none() => err(
                    &at("reference.name"),
                    format!("cannot deprecate bundle {name:?} of package {pkg}: no such bundle"),
                ),
                SCHEMA_CHANNEL | SCHEMA_BUNDLE => {}
                "" => err(
                    &at("reference.schema"),
                    "a deprecation reference has no schema".into(),
                ),
                other => err(
                    &at("reference.schema"),
                    format!(
                        "cannot deprecate a {other}: the schema is olm.package, olm.channel or olm.bundle"
                    ),
                ),
            }
        }
    }
}
