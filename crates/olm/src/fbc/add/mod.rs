//! Adding a release's bundle to a catalog: the catalog stage's one operation, as a pure
//! function on the model (plain request in, typed outcome out; the caller reads and writes).
//!
//! The bundle goes in by image digest with its `olm.package` property; in every channel it
//! joins, its entry carries the CSV's own `replaces`, `skips` and `skipRange` as written, and
//! `replaces` the channel's head where the CSV names none ([`edges`] has the rule, and the
//! conflicts it refuses). A missing channel is created. `defaultChannel` is the one the release
//! names (the pipeline's `default_channel`), else the app-registry path's rule: a package's
//! implicit default (its only channel) stays the default when a channel is added. A package's
//! first entry writes its `olm.package` document with the CSV's icon and description, as
//! `opm init --icon --description` writes them.
//!
//! Safe to re-run: the same bundle with the same image is a no-op (the same file bytes); the
//! same bundle with another image is refused unless forced; a bundle older than a channel's
//! head, or a second bundle with the same version, is refused. Every decision is taken before
//! the model changes, so a refused request leaves the catalog as it was.

mod edges;
mod outcome;

pub use outcome::{AddOutcome, BundleChange, DefaultChange, EntryChange};

use super::entry::{BundleSource, ObjectStyle, bundle_entry};
use super::error::CatalogError;
use super::migrate::icon_of;
use super::model::*;
use super::properties;
use super::write;
use crate::Manifest;
use crate::validate::text::Range;

/// What to add.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AddBundle {
    /// The package the bundle belongs to (the `package` of its documents).
    pub package: String,
    /// The bundle name: the CSV's `metadata.name`.
    pub name: String,
    /// The CSV's `spec.version`.
    pub version: String,
    /// The bundle image, pinned by digest (`NAME@sha256:<hex>`).
    pub image: String,
    /// The entry's properties, in the order written ([`super::entry::bundle_entry`]'s). When they
    /// hold no `olm.package`, `add` writes one first from `package` and `version`; one that names
    /// another package or version is refused.
    pub properties: Vec<Property>,
    /// The entry's `relatedImages`.
    pub related_images: Vec<RelatedImage>,
    /// The channels it joins (at least one).
    pub channels: Vec<String>,
    /// Make this the package's default channel (else the rule above decides).
    pub default_channel: Option<String>,
    /// The CSV's `spec.replaces`: what its entries replace where it fits the channel; `None`:
    /// each channel's head ([`edges`] has the rule).
    pub replaces: Option<String>,
    /// The entries' `skips` (the CSV's `spec.skips`), as written; an entry that replaces a
    /// channel's head in place of `replaces` leaves that head out.
    pub skips: Vec<String>,
    /// The entries' `skipRange` (the CSV's `olm.skipRange` annotation); it must parse as a range.
    pub skip_range: Option<String>,
    /// The icon of the package's `olm.package` document when this is its first entry (the CSV's
    /// `spec.icon[0]`).
    pub icon: Option<Icon>,
    /// The description of the package's `olm.package` document when this is its first entry
    /// (the CSV's `spec.description`, or a file the pipeline names).
    pub description: Option<String>,
    /// Replace a bundle of the same name that has another image, or rewrite its entries.
    pub force: bool,
}

impl AddBundle {
    /// The request for the bundle `src` describes: its entry as `opm render` writes it
    /// ([`super::entry::bundle_entry`]), the CSV's name and version, its `spec.replaces`,
    /// `spec.skips` and `olm.skipRange` annotation, and its icon and description for a first
    /// entry's package document.
    pub fn from_source(src: &BundleSource, channels: &[String]) -> Result<Self, CatalogError> {
        let entry = bundle_entry(src)?;
        Ok(AddBundle {
            package: entry.package,
            name: entry.name,
            version: src.csv.spec_version().unwrap_or_default().into(),
            image: entry.image,
            properties: entry.properties,
            related_images: entry.related_images,
            channels: channels.to_vec(),
            skips: crate::graph::skips_of(src.csv)
                .into_iter()
                .map(str::to_string)
                .collect(),
            skip_range: properties::skip_range(src.csv).map(str::to_string),
            replaces: src.csv.replaces().map(str::to_string),
            icon: icon_of(src.csv),
            description: crate::value_at(&src.csv.doc, "spec.description")
                .and_then(serde_yaml_ng::Value::as_str)
                .filter(|d| !d.is_empty())
                .map(str::to_string),
            ..AddBundle::default()
        })
    }

    /// The request for the bundle image holding `csv` and `crds` (no other manifests, no
    /// metadata files), with the default entry style.
    pub fn from_csv(
        package: &str,
        csv: &Manifest,
        crds: &[Manifest],
        image: &str,
        channels: &[String],
    ) -> Result<Self, CatalogError> {
        AddBundle::from_source(
            &BundleSource {
                package,
                image,
                csv,
                objects: crds,
                dependencies: &[],
                properties: &[],
                style: ObjectStyle::default(),
            },
            channels,
        )
    }
}

