//! `olm.template.basic` (operator-registry `alpha/template/basic/basic.go`): `entries` are
//! catalog documents as they will be rendered, except that each `olm.bundle` is a stub with
//! only `schema` and `image`. A release appends its stub (unless the image is listed) and,
//! through [`crate::fbc::add`]'s rules, an entry in each channel it joins replacing the channel
//! head (creating a missing channel, and the `olm.package` document of a new package), and
//! records its deprecations; the entries keep their order, new ones go after their kind.

use serde_yaml_ng::{Mapping, Value};

use super::{Release, Rendered, entry_of, err};
use crate::fbc::add::{self, BundleChange};
use crate::fbc::deprecate::deprecate;
use crate::fbc::error::CatalogError;
use crate::fbc::model::*;
use crate::fbc::parse::add_doc;
use crate::fbc::write::{self, package_value};

/// The schema of a basic template.
pub(crate) const SCHEMA: &str = "olm.template.basic";

/// A basic template: its top-level mapping and its entries.
#[derive(Debug, Clone, PartialEq)]
pub struct Basic {
    file: String,
    top: Mapping,
    entries: Vec<Value>,
}

fn schema_of(v: &Value) -> &str {
    v.get("schema").and_then(Value::as_str).unwrap_or_default()
}

fn image_of(v: &Value) -> &str {
    v.get("image").and_then(Value::as_str).unwrap_or_default()
}

impl Basic {
    pub(crate) fn parse(file: &str, doc: Value) -> Result<Self, CatalogError> {
        let Value::Mapping(mut top) = doc else {
            return Err(err(file, "is not a mapping"));
        };
        // Kept apart, and written last.
        let entries = match top.remove("entries") {
            Some(Value::Sequence(s)) => s,
            None | Some(Value::Null) => Vec::new(),
            Some(_) => return Err(err(file, "entries must be a list of catalog documents")),
        };
        for (i, e) in entries.iter().enumerate() {
            if schema_of(e) == SCHEMA_BUNDLE {
                let extra = e.as_mapping().map_or(0, |m| {
                    m.keys()
                        .filter(|k| !matches!(k.as_str(), Some("schema" | "image")))
                        .count()
                });
                if extra > 0 || image_of(e).is_empty() {
                    return Err(err(
                        file,
                        format!(
                            "entries[{i}]: a bundle of a basic template has only schema and image (unexpected fields present in basic template bundle)"
                        ),
                    ));
                }
            }
        }
        Ok(Basic {
            file: file.into(),
            top,
            entries,
        })
    }

    /// The model of the entries: package, channel and other documents as they are, each bundle
    /// stub as its entry (the release's, or the catalog's for that image).
    fn model(&self, catalog: &Catalog, own: &BundleDoc) -> Result<Catalog, CatalogError> {
        let mut model = Catalog::default();
        for (i, e) in self.entries.iter().enumerate() {
            let origin = Origin::new(self.file.clone(), i + 1);
            if schema_of(e) == SCHEMA_BUNDLE {
                let found = entry_of(&self.file, image_of(e), own, catalog)?;
                model.bundles.push(BundleDoc {
                    origin,
                    ..found.clone()
                });
            } else {
                add_doc(&mut model, e.clone(), origin)?;
            }
        }
        Ok(model)
    }

    pub(crate) fn release(
        &mut self,
        catalog: &Catalog,
        release: &Release,
    ) -> Result<Rendered, CatalogError> {
        let req = release.request;
        let own = add::bundle_doc(req);
        // The model as the template says (a rerun finds its own stub and entries there).
        let mut model = self.model(catalog, &own)?;
        let outcome = add::add(&mut model, req)?;
        let mut lines = outcome.lines();
        lines.extend(deprecate(&mut model, &req.package, release.deprecations)?);
        // Write the entries back: documents in place, new ones after their kind.
        let mut entries = self.entries.clone();
        for (i, e) in entries.iter_mut().enumerate() {
            let at = |o: &Origin| o.file == self.file && o.document == i + 1;
            match schema_of(e) {
                SCHEMA_PACKAGE => {
                    if let Some(p) = model.packages.iter().find(|p| at(&p.origin)) {
                        *e = package_value(p);
                    }
                }
                SCHEMA_CHANNEL => {
                    if let Some(c) = model.channels.iter().find(|c| at(&c.origin)) {
                        *e = write::channel_value_as_listed(c);
                    }
                }
                SCHEMA_BUNDLE => {
                    if let BundleChange::Replaced { old_image } = &outcome.change
                        && image_of(e) == old_image
                    {
                        *e = stub(&req.image);
                    }
                }
                _ => {
                    if let Some(o) = model.others.iter().find(|o| at(&o.origin)) {
                        *e = o.doc.clone();
                    }
                }
            }
        }
        let fresh = |o: &Origin| o.file != self.file;
        for p in model.packages.iter().filter(|p| fresh(&p.origin)) {
            entries.insert(0, package_value(p));
        }
        for c in model.channels.iter().filter(|c| fresh(&c.origin)) {
            let after = last_of(&entries, &[SCHEMA_CHANNEL, SCHEMA_PACKAGE]);
            entries.insert(after, write::channel_value_as_listed(c));
        }
        if !self
            .entries
            .iter()
            .any(|e| schema_of(e) == SCHEMA_BUNDLE && image_of(e) == req.image)
            && !matches!(outcome.change, BundleChange::Replaced { .. })
        {
            let after = last_of(&entries, &[SCHEMA_BUNDLE, SCHEMA_CHANNEL, SCHEMA_PACKAGE]);
            entries.insert(after, stub(&req.image));
        }
        for o in model.others.iter().filter(|o| fresh(&o.origin)) {
            entries.push(o.doc.clone());
        }
        self.entries = entries;
        let mut rendered = self.model(catalog, &own)?;
        for b in &mut rendered.bundles {
            b.origin = Origin::default();
        }
        Ok(Rendered {
            text: self.text(),
            catalog: rendered,
            lines,
            outcome: Some(outcome),
        })
    }

    /// The template's text, as olm-release writes YAML.
    pub fn text(&self) -> String {
        let mut top = self.top.clone();
        top.insert("entries".into(), Value::Sequence(self.entries.clone()));
        olm_release_base::yaml::to_string(&Value::Mapping(top))
    }
}

fn stub(image: &str) -> Value {
    let mut m = Mapping::new();
    m.insert("schema".into(), SCHEMA_BUNDLE.into());
    m.insert("image".into(), image.into());
    Value::Mapping(m)
}

/// The index after the last entry of one of `schemas` (0 when none).
fn last_of(entries: &[Value], schemas: &[&str]) -> usize {
    entries
        .iter()
        .rposition(|e| schemas.contains(&schema_of(e)))
        .map_or(0, |i| i + 1)
}
