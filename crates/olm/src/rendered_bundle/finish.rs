//! The rendered bundle finished once its CSV is assembled: the render checks run on the CSV as
//! rendered ([`render_checks::check`], which may repair a folded descriptor in it), the CSV is
//! written back into its file re-serialised, a CSV file of one document keeps its name in the
//! bundle image, and the package is named the same everywhere ([`check_package`]), before
//! anything is written. The epoch warning (`created-at`) stays only where the CSV holds the
//! release time: asked for, or written by the template's `{{.CreatedAt}}`.

use serde_yaml_ng::Value;

use super::{Found, RenderedFile};
use crate::bundle_image::BundleMetadata;
use crate::bundle_image::names::object_key;
use crate::fbc::CatalogError;
use crate::fbc::entry::check_package;
use crate::render_checks::{self, Wanted};
use crate::{Finding, Manifest, PackageManifest};

/// What the pipeline asks of the finished bundle.
pub struct Finish<'a> {
    /// What it publishes: its package and every channel of the release.
    pub wanted: Wanted<'a>,
    /// The release time, as the CSV's `createdAt` would hold it.
    pub created_at: &'a str,
    /// Whether the pipeline keeps a CSV's own `createdAt` (`render.csv.created_at: keep`).
    pub keep_created_at: bool,
    /// The default channel the pipeline sets in the package file, if any.
    pub default_channel: Option<&'a str>,
}

/// The finished bundle's parts.
pub struct Finished {
    /// The CSV, as written.
    pub csv: Manifest,
    /// The package file, with the pipeline's default channel.
    pub package: PackageManifest,
    /// The CRDs.
    pub crds: Vec<Manifest>,
    /// The other objects.
    pub objects: Vec<Manifest>,
    /// The metadata files, the file names the image keeps, the scorecard tests.
    pub metadata: BundleMetadata,
}

/// Why a rendered bundle cannot be finished.
#[derive(Debug, thiserror::Error)]
pub enum FinishError {
    /// The CSV cannot be written back as YAML.
    #[error("{file}: writing the CSV: {message}")]
    WriteCsv {
        /// Its template.
        file: String,
        /// The serialiser's message.
        message: String,
    },
    /// The package is not named the same everywhere.
    #[error(transparent)]
    Package(Box<CatalogError>),
}

impl From<CatalogError> for FinishError {
    fn from(e: CatalogError) -> Self {
        FinishError::Package(Box::new(e))
    }
}

impl olm_release_base::Classified for FinishError {
    fn class(&self) -> olm_release_base::Class {
        match self {
            FinishError::WriteCsv { .. } => olm_release_base::Class::Stage,
            FinishError::Package(e) => e.class(),
        }
    }
}

/// Finishes the bundle `found` among `files` with its assembled `csv`, adding the render
/// checks' findings to `findings`.
pub fn finish(
    files: &mut [RenderedFile],
    found: Found,
    mut csv: Manifest,
    findings: &mut Vec<Finding>,
    ask: &Finish<'_>,
) -> Result<Finished, FinishError> {
    let holds_release_time = csv.annotation("createdAt") == Some(ask.created_at);
    if ask.keep_created_at && !holds_release_time {
        findings.retain(|f| f.rule != "created-at");
    }
    // The manifests outside the bundle (Subscriptions and other helpers), with their templates.
    let helpers: Vec<(String, Value)> = files
        .iter()
        .filter(|o| !o.in_bundle)
        .flat_map(|o| o.docs.iter().map(|d| (o.template.clone(), d.clone())))
        .collect();
    let (ci, di) = found.csv;
    let csv_out = &mut files[ci];
    findings.extend(render_checks::check(
        render_checks::Rendered {
            csv: &mut csv_out.docs[di],
            csv_template: &csv_out.template,
            csv_template_text: &csv_out.source_text,
            package: &found.package,
            package_file: &found.package_file,
            helpers: &helpers,
        },
        ask.wanted,
    ));
    csv.doc = csv_out.docs[di].clone();
    let mut found = found;
    if csv_out.docs.len() == 1 {
        // The file's own name, which the bundle image keeps (a file of several documents is
        // named after the CSV).
        let own = csv_out.rel.rsplit('/').next().unwrap_or(&csv_out.rel);
        found
            .metadata
            .file_names
            .insert(object_key(&csv), own.to_string());
    }
    csv_out.content = to_yaml(&csv_out.docs, &csv_out.template)?;
    check_package(
        ask.wanted.package,
        &csv,
        &found.metadata,
        found
            .annotated
            .as_ref()
            .map(|(f, n)| (f.as_str(), n.as_str())),
    )?;
    let mut package = found.package;
    if let Some(d) = ask.default_channel {
        package.default_channel = Some(d.to_string());
    }
    Ok(Finished {
        csv,
        package,
        crds: found.crds,
        objects: found.objects,
        metadata: found.metadata,
    })
}

/// The documents of a file as YAML, `---` between them.
fn to_yaml(docs: &[Value], file: &str) -> Result<String, FinishError> {
    let mut out = String::new();
    for (i, d) in docs.iter().enumerate() {
        if i > 0 {
            out.push_str("---\n");
        }
        out.push_str(
            &serde_yaml_ng::to_string(d).map_err(|e| FinishError::WriteCsv {
                file: file.into(),
                message: e.to_string(),
            })?,
        );
    }
    Ok(out)
}