/// Is `image` `NAME@sha256:<64 lowercase hex>`?
pub(crate) fn is_pinned(image: &str) -> bool {
    image.rsplit_once("@sha256:").is_some_and(|(name, hex)| {
        !name.is_empty()
            && hex.len() == 64
            && hex
                .bytes()
                .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
    })
}

fn check_request(req: &AddBundle) -> Result<semver::Version, CatalogError> {
    let bad = |field, message: &str| CatalogError::Request {
        bundle: if req.name.is_empty() {
            "a bundle".into()
        } else {
            req.name.clone()
        },
        field,
        message: message.into(),
    };
    if req.package.is_empty() {
        return Err(bad("package", "is empty"));
    }
    if req.name.is_empty() {
        return Err(bad("name", "is empty (the CSV's metadata.name)"));
    }
    let version = semver::Version::parse(&req.version)
        .map_err(|e| bad("version", &format!("{:?} is not SemVer: {e}", req.version)))?;
    if req.channels.is_empty() || req.channels.iter().any(String::is_empty) {
        return Err(bad(
            "channels",
            "must name at least one channel, none empty",
        ));
    }
    if let Some(dup) = req
        .channels
        .iter()
        .enumerate()
        .find_map(|(i, c)| req.channels[..i].contains(c).then_some(c))
    {
        return Err(bad("channels", &format!("name {dup} twice")));
    }
    let packages: Vec<&Property> = req
        .properties
        .iter()
        .filter(|p| p.type_ == PROPERTY_PACKAGE)
        .collect();
    match packages.as_slice() {
        [] => {}
        [p] => {
            let named = p.as_package();
            if named
                .as_ref()
                .map(|n| (n.package_name.as_str(), n.version.as_str()))
                != Some((req.package.as_str(), req.version.as_str()))
            {
                return Err(CatalogError::PackageMismatch {
                    bundle: req.name.clone(),
                    package: req.package.clone(),
                    version: req.version.clone(),
                    from: "its entry's properties".into(),
                    named: named
                        .map(|n| format!("{} {}", n.package_name, n.version))
                        .unwrap_or_else(|| "no string packageName and version".into()),
                });
            }
        }
        _ => return Err(bad("properties", "hold more than one olm.package")),
    }
    if !is_pinned(&req.image) {
        return Err(CatalogError::ImageNotByDigest {
            bundle: req.name.clone(),
            image: req.image.clone(),
        });
    }
    if let Some(r) = &req.skip_range {
        Range::parse(r).map_err(|message| CatalogError::SkipRange {
            bundle: req.name.clone(),
            range: r.clone(),
            message,
        })?;
    }
    Ok(version)
}

/// The document this request adds.
pub(crate) fn bundle_doc(req: &AddBundle) -> BundleDoc {
    let mut properties = Vec::with_capacity(req.properties.len() + 1);
    if !req.properties.iter().any(|p| p.type_ == PROPERTY_PACKAGE) {
        properties.push(Property::package(&req.package, &req.version));
    }
    properties.extend(req.properties.iter().cloned());
    BundleDoc {
        package: req.package.clone(),
        name: req.name.clone(),
        image: req.image.clone(),
        properties,
        related_images: req.related_images.clone(),
        ..BundleDoc::default()
    }
}

