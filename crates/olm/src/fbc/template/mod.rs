//! Catalog templates, as OperatorHub's catalogs keep them (operator-registry
//! `alpha/template/basic` and `alpha/template/semver`; olm-docs "catalog-templates"): a file that
//! lists a package's bundle images and how they form channels, which `opm alpha render-template`
//! renders into the catalog. A release adds its bundle to the template (basic: its bundle stub and
//! an entry in each channel it joins, replacing the channel head; semver: its image under each
//! channel archetype it joins) and renders it, so the template and the catalog change together.
//!
//! Rendering turns each bundle image into its `olm.bundle` entry. opm pulls the images; olm-release
//! renders the one it publishes and takes every other image's entry from the catalog, where an
//! earlier render put it (an image the catalog does not list is an error naming it: render it
//! once with `opm alpha render-template`). The rendered documents replace the package's part of
//! the catalog.

pub mod basic;
mod channels;
pub mod semver;

use std::path::Path;

use olm_release_base::input;
use serde_yaml_ng::Value;

use super::add::{AddBundle, AddOutcome};
use super::deprecate::Deprecation;
use super::error::CatalogError;
use super::migrate::icon_of;
use super::model::{BundleDoc, Catalog, Icon};
use crate::{Manifest, value_at};

/// A catalog template file, read.
#[derive(Debug, Clone, PartialEq)]
pub enum Template {
    /// `schema: olm.template.basic`.
    Basic(basic::Basic),
    /// `schema: olm.semver`.
    Semver(semver::Semver),
}

/// What a release did to a template and its catalog.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The template's text after the release (the same bytes when nothing changed).
    pub text: String,
    /// The package's documents, rendered: they replace the package's part of the catalog.
    pub catalog: Catalog,
    /// What changed, for people.
    pub lines: Vec<String>,
    /// The channel changes of a basic template ([`super::add`]'s outcome); `None` for semver.
    pub outcome: Option<AddOutcome>,
}

/// What the release brings to a template.
#[derive(Debug, Clone)]
pub struct Release<'a> {
    /// The request the catalog stage built (the entry, its channels and edges).
    pub request: &'a AddBundle,
    /// The release's deprecations.
    pub deprecations: &'a [Deprecation],
    /// The CSV's icon, for a package document the template renders without one.
    pub icon: Option<Icon>,
    /// The CSV's description, likewise.
    pub description: Option<&'a str>,
}

impl<'a> Release<'a> {
    /// The release of `request`, deprecating `deprecations`, whose CSV is `csv` (its icon and
    /// description fill a package document the template renders without them).
    pub fn new(request: &'a AddBundle, deprecations: &'a [Deprecation], csv: &'a Manifest) -> Self {
        Release {
            request,
            deprecations,
            icon: icon_of(csv),
            description: value_at(&csv.doc, "spec.description").and_then(Value::as_str),
        }
    }
}

/// A template file after a release.
#[derive(Debug, Clone)]
pub struct FileRelease {
    /// The template's new text, when it changed (`None`: a rerun, nothing to write).
    pub text: Option<String>,
    /// What changed, for people.
    pub lines: Vec<String>,
}

/// Adds `release` to the template `file` whose text is `text`, and renders it into `catalog`
/// (the package's part of a catalog folder, as read): the package's documents are replaced by
/// the rendering. Nothing is read or written; the caller validates `catalog` and writes it and
/// the template's text.
pub fn release_text(
    file: &str,
    text: &str,
    catalog: &mut Catalog,
    release: &Release,
) -> Result<FileRelease, CatalogError> {
    let mut template = parse(file, text)?;
    let rendered = template.release(catalog, release)?;
    catalog.replace_package_all(&release.request.package, rendered.catalog);
    Ok(FileRelease {
        text: (rendered.text != text).then_some(rendered.text),
        lines: rendered.lines,
    })
}

/// The text of the template file at `path` (an error naming it when it cannot be read).
pub fn read(path: &Path) -> Result<String, CatalogError> {
    input::read_to_string(path, input::MAX_FILE_BYTES)
        .map_err(|e| err(&path.display().to_string(), e.to_string()))
}

pub(crate) fn err(file: &str, message: impl Into<String>) -> CatalogError {
    CatalogError::Template {
        file: file.into(),
        message: message.into(),
    }
}

/// Parses the template `file` from its text.
pub fn parse(file: &str, text: &str) -> Result<Template, CatalogError> {
    let doc: Value = serde_yaml_ng::from_str(text)
        .map_err(|e| err(file, format!("not a YAML or JSON document: {e}")))?;
    let schema = doc
        .as_mapping()
        .and_then(|m| {
            m.iter()
                .find(|(k, _)| k.as_str().is_some_and(|k| k.eq_ignore_ascii_case("schema")))
        })
        .and_then(|(_, v)| v.as_str())
        .unwrap_or_default();
    match schema {
        basic::SCHEMA => basic::Basic::parse(file, doc).map(Template::Basic),
        semver::SCHEMA => semver::Semver::parse(file, doc).map(Template::Semver),
        "" => Err(err(
            file,
            "has no schema; a catalog template is olm.template.basic or olm.semver",
        )),
        other => Err(err(
            file,
            format!(
                "has schema {other}; olm-release renders olm.template.basic and olm.semver templates"
            ),
        )),
    }
}

impl Template {
    /// Adds the release to the template and renders it; `catalog` is the package's part of the
    /// catalog as it is (where the other images' entries come from).
    pub fn release(
        &mut self,
        catalog: &Catalog,
        release: &Release,
    ) -> Result<Rendered, CatalogError> {
        match self {
            Template::Basic(b) => b.release(catalog, release),
            Template::Semver(s) => s.release(catalog, release),
        }
    }
}

/// The entry of `image`: the release's own, or the one the catalog lists.
pub(crate) fn entry_of<'a>(
    file: &str,
    image: &str,
    release: &'a BundleDoc,
    catalog: &'a Catalog,
) -> Result<&'a BundleDoc, CatalogError> {
    if release.image == image {
        return Ok(release);
    }
    catalog.bundles.iter().find(|b| b.image == image).ok_or_else(|| {
        err(
            file,
            format!(
                "lists bundle image {image}, which no entry of the catalog lists; olm-release renders the image it publishes and takes the others' entries from the catalog (render the template once with `opm alpha render-template`, then publish)"
            ),
        )
    })
}
