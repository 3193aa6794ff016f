//! Migrating a package from the app registry to bundle images and a file-based catalog, as pure
//! functions (what `opm migrate` does for a SQLite index, done here for an app-registry release).
//!
//! The input is the package's cumulative bundle — its highest release, which holds the package
//! file and every CSV and CRD published so far (the 2019 path carries them forward). [`plan`]
//! splits it into one registry+v1 bundle per CSV that some channel reaches ([`BundleContents`]:
//! that CSV, the CRDs it owns, the package, the channels it is in, the default channel) and
//! the release model those channels form ([`plan_with_releases`] takes each bundle's CRDs from
//! the release that introduced its CSV). Once each bundle image is pushed, [`catalog`] writes
//! the catalog that keeps exactly that upgrade graph: per channel, one entry per CSV the
//! registry serves in it, with the CSV's own `replaces`, `skips` and `olm.skipRange`. A CSV no
//! channel reaches cannot be listed in a catalog (every bundle needs an entry); it is left out
//! and named. Sources: olm-docs "file-based-catalogs"; operator-registry `alpha/declcfg`,
//! `alpha/model` and `alpha/action/migrate.go`.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_yaml_ng::Value;

use super::entry::{BundleSource, ObjectStyle, bundle_entry};
use super::error::CatalogError;
use super::head::heads;
use super::model::*;
use super::properties::owned_crds;
use super::release_model::ReleaseModel;
use crate::graph::{Broken, Graph};
use crate::{Bundle, Manifest, value_at};

/// What one bundle image of the migration holds.
#[derive(Debug, Clone, PartialEq)]
pub struct BundleContents {
    /// The package's name (the package file's `packageName`).
    pub package: String,
    /// The CSV, as the cumulative bundle carries it.
    pub csv: Manifest,
    /// The CRDs the CSV owns, as the cumulative bundle carries them (shared between the bundles
    /// that own the same CRD: a long history's CSVs mostly do).
    pub crds: Vec<Arc<Manifest>>,
    /// The channels that serve this CSV, in the package file's order.
    pub channels: Vec<String>,
    /// The package's default channel (which may be none of this bundle's channels).
    pub default_channel: Option<String>,
}

impl BundleContents {
    /// What its registry+v1 bundle image is built from: the channels that serve it, the
    /// package's default channel when it is one of them, the CSV and its CRDs.
    pub fn input(&self) -> crate::bundle_image::BundleInput {
        use crate::bundle_image::{BundleInput, BundleSpec};
        BundleInput {
            spec: BundleSpec {
                package: self.package.clone(),
                channels: self.channels.clone(),
                default_channel: self
                    .default_channel
                    .clone()
                    .filter(|d| self.channels.contains(d)),
            },
            csv: self.csv.clone(),
            objects: self.objects(),
            metadata: Default::default(),
        }
    }

    /// Its CRDs, as the bundle image's other manifests.
    pub fn objects(&self) -> Vec<Manifest> {
        self.crds.iter().map(|c| Manifest::clone(c)).collect()
    }

    /// The CSV's `metadata.name` (empty when it has none).
    pub fn name(&self) -> &str {
        self.csv.name().unwrap_or_default()
    }

    /// The CSV's `spec.version` (empty when it has none).
    pub fn version(&self) -> &str {
        self.csv.spec_version().unwrap_or_default()
    }
}

/// The migration of one package.
#[derive(Debug, Clone, PartialEq)]
pub struct Migration {
    /// The package's name (the package file's `packageName`).
    pub package: String,
    /// One per CSV some channel serves, oldest version first.
    pub bundles: Vec<BundleContents>,
    /// The upgrade graph the app registry serves, which the catalog keeps.
    pub model: ReleaseModel,
    /// CSVs of the release that no channel reaches (not migrated).
    pub left_out: Vec<String>,
    /// The icon of the default channel's head, for the `olm.package` document.
    pub icon: Option<Icon>,
    /// The CSVs whose CRDs a release gave already ([`Migration::adopt_crds`]).
    adopted: std::collections::BTreeSet<String>,
}

/// Splits the cumulative `bundle` into per-CSV bundles and its release model.
pub fn plan(bundle: &Bundle) -> Result<Migration, CatalogError> {
    plan_owned(bundle.clone())
}

