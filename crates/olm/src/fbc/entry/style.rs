//! The entry style a package's catalog already uses: a release added to an existing package
//! writes its entry as the package's newest entry is written (`olm.bundle.object` properties,
//! as `opm render` writes without a migration, or one `olm.csv.metadata`, as after
//! `--migrate-level bundle-object-to-csv-metadata`), unless the pipeline chooses one.

use super::super::model::{Catalog, PROPERTY_BUNDLE_OBJECT, PROPERTY_CSV_METADATA};
use super::build::ObjectStyle;

/// The style of `package`'s newest entry (by version, else the last read) that carries its
/// manifests either way; `None` when no entry does.
pub fn style_of(catalog: &Catalog, package: &str) -> Option<ObjectStyle> {
    let styled = catalog.bundles_of(package).filter_map(|b| {
        let has = |t: &str| b.properties.iter().any(|p| p.type_ == t);
        let style = if has(PROPERTY_CSV_METADATA) {
            ObjectStyle::CsvMetadata
        } else if has(PROPERTY_BUNDLE_OBJECT) {
            ObjectStyle::BundleObjects
        } else {
            return None;
        };
        Some((b.version(), style))
    });
    // max_by_key keeps the last of equal keys: the last read among unversioned entries.
    styled.max_by_key(|(v, _)| v.clone()).map(|(_, s)| s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fbc::parse;

    fn catalog(bundles: &[(&str, &str)]) -> Catalog {
        let mut text = String::new();
        for (version, property) in bundles {
            text.push_str(&format!("---\nschema: olm.bundle\npackage: op\nname: op.v{version}\nimage: i\nproperties:\n- {{type: olm.package, value: {{packageName: op, version: {version}}}}}\n- {{type: {property}, value: {{}}}}\n"));
        }
        let mut c = Catalog::default();
        parse::add_file(&mut c, "c.yaml", text.as_bytes()).unwrap();
        c
    }

    #[test]
    fn the_newest_entry_decides() {
        let c = catalog(&[
            ("1.1.0", "olm.bundle.object"),
            ("1.0.0", "olm.csv.metadata"),
        ]);
        assert_eq!(style_of(&c, "op"), Some(ObjectStyle::BundleObjects));
        let c = catalog(&[
            ("1.0.0", "olm.bundle.object"),
            ("1.1.0", "olm.csv.metadata"),
        ]);
        assert_eq!(style_of(&c, "op"), Some(ObjectStyle::CsvMetadata));
        assert_eq!(style_of(&catalog(&[("1.0.0", "olm.other")]), "op"), None);
        assert_eq!(style_of(&c, "other"), None);
    }
}