/// Adds the bundle of `req` to `catalog` (see the module doc for the rules).
pub fn add(catalog: &mut Catalog, req: &AddBundle) -> Result<AddOutcome, CatalogError> {
    let version = check_request(req)?;
    let pkg = req.package.as_str();
    if let Some(d) = &req.default_channel
        && !req.channels.contains(d)
        && catalog.channel(pkg, d).is_none()
    {
        return Err(CatalogError::Request {
            bundle: req.name.clone(),
            field: "default_channel",
            message: format!(
                "names {d}, which is neither a channel of package {pkg} nor one this bundle joins"
            ),
        });
    }
    // Documents this adds are attributed to the file they will be written to.
    let origin = Origin::new(write::package_file(pkg)?, 0);
    // The bundle document.
    let existing = catalog
        .bundles
        .iter()
        .position(|b| b.package == pkg && b.name == req.name);
    let change = match existing.map(|i| &catalog.bundles[i]) {
        Some(b) if b.image == req.image => BundleChange::Unchanged,
        Some(b) if req.force => BundleChange::Replaced {
            old_image: b.image.clone(),
        },
        Some(b) => {
            return Err(CatalogError::ImageConflict {
                package: pkg.into(),
                bundle: req.name.clone(),
                existing: b.image.clone(),
                requested: req.image.clone(),
            });
        }
        None => BundleChange::Added,
    };
    if let Some(other) = catalog
        .bundles_of(pkg)
        .find(|b| b.name != req.name && b.version().as_ref() == Some(&version))
    {
        return Err(CatalogError::DuplicateVersion {
            package: pkg.into(),
            version: req.version.clone(),
            existing: other.name.clone(),
            requested: req.name.clone(),
        });
    }
    // The entries, channel by channel ([`edges`]); an entry already there is compared with what
    // the request asks in the channel as it was without it, so a rerun finds the same edges.
    let mut entries: Vec<(String, EntryChange, Option<Entry>)> = Vec::new();
    for ch in &req.channels {
        let Some(doc) = catalog.channel(pkg, ch) else {
            let e = edges::entry_in(catalog, &ChannelDoc::default(), req, &version)?;
            let change = EntryChange::ChannelCreated {
                replaces: e.replaces.clone(),
            };
            entries.push((ch.clone(), change, Some(e)));
            continue;
        };
        if let Some(have) = doc.entry(&req.name) {
            let without = ChannelDoc {
                entries: doc
                    .entries
                    .iter()
                    .filter(|e| e.name != req.name)
                    .cloned()
                    .collect(),
                ..doc.clone()
            };
            let wanted =
                edges::entry_in(catalog, &without, req, &version).unwrap_or_else(|_| Entry {
                    name: req.name.clone(),
                    replaces: req.replaces.clone().or_else(|| have.replaces.clone()),
                    skips: req.skips.clone(),
                    skip_range: req.skip_range.clone(),
                    ..Entry::default()
                });
            let asked = Entry {
                extra: have.extra.clone(),
                ..wanted
            };
            if *have == asked {
                entries.push((ch.clone(), EntryChange::Unchanged, None));
            } else if req.force {
                entries.push((ch.clone(), EntryChange::Rewritten, Some(asked)));
            } else {
                return Err(CatalogError::EntryConflict {
                    package: pkg.into(),
                    channel: ch.clone(),
                    bundle: req.name.clone(),
                    existing: describe(have),
                    requested: describe(&asked),
                });
            }
            continue;
        }
        let e = edges::entry_in(catalog, doc, req, &version)?;
        let change = EntryChange::Added {
            replaces: e.replaces.clone(),
        };
        entries.push((ch.clone(), change, Some(e)));
    }
    let default_change = default_channel(catalog, req);

    // Every decision is taken: change the model.
    match (&change, existing) {
        (BundleChange::Added, _) => catalog.bundles.push(BundleDoc {
            origin: origin.clone(),
            ..bundle_doc(req)
        }),
        (BundleChange::Replaced { .. }, Some(i)) => {
            let origin = catalog.bundles[i].origin.clone();
            catalog.bundles[i] = BundleDoc {
                origin,
                ..bundle_doc(req)
            };
        }
        _ => {}
    }
    for (ch, _, entry) in &entries {
        let Some(entry) = entry else { continue };
        match catalog
            .channels
            .iter_mut()
            .find(|c| c.package == pkg && c.name == *ch)
        {
            Some(doc) => match doc.entries.iter_mut().find(|e| e.name == entry.name) {
                Some(e) => *e = entry.clone(),
                None => doc.entries.push(entry.clone()),
            },
            None => catalog.channels.push(ChannelDoc {
                package: pkg.into(),
                name: ch.clone(),
                entries: vec![entry.clone()],
                origin: origin.clone(),
                ..ChannelDoc::default()
            }),
        }
    }
    if let DefaultChange::Set { to, .. } = &default_change {
        match catalog.packages.iter_mut().find(|p| p.name == pkg) {
            Some(p) => p.default_channel = Some(to.clone()),
            None => catalog.packages.push(PackageDoc {
                name: pkg.into(),
                default_channel: Some(to.clone()),
                icon: req.icon.clone(),
                description: req.description.clone(),
                origin: origin.clone(),
                ..PackageDoc::default()
            }),
        }
    }
    Ok(AddOutcome {
        package: pkg.into(),
        bundle: req.name.clone(),
        image: req.image.clone(),
        change,
        channels: entries.into_iter().map(|(c, ch, _)| (c, ch)).collect(),
        default_channel: default_change,
    })
}

fn describe(e: &Entry) -> String {
    let mut parts = vec![match &e.replaces {
        Some(r) => format!("replaces {r}"),
        None => "no replaces".into(),
    }];
    if !e.skips.is_empty() {
        parts.push(format!("skips [{}]", e.skips.join(", ")));
    }
    if let Some(r) = &e.skip_range {
        parts.push(format!("skipRange {r:?}"));
    }
    parts.join(", ")
}

/// The default channel after the request: the named one; else the package's; else, when the
/// package had exactly one channel, that one (the implicit default stays the default); else
/// the request's first channel for a package that had none.
fn default_channel(catalog: &Catalog, req: &AddBundle) -> DefaultChange {
    let pkg = catalog.package(&req.package);
    let current = pkg.and_then(|p| p.default_channel.clone());
    let set = |to: &str, why| DefaultChange::Set {
        from: current.clone(),
        to: to.into(),
        why,
    };
    if let Some(d) = &req.default_channel {
        return if current.as_deref() == Some(d) {
            DefaultChange::Unchanged
        } else {
            set(d, "named by the release")
        };
    }
    if current.is_some() {
        return DefaultChange::Unchanged;
    }
    let before: Vec<&str> = catalog
        .channels_of(&req.package)
        .map(|c| c.name.as_str())
        .collect();
    match before.as_slice() {
        [] => set(&req.channels[0], "the package's first channel"),
        [only] => set(only, "the package's only channel so far stays its default"),
        _ => DefaultChange::Unchanged, // several channels and no default: validation says so
    }
}