/// [`plan`] of a bundle given away: its CSVs move into the per-CSV bundles and its CRDs are
/// shared between them, so a long history is held once.
pub fn plan_owned(bundle: Bundle) -> Result<Migration, CatalogError> {
    let (contents, mut migration) = plan_parts(&bundle)?;
    // The newest CSV's CRDs are the cumulative bundle's own.
    if let Some(newest) = bundle.csvs.iter().max_by_key(|c| c.semver()) {
        migration
            .adopted
            .insert(newest.name().unwrap_or_default().to_string());
    }
    let mut csvs: Vec<Option<Manifest>> = bundle.csvs.into_iter().map(Some).collect();
    let pool: Vec<Arc<Manifest>> = bundle.crds.into_iter().map(Arc::new).collect();
    // Each index once (the keys of a map), so every CSV is there to take.
    let mut bundles: Vec<BundleContents> = contents
        .into_iter()
        .filter_map(|(i, channels)| {
            let csv = csvs[i].take()?;
            let crds = owned_crds(&csv, &pool);
            Some(BundleContents {
                package: migration.package.clone(),
                csv,
                crds,
                channels,
                default_channel: migration.model.default_channel.clone(),
            })
        })
        .collect();
    bundles.sort_by_key(|a| a.csv.semver());
    Ok(Migration {
        bundles,
        ..migration
    })
}

/// The CSVs to migrate: each one's index in `bundle.csvs` and its channels.
type Planned = Vec<(usize, Vec<String>)>;

/// The CSVs to migrate and the migration without its bundles.
fn plan_parts(bundle: &Bundle) -> Result<(Planned, Migration), CatalogError> {
    let package = bundle.package.package_name.clone();
    let fail = |message: String| CatalogError::Migration {
        package: package.clone(),
        message,
    };
    if package.is_empty() {
        return Err(fail("the package file has no packageName".into()));
    }
    if bundle.package.channels.is_empty() {
        return Err(fail("the package file lists no channel".into()));
    }
    let model = ReleaseModel::from_bundle(bundle);
    let default = match &model.default_channel {
        None => {
            return Err(fail(
                "the package has several channels and no defaultChannel; set one in the package file"
                    .into(),
            ));
        }
        Some(d) if !model.channels.contains_key(d) => {
            return Err(fail(format!(
                "defaultChannel {d} is not a channel of the package"
            )));
        }
        Some(d) => d.clone(),
    };
    let g = Graph::new(bundle);
    let mut seen = std::collections::HashSet::new();
    for csv in &bundle.csvs {
        let name = csv.name().unwrap_or_default();
        if name.is_empty() || !seen.insert(name) {
            return Err(fail(format!(
                "CSV {} in {} has no name or a name used twice",
                name, csv.file
            )));
        }
    }
    let mut channels_of: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for ch in &bundle.package.channels {
        let chain = g.walk(&ch.current_csv);
        match &chain.broken {
            Some(Broken::Missing(m)) if chain.members.is_empty() => {
                return Err(fail(format!(
                    "channel {} names head {m}, which is not in the release",
                    ch.name
                )));
            }
            Some(Broken::Cycle(c)) => {
                let names: Vec<&str> = chain.members.iter().map(|&i| g.name(i)).collect();
                return Err(fail(format!(
                    "the replaces chain of channel {} loops: {} -> {c}",
                    ch.name,
                    names.join(" -> ")
                )));
            }
            _ => {} // a tail replacing a CSV that is not there is allowed
        }
        for i in g.channel_content(&chain) {
            channels_of.entry(i).or_default().push(ch.name.clone());
        }
    }
    for (name, c) in &model.channels {
        let doc = ChannelDoc {
            package: package.clone(),
            name: name.clone(),
            entries: c
                .entries
                .iter()
                .map(|(n, e)| Entry {
                    name: n.clone(),
                    replaces: e.replaces.clone(),
                    skips: e.skips.iter().cloned().collect(),
                    ..Entry::default()
                })
                .collect(),
            ..ChannelDoc::default()
        };
        let found = heads(&doc);
        if found != [c.heads[0].as_str()] {
            return Err(fail(format!(
                "channel {name} has head {} in the app registry, but its CSVs' replaces and skips make {} the head(s) of a catalog channel",
                c.heads[0],
                found.join(", ")
            )));
        }
    }
    let mut contents = Vec::new();
    for (&i, channels) in &channels_of {
        if g.csv(i).semver().is_none() {
            return Err(fail(format!("{} has no SemVer spec.version", g.name(i))));
        }
        contents.push((i, channels.clone()));
    }
    let left_out = (0..g.len())
        .filter(|i| !channels_of.contains_key(i))
        .map(|i| g.name(i).to_string())
        .collect();
    let head = &model.channels[&default].heads[0];
    let icon = bundle.csv(head).and_then(icon_of);
    let migration = Migration {
        package,
        bundles: Vec::new(),
        model,
        left_out,
        icon,
        adopted: Default::default(),
    };
    Ok((contents, migration))
}

