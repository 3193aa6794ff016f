//! A release applied to a parsed catalog: the catalog stage's one domain operation, and the
//! question whether a catalog already holds a release.
//!
//! [`apply`] builds the add request from the release (its entry as `opm render` writes it, the
//! pipeline's `skips`, `skipRange` and `--force`) and adds it the way the pipeline keeps its
//! catalog: plainly ([`super::add`], then [`super::deprecate`]), or through a catalog template
//! (`olm.template.basic` or `olm.semver`, olm-docs "catalog-templates"), whose new text is
//! returned for the caller to write. [`holds`] answers from the parsed catalog whether it lists
//! a release: its bundle by image reference, and the bundle's entry in every channel it joins.
//! Plain data in, typed results out; the caller reads the files and writes them.

use super::add::{AddBundle, DefaultChange, add};
use super::deprecate::{Deprecation, deprecate};
use super::entry::BundleSource;
use super::error::CatalogError;
use super::model::Catalog;
use super::template;

/// A release as the catalog stage adds it.
#[derive(Debug, Clone)]
pub struct Release<'a> {
    /// The bundle: package, image by digest, CSV, manifests and metadata.
    pub source: BundleSource<'a>,
    /// Every channel the release joins, the first one first.
    pub channels: &'a [String],
    /// `spec.skips` beyond the CSV's own (`catalog.skips`).
    pub skips: &'a [String],
    /// The entries' `skipRange` (`catalog.skip_range`), replacing the CSV's.
    pub skip_range: Option<&'a str>,
    /// What the release deprecates (`catalog.deprecate`).
    pub deprecate: &'a [Deprecation],
    /// Replace a bundle of the same name listed with another image (`--force`).
    pub force: bool,
    /// The pipeline's `default_channel`: the package's `defaultChannel` after the release (it
    /// wins over the catalog's own; a catalog template chooses its own, as opm renders it).
    pub default_channel: Option<&'a str>,
}

/// How the catalog is kept.
#[derive(Debug, Clone, Copy)]
pub enum Kept<'a> {
    /// The catalog's documents themselves.
    Plain,
    /// Rendered from the catalog template `file`, whose text is `text`.
    Template {
        /// The template file, as messages name it.
        file: &'a str,
        /// Its text.
        text: &'a str,
    },
}

/// What applying a release did.
#[derive(Debug, Clone)]
pub struct Applied {
    /// The add request built from the release (its name, version and image name the change).
    pub request: AddBundle,
    /// What changed, one line each, for people.
    pub lines: Vec<String>,
    /// The template's new text, when it changed (`None`: plain, or a rerun).
    pub template: Option<String>,
    /// What a reviewer should know about the package's `defaultChannel`: the catalog's changed
    /// to the pipeline's, or a template that renders another.
    pub notes: Vec<String>,
}

/// Applies `release` to `catalog` (the package's part of a catalog folder, as read), kept as
/// `kept` says. A refused request leaves `catalog` as it was.
pub fn apply(
    catalog: &mut Catalog,
    release: &Release,
    kept: Kept,
) -> Result<Applied, CatalogError> {
    let mut request = AddBundle::from_source(&release.source, release.channels)?;
    for s in release.skips {
        if !request.skips.contains(s) {
            request.skips.push(s.clone());
        }
    }
    if let Some(r) = release.skip_range {
        request.skip_range = Some(r.to_string());
    }
    request.force = release.force;
    request.default_channel = release.default_channel.map(str::to_string);
    let package = release.source.package;
    let mut notes = Vec::new();
    let (lines, template) = match kept {
        Kept::Plain => {
            let outcome = add(catalog, &request)?;
            if let DefaultChange::Set {
                from: Some(from),
                to,
                ..
            } = &outcome.default_channel
            {
                notes.push(format!(
                    "the catalog's defaultChannel of {package} changes from {from} to {to}, the pipeline's default_channel"
                ));
            }
            let mut lines = outcome.lines();
            lines.extend(deprecate(catalog, package, release.deprecate)?);
            (lines, None)
        }
        Kept::Template { file, text } => {
            let with = template::Release::new(&request, release.deprecate, release.source.csv);
            let r = template::release_text(file, text, catalog, &with)?;
            // A semver template chooses its default channel as opm renders it; say so when the
            // pipeline names another.
            let rendered = catalog
                .package(package)
                .and_then(|p| p.default_channel.as_deref());
            if let Some(d) = release.default_channel.filter(|d| Some(*d) != rendered) {
                notes.push(format!(
                    "the catalog template {file} renders defaultChannel {}, not the pipeline's default_channel {d}; set it in the template",
                    rendered.unwrap_or("(none)")
                ));
            }
            (r.lines, r.text)
        }
    };
    Ok(Applied {
        request,
        lines,
        template,
        notes,
    })
}

