//! A package's catalog, built in memory from its version bundles: every version in SemVer
//! order, its entry as the catalog stage builds it (`opm render`'s), in each channel its
//! annotations name, with the CSV's own `replaces`, `skips` and `olm.skipRange`
//! ([`follow_template`]), then, where the package has a catalog template, the channels as the
//! template has them.
//!
//! Following a template: the maintainers' template lists the community pipeline's images, not
//! the ones this import builds, so its bundles are matched by name or version. An
//! `olm.template.basic` template's `olm.package`, `olm.channel` and `olm.deprecations` documents
//! are the catalog's as written (operator-registry `alpha/template/basic`: the template's
//! entries are the catalog's documents), its channel entries keeping only the bundles the folder
//! has, with every version's `olm.bundle` entry from the import. An `olm.semver` template's
//! images are matched by their tag (the community pipeline tags each bundle image with its
//! version), replaced by the imported ones, and the template rendered by
//! [`crate::fbc::template`]. One pass over the versions: linear in their number.

use std::collections::{BTreeMap, BTreeSet};

use serde_yaml_ng::Value;

use super::model::{CommunityPackage, VersionBundle};
use super::top::TemplateFile;
use crate::fbc::add::bundle_doc;
use crate::fbc::entry::metadata_properties;
use crate::fbc::error::CatalogError;
use crate::fbc::model::{Catalog, ChannelDoc, Entry, Origin, PackageDoc};
use crate::fbc::parse::add_doc;
use crate::fbc::template::{self, Template};
use crate::fbc::{AddBundle, BundleSource, ObjectStyle};

/// What the import did to the catalog.
#[derive(Debug, Clone, Default)]
pub struct Followed {
    /// What changed, one line each, for people.
    pub lines: Vec<String>,
    /// The bundles the template lists that no version folder holds (left out of the catalog).
    pub left_out: Vec<String>,
    /// The versions no channel of the template lists (left out of the catalog: a catalog lists
    /// only bundles in a channel).
    pub unlisted: Vec<String>,
    /// The last version's add request (a store that finds its target moved checks it).
    pub last: Option<AddBundle>,
}

/// Builds the package's part of `catalog` (the catalog as read) from every version of `pkg`,
/// each listing the image `images` names for its CSV, then follows the package's template. The
/// part replaces what the catalog had for the package (its `olm.deprecations` kept), so a rerun
/// over the catalog it wrote changes nothing.
///
/// Each version's entry is the catalog stage's ([`AddBundle::from_source`]: as `opm render`
/// writes it) in every channel its annotations name, with the CSV's own `replaces`, `skips`
/// and `olm.skipRange` as written; a CSV naming no `replaces` replaces the channel's newest
/// entry so far (as the catalog stage fills it, leaving it out of `skips`). The edges are not
/// checked against the channel's head one version at a time: a history holds patch releases of
/// older lines published after newer ones (gitlab-operator-kubernetes 2.10.2 after 2.11.0), so
/// the whole catalog is validated once, by the caller, with the rules of `opm validate`. A
/// package whose `ci.yaml` says `updateGraph: semver-mode` (or `semver-skippatch-mode`) had its
/// graph built by `opm index add --mode semver`, which orders each channel by version and
/// ignores the CSVs' `replaces`: there each entry replaces the channel's previous version.
pub fn follow_template(
    catalog: &mut Catalog,
    pkg: &CommunityPackage,
    images: &BTreeMap<String, String>,
    style: ObjectStyle,
) -> Result<Followed, CatalogError> {
    let mut out = Followed::default();
    let semver_mode = pkg.semver_mode();
    let origin = Origin::new(crate::fbc::write::package_file(&pkg.package)?, 0);
    let mut part = Catalog::default();
    let mut package = PackageDoc {
        name: pkg.package.clone(),
        origin: origin.clone(),
        ..PackageDoc::default()
    };
    for v in &pkg.versions {
        let Some(image) = images.get(v.name()) else {
            continue;
        };
        let (dependencies, properties) = metadata_properties(&v.metadata)?;
        let src = source(pkg, v, image, &dependencies, &properties, style);
        let req = AddBundle::from_source(&src, &v.channels)?;
        let mut bundle = bundle_doc(&req);
        bundle.origin = origin.clone();
        part.bundles.push(bundle);
        for name in &v.channels {
            let at = match part.channels.iter().position(|c| c.name == *name) {
                Some(i) => i,
                None => {
                    part.channels.push(ChannelDoc {
                        package: pkg.package.clone(),
                        name: name.clone(),
                        origin: origin.clone(),
                        ..ChannelDoc::default()
                    });
                    part.channels.len() - 1
                }
            };
            let channel = &mut part.channels[at];
            let head = channel.entries.last().map(|e| e.name.clone());
            let own = req.replaces.clone().filter(|_| !semver_mode);
            let replaces = own.clone().or(head);
            let mut skips = req.skips.clone();
            if own.is_none() {
                skips.retain(|s| Some(s) != replaces.as_ref());
            }
            channel.entries.push(Entry {
                name: req.name.clone(),
                replaces,
                skips,
                skip_range: req.skip_range.clone(),
                ..Entry::default()
            });
        }
        // The newest bundle's default channel wins, as opm adds bundles one at a time.
        if let Some(d) = &v.default_channel
            && part.channels.iter().any(|c| c.name == *d)
        {
            package.default_channel = Some(d.clone());
        }
        if req.icon.is_some() {
            package.icon = req.icon.clone();
        }
        if req.description.is_some() {
            package.description = req.description.clone();
        }
        out.last = Some(req);
    }
    if package.default_channel.is_none() {
        package.default_channel = part.channels.first().map(|c| c.name.clone());
    }
    out.lines.push(format!(
        "catalog: {} in {}",
        olm_release_base::words::count(part.bundles.len(), "bundle"),
        olm_release_base::words::count(part.channels.len(), "channel")
    ));
    part.packages.push(package);
    part.others = catalog
        .others
        .iter()
        .filter(|o| o.package == pkg.package)
        .cloned()
        .collect();
    catalog.replace_package_all(&pkg.package, part);
    let Some(t) = pkg.template() else {
        return Ok(out);
    };
    match template::parse(&t.path(), &t.text)? {
        Template::Basic(_) => basic(catalog, pkg, t, &mut out)?,
        Template::Semver(_) => semver(catalog, pkg, t, images, style, &mut out)?,
    }
    Ok(out)
}

