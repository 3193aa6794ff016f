//! A release's bundle before its channels are chosen: the CSV, its CRDs and other objects, the
//! bundle folder's metadata and the package's default channel. Labelled with channels it becomes
//! the registry+v1 folder ([`ReleaseBundle::labelled`]). A version published before was labelled
//! with the channels of the release that first published it, in that release's order:
//! [`ReleaseBundle::labels_of`] finds which, by building the image of each arrangement in memory
//! and comparing digests (a file-based catalog takes a bundle's channels from its own channel
//! entries, not from the image, so such an image can be kept).

use super::error::BundleImageError;
use super::folder::{BundleFolder, BundleInput, BundleSpec};
use super::image::build_image;
use super::metadata::BundleMetadata;
use crate::Manifest;

/// The most channels whose labellings are tried (with 4: 64 arrangements, each image built in
/// memory in about a millisecond for a small bundle).
pub const MAX_LABELLED: usize = 4;

/// A release's bundle, not yet labelled with channels.
#[derive(Debug, Clone)]
pub struct ReleaseBundle {
    /// The OLM package.
    pub package: String,
    /// The package's default channel; the folder names it only when it is one of its channels
    /// (else the folder's first channel, as [`BundleFolder::build`] does).
    pub default_channel: Option<String>,
    /// The CSV.
    pub csv: Manifest,
    /// Its CRDs, then the bundle folder's other objects (RBAC, ConfigMaps, …).
    pub objects: Vec<Manifest>,
    /// The dependencies and properties files, the other annotations and the scorecard tests.
    pub metadata: BundleMetadata,
}

impl ReleaseBundle {
    /// The registry+v1 bundle folder labelled with `channels` (and the default channel when it
    /// is one of them).
    pub fn labelled(&self, channels: &[String]) -> Result<BundleFolder, BundleImageError> {
        let default_channel = self
            .default_channel
            .clone()
            .filter(|d| channels.contains(d));
        BundleFolder::build(&BundleInput {
            spec: BundleSpec {
                package: self.package.clone(),
                channels: channels.to_vec(),
                default_channel,
            },
            csv: self.csv.clone(),
            objects: self.objects.clone(),
            metadata: self.metadata.clone(),
        })
    }

    /// Which channels this bundle was labelled with when it was built as the image `existing`
    /// (its digest) at `epoch`: a non-empty arrangement of the release's channels, then the
    /// package's others (at most [`MAX_LABELLED`] names); `None` when no labelling gives that
    /// digest (the content differs).
    pub fn labels_of(
        &self,
        release_channels: &[String],
        package_channels: &[String],
        epoch: u64,
        existing: &str,
    ) -> Result<Option<Vec<String>>, BundleImageError> {
        let mut names: Vec<String> = release_channels.to_vec();
        for c in package_channels {
            if !names.contains(c) {
                names.push(c.clone());
            }
        }
        names.truncate(MAX_LABELLED);
        let mut found = None;
        arrangements(&names, &mut Vec::new(), &mut |labels| {
            let folder = self.labelled(labels)?;
            if build_image(&folder, epoch)?.digest() == existing {
                found = Some(labels.to_vec());
            }
            Ok(found.is_some())
        })?;
        Ok(found)
    }
}

/// Calls `visit` with every non-empty ordered arrangement of `names` (prefixes first) until it
/// returns `true`.
fn arrangements(
    names: &[String],
    prefix: &mut Vec<String>,
    visit: &mut dyn FnMut(&[String]) -> Result<bool, BundleImageError>,
) -> Result<bool, BundleImageError> {
    for n in names {
        if prefix.contains(n) {
            continue;
        }
        prefix.push(n.clone());
        if visit(prefix)? || arrangements(names, prefix, visit)? {
            return Ok(true);
        }
        prefix.pop();
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(all: &[&str]) -> Vec<String> {
        all.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn arrangements_come_prefixes_first_and_stop_when_told() {
        let mut seen = Vec::new();
        arrangements(&names(&["a", "b"]), &mut Vec::new(), &mut |l| {
            seen.push(l.join(","));
            Ok(false)
        })
        .unwrap();
        assert_eq!(seen, ["a", "a,b", "b", "b,a"]);
        let mut count = 0;
        let stopped = arrangements(&names(&["a", "b", "c"]), &mut Vec::new(), &mut |l| {
            count += 1;
            Ok(l == ["a", "b"])
        })
        .unwrap();
        assert!(stopped);
        assert_eq!(count, 2);
    }

    fn bundle() -> ReleaseBundle {
        let csv = serde_yaml_ng::from_str(
            "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: widget.v1.0.0\nspec:\n  version: 1.0.0\n",
        )
        .unwrap();
        ReleaseBundle {
            package: "widget".into(),
            default_channel: Some("stable".into()),
            csv: Manifest::new("widget.clusterserviceversion.yaml", csv),
            objects: Vec::new(),
            metadata: BundleMetadata::default(),
        }
    }

    #[test]
    fn the_default_channel_is_named_only_among_the_channels_else_the_first() {
        let b = bundle();
        let annotations = |f: &BundleFolder| {
            f.files()
                .iter()
                .find(|(p, _)| p.ends_with("annotations.yaml"))
                .map(|(_, bytes)| String::from_utf8_lossy(bytes).into_owned())
                .unwrap_or_default()
        };
        let with = annotations(&b.labelled(&names(&["stable", "fast"])).unwrap());
        assert!(with.contains("channel.default.v1: stable"), "{with}");
        let without = annotations(&b.labelled(&names(&["fast"])).unwrap());
        // Not among them: the folder falls back to its first channel.
        assert!(without.contains("channel.default.v1: fast"), "{without}");
    }

    #[test]
    fn the_labels_of_an_image_are_found_from_its_digest() {
        let b = bundle();
        let first = build_image(&b.labelled(&names(&["fast", "stable"])).unwrap(), 0).unwrap();
        let found = b
            .labels_of(
                &names(&["stable"]),
                &names(&["fast", "stable"]),
                0,
                first.digest(),
            )
            .unwrap();
        assert_eq!(found, Some(names(&["fast", "stable"])));
        let found = b
            .labels_of(&names(&["stable"]), &names(&["stable"]), 0, first.digest())
            .unwrap();
        assert_eq!(
            found, None,
            "no arrangement of 'stable' alone gives that image"
        );
    }
}
