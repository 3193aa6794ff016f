//! A release deprecating older bundles (or a channel, or the whole package): the package's one
//! `olm.deprecations` document gains an entry per reference, or changes its message (olm-docs
//! "file-based-catalogs", `olm.deprecations`; OLM shows the message on subscriptions to what is
//! deprecated). Idempotent: a reference already deprecated with the same message changes nothing.
//! What a reference names must exist in the package, or the request is refused before the model
//! changes.

use serde_yaml_ng::{Mapping, Value};

use super::error::CatalogError;
use super::model::*;
use super::write;

/// What a deprecation references.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Deprecated {
    /// The whole package.
    Package,
    /// A channel of the package, by name.
    Channel(String),
    /// A bundle of the package, by name (its CSV's `metadata.name`).
    Bundle(String),
}

impl Deprecated {
    fn reference(&self) -> (&'static str, &str) {
        match self {
            Deprecated::Package => (SCHEMA_PACKAGE, ""),
            Deprecated::Channel(n) => (SCHEMA_CHANNEL, n),
            Deprecated::Bundle(n) => (SCHEMA_BUNDLE, n),
        }
    }
}

/// One deprecation a release asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deprecation {
    /// What is deprecated.
    pub what: Deprecated,
    /// What users are told (why, and what to use instead).
    pub message: String,
}

fn reference_of(entry: &Value) -> (&str, &str) {
    let r = entry.get("reference");
    let field = |k: &str| {
        r.and_then(|r| r.get(k))
            .and_then(Value::as_str)
            .unwrap_or_default()
    };
    (field("schema"), field("name"))
}

fn entry_value(schema: &str, name: &str, message: &str) -> Value {
    let mut reference = Mapping::new();
    reference.insert("schema".into(), schema.into());
    if !name.is_empty() {
        reference.insert("name".into(), name.into());
    }
    let mut e = Mapping::new();
    e.insert("reference".into(), Value::Mapping(reference));
    e.insert("message".into(), message.into());
    Value::Mapping(e)
}

/// Records `wanted` in `package`'s deprecations; one line per change (none: nothing changed).
pub fn deprecate(
    catalog: &mut Catalog,
    package: &str,
    wanted: &[Deprecation],
) -> Result<Vec<String>, CatalogError> {
    let refuse = |message: String| CatalogError::Request {
        bundle: format!("package {package}"),
        field: "deprecate",
        message,
    };
    for d in wanted {
        let (schema, name) = d.what.reference();
        let exists = match &d.what {
            Deprecated::Package => catalog.package(package).is_some(),
            Deprecated::Channel(n) => catalog.channel(package, n).is_some(),
            Deprecated::Bundle(n) => catalog.bundle(package, n).is_some(),
        };
        if !exists {
            return Err(refuse(format!(
                "names {schema} {name}, which package {package} does not have"
            )));
        }
        if d.message.trim().is_empty() {
            return Err(refuse(format!(
                "the deprecation of {schema} {name} has no message"
            )));
        }
    }
    if wanted.is_empty() {
        return Ok(Vec::new());
    }
    let at = catalog
        .others
        .iter()
        .position(|o| o.schema == SCHEMA_DEPRECATIONS && o.package == package);
    let i = match at {
        Some(i) => i,
        None => {
            let mut doc = Mapping::new();
            doc.insert("schema".into(), SCHEMA_DEPRECATIONS.into());
            doc.insert("package".into(), package.into());
            doc.insert("entries".into(), Value::Sequence(Vec::new()));
            catalog.others.push(OtherDoc {
                schema: SCHEMA_DEPRECATIONS.into(),
                package: package.into(),
                doc: Value::Mapping(doc),
                origin: Origin::new(write::package_file(package)?, 0),
            });
            catalog.others.len() - 1
        }
    };
    let doc = &mut catalog.others[i].doc;
    if !doc.get("entries").is_some_and(Value::is_sequence) {
        doc["entries"] = Value::Sequence(Vec::new());
    }
    let Some(Value::Sequence(entries)) = doc.get_mut("entries") else {
        return Err(CatalogError::Internal("deprecations entries".into()));
    };
    let mut lines = Vec::new();
    for d in wanted {
        let (schema, name) = d.what.reference();
        let shown = if name.is_empty() {
            format!("package {package}")
        } else {
            format!("{schema} {name}")
        };
        match entries
            .iter_mut()
            .find(|e| reference_of(e) == (schema, name))
        {
            Some(e) if e.get("message").and_then(Value::as_str) == Some(d.message.as_str()) => {}
            Some(e) => {
                e["message"] = d.message.as_str().into();
                lines.push(format!(
                    "catalog: the deprecation of {shown} has a new message"
                ));
            }
            None => {
                entries.push(entry_value(schema, name, &d.message));
                lines.push(format!("catalog: {shown} is deprecated: {}", d.message));
            }
        }
    }
    Ok(lines)
}