fn source<'a>(
    pkg: &'a CommunityPackage,
    v: &'a VersionBundle,
    image: &'a str,
    dependencies: &'a [crate::fbc::model::Property],
    properties: &'a [crate::fbc::model::Property],
    style: ObjectStyle,
) -> BundleSource<'a> {
    BundleSource {
        package: &pkg.package,
        image,
        csv: &v.csv,
        objects: &v.objects,
        dependencies,
        properties,
        style,
    }
}

/// A basic template's package, channels and deprecations, with the imported bundles.
fn basic(
    catalog: &mut Catalog,
    pkg: &CommunityPackage,
    t: &TemplateFile,
    out: &mut Followed,
) -> Result<(), CatalogError> {
    let file = t.path();
    let doc: Value = serde_yaml_ng::from_str(&t.text)
        .map_err(|e| template::err(&file, format!("not YAML: {e}")))?;
    let have: BTreeSet<&str> = pkg.versions.iter().map(VersionBundle::name).collect();
    let mut part = Catalog::default();
    let entries = doc.get("entries").and_then(Value::as_sequence);
    for (i, mut entry) in entries.into_iter().flatten().cloned().enumerate() {
        let schema = entry
            .get("schema")
            .and_then(Value::as_str)
            .unwrap_or_default();
        match schema {
            "olm.bundle" => continue,
            "olm.channel" => {
                if let Some(Value::Sequence(list)) = entry.get_mut("entries") {
                    list.retain(|e| {
                        let name = e.get("name").and_then(Value::as_str).unwrap_or_default();
                        let kept = have.contains(name);
                        if !kept && !out.left_out.iter().any(|n| n == name) {
                            out.left_out.push(name.to_string());
                        }
                        kept
                    });
                }
            }
            _ => {}
        }
        add_doc(&mut part, entry, Origin::new(&file, i))?;
    }
    part.channels
        .retain(|c| c.package == pkg.package && !c.entries.is_empty());
    let listed: BTreeSet<&str> = part
        .channels
        .iter()
        .flat_map(|c| c.entries.iter().map(|e| e.name.as_str()))
        .collect();
    for v in &pkg.versions {
        if !listed.contains(v.name()) {
            out.unlisted.push(v.name().to_string());
        }
    }
    part.bundles = catalog
        .bundles
        .iter()
        .filter(|b| b.package == pkg.package && listed.contains(b.name.as_str()))
        .cloned()
        .collect();
    if part.packages.is_empty() {
        part.packages = catalog
            .packages
            .iter()
            .filter(|p| p.name == pkg.package)
            .cloned()
            .collect();
    }
    catalog.replace_package_all(&pkg.package, part);
    out.lines.push(format!("catalog: the channels of {file}"));
    Ok(())
}

