//! Reading catalog files into the model: a YAML file may hold several documents (`---`), a JSON
//! file several concatenated values (as `opm render` writes them); every document is sorted by
//! its `schema` into the model.
//!
//! Shapes are checked here (a `name` that is not a string, `entries` that is not a list): such
//! a file is not a catalog, and the error names the file, the document and the field. What is
//! well-formed but wrong for OLM (a missing default channel, two heads) is left to
//! [`super::validate()`], which reports every problem at once as `opm validate` does.

use serde::Deserialize;
use serde_yaml_ng::{Mapping, Value};

use super::error::CatalogError;
use super::model::*;

/// Adds every document of one file (`file` is its path relative to the catalog root) to
/// `catalog`. JSON when the name ends in `.json`, else YAML.
pub fn add_file(catalog: &mut Catalog, file: &str, bytes: &[u8]) -> Result<(), CatalogError> {
    if file.ends_with(".json") {
        let stream = serde_json::Deserializer::from_slice(bytes).into_iter::<serde_json::Value>();
        for (i, doc) in stream.enumerate() {
            let document = i + 1;
            let json = doc.map_err(|source| CatalogError::Json {
                file: file.into(),
                document,
                source,
            })?;
            let value = serde_yaml_ng::to_value(&json).map_err(|source| CatalogError::Yaml {
                file: file.into(),
                document,
                source,
            })?;
            add_doc(catalog, value, Origin::new(file, document))?;
        }
    } else {
        let mut document = 0;
        for de in serde_yaml_ng::Deserializer::from_slice(bytes) {
            document += 1;
            let value = Value::deserialize(de).map_err(|source| CatalogError::Yaml {
                file: file.into(),
                document,
                source,
            })?;
            if value.is_null() {
                continue; // an empty document between two `---`
            }
            add_doc(catalog, value, Origin::new(file, document))?;
        }
    }
    Ok(())
}

/// The catalog of in-memory `files` (paths relative to the catalog root, with their bytes), as
/// the loader reads a folder: `.yaml`, `.yml` and `.json` files, hidden ones left out.
pub fn catalog_of(files: &[(String, Vec<u8>)]) -> Result<Catalog, CatalogError> {
    let mut catalog = Catalog::default();
    for (path, bytes) in files {
        let hidden = path.split('/').any(|p| p.starts_with('.'));
        if !hidden && super::load::walk::is_catalog_file(path) {
            add_file(&mut catalog, path, bytes)?;
        }
    }
    Ok(catalog)
}

/// One document, by schema.
pub(crate) fn add_doc(
    catalog: &mut Catalog,
    value: Value,
    origin: Origin,
) -> Result<(), CatalogError> {
    let d = Doc {
        origin: &origin,
        path: String::new(),
    };
    let Value::Mapping(map) = value else {
        return Err(d.err("the document", "must be a mapping with a schema field"));
    };
    let schema = d.string(&map, "schema")?.unwrap_or_default();
    match schema.as_str() {
        "" => Err(d.err(
            "schema",
            "is missing: every catalog document names its schema (olm.package, olm.channel, olm.bundle or another)",
        )),
        SCHEMA_PACKAGE => {
            let doc = package(&d, &map)?;
            catalog.packages.push(PackageDoc { origin, ..doc });
            Ok(())
        }
        SCHEMA_CHANNEL => {
            let doc = channel(&d, &map)?;
            catalog.channels.push(ChannelDoc { origin, ..doc });
            Ok(())
        }
        SCHEMA_BUNDLE => {
            let doc = bundle(&d, &map)?;
            catalog.bundles.push(BundleDoc { origin, ..doc });
            Ok(())
        }
        _ => {
            let package = d.string(&map, "package")?.unwrap_or_default();
            catalog.others.push(OtherDoc {
                schema,
                package,
                doc: Value::Mapping(map),
                origin,
            });
            Ok(())
        }
    }
}

/// Field access with errors that name the file, document and field path.
struct Doc<'a> {
    origin: &'a Origin,
    /// Prefix of field paths, e.g. `entries[2].`.
    path: String,
}

