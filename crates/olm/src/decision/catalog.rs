//! The decision against a file-based catalog, for a pipeline that publishes only the modern
//! way (bundle image → catalog, no app registry): the published heads are the catalog's
//! ([`fbc::channel_heads`], operator-registry's rule). The CSV in the bundle image then says
//! what the catalog entry says: operator-sdk and `opm` users set both, and tools and people
//! read `spec.replaces` from the CSV.
//!
//! The heads become a skeleton of the "previous bundle" ([`skeleton`]) that [`decide`] takes,
//! so the decision is the app-registry path's, unchanged: above every head → `spec.replaces` =
//! the first channel's head and `spec.skips` += the other channels' heads; the new CSV is
//! already the head → the same version again (its edges rebuilt from the catalog entry, so the
//! rerun builds the same image); below a head → refused, or skipped by `catalog.older`; no head
//! → a first release. Nothing is carried: a registry+v1 bundle holds one CSV, so the bundle
//! keeps only the new CSV and its own CRDs.

use super::{
    Decided, Decision, DecisionError, OlderPolicy, Published, ReadFrom, decide, first,
    first_package, set_skips,
};
use crate::fbc::{self, ChannelHead};
use crate::{Bundle, Channel, Manifest, PackageManifest};

/// The catalog as the executor read it for the release.
#[derive(Debug, Clone, Copy)]
pub struct CatalogRead<'a> {
    /// The catalog folder as the pipeline names it (in messages).
    pub shown: &'a str,
    /// The folder does not exist yet.
    pub fresh: bool,
    /// The package read.
    pub package: &'a str,
    /// The heads of the release's channels it has ([`fbc::channel_heads`]).
    pub heads: &'a [ChannelHead],
}

/// Decides the rendered bundle (new CSV first) of a release to `channels` against the
/// catalog's heads. The bundle returned is the rendered one with the edges decided: nothing
/// of the catalog is carried.
pub fn decide_from_catalog(
    mut rendered: Bundle,
    channels: &[String],
    catalog: CatalogRead<'_>,
    older: OlderPolicy,
) -> Result<Decided, DecisionError> {
    let CatalogRead {
        shown,
        fresh,
        package,
        heads,
    } = catalog;
    if heads.is_empty() {
        let reason = if fresh {
            format!("the catalog {shown} does not exist yet")
        } else {
            format!(
                "the catalog {shown} has no channel '{}' of package {package}",
                channels.join("', '")
            )
        };
        return Ok(first(rendered, channels, reason));
    }
    // The highest head plays the app registry's "highest release" in the decision's words.
    let highest = heads
        .iter()
        .filter_map(|f| f.head.version.clone())
        .max()
        .map(|v| v.to_string())
        .unwrap_or_default();
    let published = Published {
        bundle: skeleton(package, &rendered.csvs[0], heads),
        release: &highest,
        releases: Vec::new(),
        from: ReadFrom::Catalog(shown),
    };
    let Decided {
        bundle: decided,
        decision,
        mut notes,
    } = decide(rendered.clone(), channels, published, older)?;
    // Nothing is carried: the new CSV (with the edges decided) and its own CRDs and package.
    if let Some(csv) = decided.csvs.into_iter().next() {
        rendered.csvs[0] = csv;
    }
    if !matches!(decision, Decision::SkipOlder { .. }) {
        let name = rendered.csvs[0].name().unwrap_or("the new CSV").to_string();
        notes.extend(first_package(&mut rendered.package, channels, &name));
    }
    Ok(Decided {
        bundle: rendered,
        decision,
        notes,
    })
}

/// The "previous bundle" the decision reads: a package file of `package` with each channel's
/// head, and a CSV per head with its version and edges. When the new CSV is itself a head (a
/// rerun), its CSV is the rendered one with the edges of its catalog entry, which is what the
/// first run put in the image (`catalog.skips` are in both: render adds them to the CSV's
/// `spec.skips`).
pub fn skeleton(package: &str, new: &Manifest, heads: &[ChannelHead]) -> Bundle {
    let mut csvs: Vec<Manifest> = Vec::new();
    for f in heads {
        if csvs.iter().any(|c| c.name() == Some(f.head.name.as_str())) {
            continue;
        }
        let mut csv = if new.name() == Some(f.head.name.as_str()) {
            new.clone()
        } else {
            head_csv(&f.head)
        };
        csv.set_replaces(f.head.replaces.as_deref());
        set_skips(&mut csv, &f.skips);
        csvs.push(csv);
    }
    Bundle {
        package: PackageManifest {
            package_name: package.to_string(),
            channels: heads
                .iter()
                .map(|f| Channel {
                    name: f.channel.clone(),
                    current_csv: f.head.name.clone(),
                })
                .collect(),
            default_channel: None,
        },
        csvs,
        crds: Vec::new(),
    }
}

/// The CSV a head found only in the catalog stands for: its name and, when its bundle is in
/// the catalog, the version of its `olm.package` property.
fn head_csv(head: &fbc::Head) -> Manifest {
    let mut doc = serde_yaml_ng::Mapping::new();
    doc.insert("kind".into(), "ClusterServiceVersion".into());
    let mut meta = serde_yaml_ng::Mapping::new();
    meta.insert("name".into(), head.name.clone().into());
    doc.insert("metadata".into(), meta.into());
    let mut spec = serde_yaml_ng::Mapping::new();
    if let Some(v) = &head.version {
        spec.insert("version".into(), v.to_string().into());
    }
    doc.insert("spec".into(), spec.into());
    Manifest::new(format!("{}.csv.yaml", head.name), doc.into())
}

#[cfg(test)]
mod tests;