/// The version an image's tag names (`…:1.2.3` or `…:v1.2.3`), if any.
fn tagged_version(image: &str) -> Option<semver::Version> {
    if image.contains('@') {
        return None;
    }
    let (_, tag) = image.rsplit_once(':')?;
    semver::Version::parse(tag.strip_prefix('v').unwrap_or(tag)).ok()
}

/// A semver template with the imported images in place of the ones it lists, rendered.
fn semver(
    catalog: &mut Catalog,
    pkg: &CommunityPackage,
    t: &TemplateFile,
    images: &BTreeMap<String, String>,
    style: ObjectStyle,
    out: &mut Followed,
) -> Result<(), CatalogError> {
    let file = t.path();
    let mut doc: Value = serde_yaml_ng::from_str(&t.text)
        .map_err(|e| template::err(&file, format!("not YAML: {e}")))?;
    let by_version: BTreeMap<&semver::Version, &VersionBundle> =
        pkg.versions.iter().map(|v| (&v.version, v)).collect();
    // (archetype, version) of every image kept.
    let mut listed: Vec<(String, &VersionBundle)> = Vec::new();
    let Value::Mapping(top) = &mut doc else {
        return Err(template::err(&file, "is not a mapping"));
    };
    for (k, arch) in top.iter_mut() {
        let name = k.as_str().unwrap_or_default().to_ascii_lowercase();
        if !["candidate", "fast", "stable"].contains(&name.as_str()) {
            continue;
        }
        let Value::Mapping(arch) = arch else { continue };
        for (bk, list) in arch.iter_mut() {
            if !bk
                .as_str()
                .is_some_and(|b| b.eq_ignore_ascii_case("bundles"))
            {
                continue;
            }
            let Value::Sequence(items) = list else {
                continue;
            };
            items.retain_mut(|item| {
                let Value::Mapping(m) = item else {
                    return false;
                };
                let Some((_, img)) = m
                    .iter_mut()
                    .find(|(k, _)| k.as_str().is_some_and(|k| k.eq_ignore_ascii_case("image")))
                else {
                    return false;
                };
                let shown = img.as_str().unwrap_or_default().to_string();
                let found = tagged_version(&shown)
                    .and_then(|v| by_version.get(&v).copied())
                    .and_then(|v| Some((v, images.get(v.name())?)));
                match found {
                    Some((v, ours)) => {
                        *img = Value::from(ours.clone());
                        listed.push((name.clone(), v));
                        true
                    }
                    None => {
                        out.left_out.push(shown);
                        false
                    }
                }
            });
        }
    }
    let Some((_, newest)) = listed.iter().max_by_key(|(_, v)| &v.version) else {
        return Err(template::err(
            &file,
            "lists no bundle image tagged with the version of a version folder",
        ));
    };
    let newest = *newest;
    for v in &pkg.versions {
        if !listed.iter().any(|(_, l)| l.name() == v.name()) {
            out.unlisted.push(v.name().to_string());
        }
    }
    let channels: Vec<String> = listed
        .iter()
        .filter(|(_, v)| v.name() == newest.name())
        .map(|(a, _)| a.clone())
        .collect();
    let text = olm_release_base::yaml::to_string(&doc);
    let image = images.get(newest.name()).cloned().unwrap_or_default();
    let (dependencies, properties) = metadata_properties(&newest.metadata)?;
    let src = source(pkg, newest, &image, &dependencies, &properties, style);
    let request = AddBundle::from_source(&src, &channels)?;
    let release = template::Release::new(&request, &[], &newest.csv);
    let done = template::release_text(&file, &text, catalog, &release)?;
    out.lines.extend(done.lines);
    out.lines.push(format!("catalog: the channels of {file}"));
    Ok(())
}