impl Doc<'_> {
    fn err(&self, field: &str, message: &str) -> CatalogError {
        CatalogError::Field {
            file: self.origin.file.clone(),
            document: self.origin.document,
            field: format!("{}{field}", self.path),
            message: message.into(),
        }
    }

    fn at(&self, prefix: String) -> Doc<'_> {
        Doc {
            origin: self.origin,
            path: format!("{}{prefix}", self.path),
        }
    }

    /// A string field; absent or null → `None`.
    fn string(&self, map: &Mapping, key: &str) -> Result<Option<String>, CatalogError> {
        match map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(self.err(key, "must be a string")),
        }
    }

    fn strings(&self, map: &Mapping, key: &str) -> Result<Vec<String>, CatalogError> {
        match map.get(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Sequence(items)) => items
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    v.as_str()
                        .map(str::to_string)
                        .ok_or_else(|| self.err(&format!("{key}[{i}]"), "must be a string"))
                })
                .collect(),
            Some(_) => Err(self.err(key, "must be a list of strings")),
        }
    }

    fn list<'m>(&self, map: &'m Mapping, key: &str) -> Result<&'m [Value], CatalogError> {
        match map.get(key) {
            None | Some(Value::Null) => Ok(&[]),
            Some(Value::Sequence(items)) => Ok(items),
            Some(_) => Err(self.err(key, "must be a list")),
        }
    }
}

/// The keys of `map` other than `known`, in their order.
fn extra(map: &Mapping, known: &[&str]) -> Mapping {
    map.iter()
        .filter(|(k, _)| !k.as_str().is_some_and(|k| known.contains(&k)))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

fn package(d: &Doc, map: &Mapping) -> Result<PackageDoc, CatalogError> {
    let icon = match map.get("icon") {
        None | Some(Value::Null) => None,
        Some(Value::Mapping(icon)) => {
            let d = d.at("icon.".into());
            Some(Icon {
                base64data: d.string(icon, "base64data")?.unwrap_or_default(),
                mediatype: d.string(icon, "mediatype")?.unwrap_or_default(),
            })
        }
        Some(_) => return Err(d.err("icon", "must be a mapping {base64data, mediatype}")),
    };
    Ok(PackageDoc {
        name: d.string(map, "name")?.unwrap_or_default(),
        default_channel: d.string(map, "defaultChannel")?,
        description: d.string(map, "description")?,
        icon,
        extra: extra(
            map,
            &["schema", "name", "defaultChannel", "description", "icon"],
        ),
        origin: Origin::default(),
    })
}

fn channel(d: &Doc, map: &Mapping) -> Result<ChannelDoc, CatalogError> {
    let mut entries = Vec::new();
    for (i, item) in d.list(map, "entries")?.iter().enumerate() {
        let d = d.at(format!("entries[{i}]."));
        let Value::Mapping(e) = item else {
            return Err(d.err("", "must be a mapping {name, replaces, skips, skipRange}"));
        };
        entries.push(Entry {
            name: d.string(e, "name")?.unwrap_or_default(),
            replaces: d.string(e, "replaces")?.filter(|r| !r.is_empty()),
            skips: d.strings(e, "skips")?,
            skip_range: d.string(e, "skipRange")?.filter(|r| !r.is_empty()),
            extra: extra(e, &["name", "replaces", "skips", "skipRange"]),
        });
    }
    Ok(ChannelDoc {
        package: d.string(map, "package")?.unwrap_or_default(),
        name: d.string(map, "name")?.unwrap_or_default(),
        entries,
        extra: extra(map, &["schema", "package", "name", "entries"]),
        origin: Origin::default(),
    })
}

fn bundle(d: &Doc, map: &Mapping) -> Result<BundleDoc, CatalogError> {
    let mut properties = Vec::new();
    for (i, item) in d.list(map, "properties")?.iter().enumerate() {
        let d = d.at(format!("properties[{i}]."));
        let Value::Mapping(p) = item else {
            return Err(d.err("", "must be a mapping {type, value}"));
        };
        properties.push(Property {
            type_: d.string(p, "type")?.unwrap_or_default(),
            value: p.get("value").cloned().unwrap_or(Value::Null),
        });
    }
    let mut related_images = Vec::new();
    for (i, item) in d.list(map, "relatedImages")?.iter().enumerate() {
        let d = d.at(format!("relatedImages[{i}]."));
        let Value::Mapping(r) = item else {
            return Err(d.err("", "must be a mapping {name, image}"));
        };
        related_images.push(RelatedImage {
            name: d.string(r, "name")?,
            image: d.string(r, "image")?.unwrap_or_default(),
        });
    }
    Ok(BundleDoc {
        package: d.string(map, "package")?.unwrap_or_default(),
        name: d.string(map, "name")?.unwrap_or_default(),
        image: d.string(map, "image")?.unwrap_or_default(),
        properties,
        related_images,
        extra: extra(
            map,
            &[
                "schema",
                "package",
                "name",
                "image",
                "properties",
                "relatedImages",
            ],
        ),
        origin: Origin::default(),
    })
}