/// [`plan`], with each bundle's CRDs taken from the release that introduced its CSV (the
/// release whose newest CSV it is) when `releases` holds it: the cumulative bundle carries only
/// the newest copy of each CRD, and an older CSV's bundle image should hold the CRDs it was
/// released with. `releases` are every release of the package, in any order.
pub fn plan_with_releases(
    cumulative: &Bundle,
    releases: &[Bundle],
) -> Result<Migration, CatalogError> {
    let mut m = plan(cumulative)?;
    for release in releases {
        m.adopt_crds(release);
    }
    Ok(m)
}

impl Migration {
    /// Gives the bundle of the CSV `release` introduced (its newest) the CRDs that release
    /// carried, when it carried any the CSV owns; the first release given for a CSV decides
    /// (give them newest first). Releases can be read one at a time and dropped after this.
    pub fn adopt_crds(&mut self, release: &Bundle) {
        let Some(newest) = release.csvs.iter().max_by_key(|c| c.semver()) else {
            return;
        };
        let name = newest.name().unwrap_or_default();
        if !self.adopted.insert(name.to_string()) {
            return;
        }
        let Some(contents) = self.bundles.iter_mut().find(|b| b.name() == name) else {
            return;
        };
        let crds = owned_crds(&contents.csv, &release.crds);
        if crds.is_empty() {
            return;
        }
        // Keep the shared copy when the release's is the same.
        contents.crds = crds
            .into_iter()
            .map(|c| {
                contents
                    .crds
                    .iter()
                    .find(|have| ***have == c)
                    .cloned()
                    .unwrap_or_else(|| Arc::new(c))
            })
            .collect();
    }
}

/// The first icon of a CSV (`spec.icon[0]`), for a package document.
pub(crate) fn icon_of(csv: &Manifest) -> Option<Icon> {
    let first = value_at(&csv.doc, "spec.icon")?.as_sequence()?.first()?;
    let get = |k: &str| first.get(k).and_then(Value::as_str).map(str::to_string);
    Some(Icon {
        base64data: get("base64data")?,
        mediatype: get("mediatype")?,
    })
}

/// The catalog of the migrated package, given each bundle's pushed image (CSV name → image
/// reference by digest): each entry as `opm render` writes it for that image, its manifests as
/// `style` says (the same shape as a published release's entry).
pub fn catalog(
    migration: &Migration,
    images: &BTreeMap<String, String>,
    style: ObjectStyle,
) -> Result<Catalog, CatalogError> {
    let m = migration;
    let mut catalog = Catalog::default();
    catalog.packages.push(PackageDoc {
        name: m.package.clone(),
        default_channel: m.model.default_channel.clone(),
        icon: m.icon.clone(),
        ..PackageDoc::default()
    });
    for (name, c) in &m.model.channels {
        let entries = c
            .entries
            .iter()
            .map(|(n, e)| Entry {
                name: n.clone(),
                replaces: e.replaces.clone(),
                skips: e.skips.iter().cloned().collect(),
                skip_range: e.skip_range.clone(),
                ..Entry::default()
            })
            .collect();
        catalog.channels.push(ChannelDoc {
            package: m.package.clone(),
            name: name.clone(),
            entries,
            ..ChannelDoc::default()
        });
    }
    for b in &m.bundles {
        let image = images
            .get(b.name())
            .ok_or_else(|| CatalogError::MissingImage {
                package: m.package.clone(),
                csv: b.name().into(),
            })?;
        if !super::add::is_pinned(image) {
            return Err(CatalogError::ImageNotByDigest {
                bundle: b.name().into(),
                image: image.clone(),
            });
        }
        catalog.bundles.push(bundle_entry(&BundleSource {
            package: &m.package,
            image,
            csv: &b.csv,
            objects: &b.objects(),
            dependencies: &[],
            properties: &[],
            style,
        })?);
    }
    Ok(catalog)
}