/// Whether `catalog` holds the release `request` adds: a bundle of its package and name
/// listing its image, and the bundle's entry in each of its channels.
pub fn holds(catalog: &Catalog, request: &AddBundle) -> bool {
    let listed = catalog
        .bundle(&request.package, &request.name)
        .is_some_and(|b| b.image == request.image);
    listed
        && request.channels.iter().all(|c| {
            catalog
                .channel(&request.package, c)
                .is_some_and(|ch| ch.entry(&request.name).is_some())
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fbc::ObjectStyle;
    use crate::testing::csv;

    const IMAGE: &str =
        "quay.io/op/bundle@sha256:1111111111111111111111111111111111111111111111111111111111111111";

    fn release<'a>(
        csv: &'a crate::Manifest,
        channels: &'a [String],
        skips: &'a [String],
    ) -> Release<'a> {
        Release {
            source: BundleSource {
                package: "op",
                image: IMAGE,
                csv,
                objects: &[],
                dependencies: &[],
                properties: &[],
                style: ObjectStyle::default(),
            },
            channels,
            skips,
            skip_range: Some(">=0.0.1 <0.2.0"),
            deprecate: &[],
            force: false,
            default_channel: None,
        }
    }

    #[test]
    fn a_plain_catalog_gains_the_entry_with_the_pipelines_skips_and_range() {
        let csv = csv("0.2.0", None);
        let channels = vec!["alpha".to_string()];
        let skips = vec!["op.v0.0.9".to_string()];
        let mut catalog = Catalog::default();
        let applied = apply(&mut catalog, &release(&csv, &channels, &skips), Kept::Plain).unwrap();
        assert_eq!(applied.request.name, "op.v0.2.0");
        assert_eq!(applied.request.skips, skips);
        assert_eq!(
            applied.request.skip_range.as_deref(),
            Some(">=0.0.1 <0.2.0")
        );
        assert!(applied.template.is_none() && !applied.lines.is_empty());
        let entry = catalog.channel("op", "alpha").unwrap().entry("op.v0.2.0");
        assert_eq!(entry.unwrap().skips, skips);
        assert!(holds(&catalog, &applied.request));
    }

    #[test]
    fn a_second_application_changes_nothing() {
        let csv = csv("0.2.0", None);
        let channels = vec!["alpha".to_string()];
        let mut catalog = Catalog::default();
        let r = release(&csv, &channels, &[]);
        apply(&mut catalog, &r, Kept::Plain).unwrap();
        let before = catalog.clone();
        apply(&mut catalog, &r, Kept::Plain).unwrap();
        assert_eq!(catalog, before);
    }

    #[test]
    fn a_template_is_released_and_its_new_text_returned() {
        let csv = csv("0.2.0", None);
        let channels = vec!["alpha".to_string()];
        let mut catalog = Catalog::default();
        let text = "schema: olm.template.basic\nentries:\n- schema: olm.package\n  name: op\n  defaultChannel: alpha\n";
        let kept = Kept::Template {
            file: "template.yaml",
            text,
        };
        let applied = apply(&mut catalog, &release(&csv, &channels, &[]), kept).unwrap();
        let new = applied.template.expect("the template changed");
        assert!(new.contains(IMAGE), "{new}");
        assert!(holds(&catalog, &applied.request));
    }

    #[test]
    fn a_template_of_another_schema_is_refused() {
        let csv = csv("0.2.0", None);
        let channels = vec!["alpha".to_string()];
        let kept = Kept::Template {
            file: "t.yaml",
            text: "schema: olm.other\n",
        };
        let mut catalog = Catalog::default();
        let e = apply(&mut catalog, &release(&csv, &channels, &[]), kept).unwrap_err();
        assert!(e.to_string().contains("olm.other"), "{e}");
        assert_eq!(catalog, Catalog::default());
    }

    #[test]
    fn a_catalog_listing_another_image_or_missing_a_channel_does_not_hold_it() {
        let csv = csv("0.2.0", None);
        let channels = vec!["alpha".to_string(), "beta".to_string()];
        let mut catalog = Catalog::default();
        let applied = apply(
            &mut catalog,
            &release(&csv, &channels[..1], &[]),
            Kept::Plain,
        )
        .unwrap();
        let mut both = applied.request.clone();
        both.channels = channels.clone();
        assert!(!holds(&catalog, &both), "no entry in beta");
        let mut other = applied.request.clone();
        other.image = other.image.replace("1111", "2222");
        assert!(!holds(&catalog, &other), "another image");
        assert!(!holds(&Catalog::default(), &applied.request));
    }

    #[test]
    fn a_catalog_read_from_files_holds_the_release_its_files_list() {
        let csv = csv("0.2.0", None);
        let channels = vec!["alpha".to_string()];
        let mut catalog = Catalog::default();
        let applied = apply(&mut catalog, &release(&csv, &channels, &[]), Kept::Plain).unwrap();
        let mut files: Vec<(String, Vec<u8>)> = crate::fbc::write::render(&catalog)
            .unwrap()
            .into_iter()
            .map(|(path, text)| (path, text.into_bytes()))
            .collect();
        files.push(("README.md".into(), b"# not: [a catalog".to_vec()));
        files.push((".hidden/x.yaml".into(), b"{ broken".to_vec()));
        let read = crate::fbc::parse::catalog_of(&files).unwrap();
        assert!(holds(&read, &applied.request));
        files.push(("broken.yaml".into(), b"{ broken".to_vec()));
        assert!(crate::fbc::parse::catalog_of(&files).is_err());
    }
}
