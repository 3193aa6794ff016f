//! The channels an `olm.semver` template generates (operator-registry
//! `alpha/template/semver/semver.go`, `generateChannels` and `linkChannels`): per archetype and
//! kind, `<archetype>-v<X>.<Y>` (minor) and/or `<archetype>-v<X>` (major) channels; each
//! Y-stream's highest bundle replaces the previous Y-stream's highest and skips every earlier
//! bundle since the last major version; the default channel is the most stable archetype's,
//! then the highest version's, then the preferred kind's.

use std::collections::{BTreeMap, BTreeSet};

use crate::fbc::model::*;

/// The archetypes, least stable first.
pub(crate) const ARCHETYPES: [&str; 3] = ["candidate", "fast", "stable"];

/// Major or minor channels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Kind {
    Major = 1,
    Minor = 2,
}

/// Which channels a semver template generates, and which kind is the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Generate {
    /// `generateMajorChannels`.
    pub(crate) major: bool,
    /// `generateMinorChannels`.
    pub(crate) minor: bool,
    /// `defaultChannelTypePreference`.
    pub(crate) prefer: Kind,
}

impl Generate {
    /// The generated channels, sorted by name, and the default channel.
    pub(crate) fn channels(
        &self,
        package: &str,
        versions: &[BTreeMap<String, semver::Version>; 3],
    ) -> (Vec<ChannelDoc>, String) {
        struct Tuple {
            arch: usize,
            kind: Kind,
            channel: String,
            name: String,
            version: semver::Version,
            index: usize,
        }
        let mut channels: BTreeMap<String, ChannelDoc> = BTreeMap::new();
        let mut tuples: Vec<Tuple> = Vec::new();
        // The "high-water" channel: most stable archetype, then highest version, then the kind.
        let mut best: Option<(usize, semver::Version, Option<Kind>, String)> = None;
        let mut kinds = Vec::new();
        if self.major {
            kinds.push(Kind::Major);
        }
        if self.minor {
            kinds.push(Kind::Minor);
        }
        for (arch, bundles) in versions.iter().enumerate() {
            let mut names: Vec<(&String, &semver::Version)> = bundles.iter().collect();
            names.sort_by(|a, b| a.1.cmp(b.1));
            for (name, v) in names {
                for &kind in &kinds {
                    let channel = match kind {
                        Kind::Major => format!("{}-v{}", ARCHETYPES[arch], v.major),
                        Kind::Minor => format!("{}-v{}.{}", ARCHETYPES[arch], v.major, v.minor),
                    };
                    let doc = channels.entry(channel.clone()).or_insert_with(|| {
                        let candidate = (arch, v.clone(), Some(kind), channel.clone());
                        if best.as_ref().is_none_or(|b| self.higher(&candidate, b)) {
                            best = Some(candidate);
                        }
                        ChannelDoc {
                            package: package.into(),
                            name: channel.clone(),
                            ..ChannelDoc::default()
                        }
                    });
                    doc.entries.push(Entry::new(name.clone(), None));
                    tuples.push(Tuple {
                        arch,
                        kind,
                        channel,
                        name: name.clone(),
                        version: v.clone(),
                        index: doc.entries.len() - 1,
                    });
                }
            }
        }
        tuples.sort_by(|a, b| (a.arch, a.kind, &a.version).cmp(&(b.arch, b.kind, &b.version)));
        let minor_of = |v: &semver::Version| (v.major, v.minor);
        let mut prev_z_max: Option<String> = None;
        let mut skips: BTreeSet<String> = BTreeSet::new();
        let link = |t: &Tuple,
                    replaces: &Option<String>,
                    skips: &BTreeSet<String>,
                    channels: &mut BTreeMap<String, ChannelDoc>| {
            if let Some(c) = channels.get_mut(&t.channel) {
                let e = &mut c.entries[t.index];
                e.replaces = replaces.clone();
                e.skips = skips
                    .iter()
                    .filter(|s| Some(*s) != replaces.as_ref())
                    .cloned()
                    .collect();
            }
        };
        for i in 1..tuples.len() {
            let (prev, cur) = (&tuples[i - 1], &tuples[i]);
            let series = cur.arch != prev.arch
                || cur.kind != prev.kind
                || cur.version.major != prev.version.major;
            let y_change = minor_of(&cur.version) != minor_of(&prev.version);
            if series || y_change {
                link(prev, &prev_z_max, &skips, &mut channels);
            }
            if series {
                skips.clear();
                prev_z_max = None;
            } else {
                if y_change {
                    prev_z_max = Some(prev.name.clone());
                }
                skips.insert(prev.name.clone());
            }
        }
        if let [.., prev, last] = tuples.as_slice()
            && last.arch == prev.arch
            && last.kind == prev.kind
            && last.version.major == prev.version.major
        {
            link(last, &prev_z_max, &skips, &mut channels);
        }
        let default = best.map(|b| b.3).unwrap_or_default();
        (channels.into_values().collect(), default)
    }

    fn higher(
        &self,
        a: &(usize, semver::Version, Option<Kind>, String),
        b: &(usize, semver::Version, Option<Kind>, String),
    ) -> bool {
        if a.0 != b.0 {
            return a.0 > b.0;
        }
        if a.1 != b.1 {
            return a.1 > b.1;
        }
        if a.2 != b.2 {
            if a.2 == Some(self.prefer) {
                return true;
            }
            if b.2 == Some(self.prefer) {
                return false;
            }
            return a.2 > b.2;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// operator-registry's `TestGenerateChannels` (alpha/template/semver/semver_test.go): the
    /// same versions give the same channels, entries and edges.
    #[test]
    fn channels_as_opm_generates_them() {
        let names = [
            "0.1.0",
            "0.1.1",
            "1.1.0",
            "1.2.1",
            "1.3.1",
            "2.1.0",
            "1.3.1-beta",
            "2.1.1",
            "2.3.1",
            "2.3.2",
            "3.1.0",
            "3.1.1",
            "1.3.1-alpha",
            "1.4.1",
            "1.4.1-beta1",
            "1.4.1-beta2",
        ];
        let mut stable = BTreeMap::new();
        for v in names {
            stable.insert(format!("a-v{v}"), semver::Version::parse(v).unwrap());
        }
        let versions = [BTreeMap::new(), BTreeMap::new(), stable];
        let template = |major: bool, minor: bool| Generate {
            major,
            minor,
            prefer: if minor { Kind::Minor } else { Kind::Major },
        };
        let shown = |channels: Vec<ChannelDoc>| -> Vec<String> {
            channels
                .iter()
                .flat_map(|c| {
                    c.entries.iter().map(move |e| {
                        format!(
                            "{} {} <{}> [{}]",
                            c.name,
                            e.name,
                            e.replaces.as_deref().unwrap_or(""),
                            e.skips.join(",")
                        )
                    })
                })
                .collect()
        };
        let (major, default) = template(true, false).channels("a", &versions);
        assert_eq!(default, "stable-v3");
        assert_eq!(
            shown(major),
            [
                "stable-v0 a-v0.1.0 <> []",
                "stable-v0 a-v0.1.1 <> [a-v0.1.0]",
                "stable-v1 a-v1.1.0 <> []",
                "stable-v1 a-v1.2.1 <a-v1.1.0> []",
                "stable-v1 a-v1.3.1-alpha <> []",
                "stable-v1 a-v1.3.1-beta <> []",
                "stable-v1 a-v1.3.1 <a-v1.2.1> [a-v1.1.0,a-v1.3.1-alpha,a-v1.3.1-beta]",
                "stable-v1 a-v1.4.1-beta1 <> []",
                "stable-v1 a-v1.4.1-beta2 <> []",
                "stable-v1 a-v1.4.1 <a-v1.3.1> [a-v1.1.0,a-v1.2.1,a-v1.3.1-alpha,a-v1.3.1-beta,a-v1.4.1-beta1,a-v1.4.1-beta2]",
                "stable-v2 a-v2.1.0 <> []",
                "stable-v2 a-v2.1.1 <> [a-v2.1.0]",
                "stable-v2 a-v2.3.1 <> []",
                "stable-v2 a-v2.3.2 <a-v2.1.1> [a-v2.1.0,a-v2.3.1]",
                "stable-v3 a-v3.1.0 <> []",
                "stable-v3 a-v3.1.1 <> [a-v3.1.0]",
            ]
        );
        let (minor, default) = template(false, true).channels("a", &versions);
        assert_eq!(default, "stable-v3.1");
        let minor = shown(minor);
        assert!(
            minor.contains(&"stable-v1.2 a-v1.2.1 <a-v1.1.0> []".to_string()),
            "{minor:?}"
        );
        assert!(
            minor.contains(&"stable-v2.3 a-v2.3.2 <a-v2.1.1> [a-v2.1.0,a-v2.3.1]".to_string()),
            "{minor:?}"
        );
        assert!(
            minor.contains(&"stable-v1.1 a-v1.1.0 <> []".to_string()),
            "{minor:?}"
        );
        let (both, default) = template(true, true).channels("a", &versions);
        assert_eq!(
            default, "stable-v3.1",
            "minor is preferred when both are generated"
        );
        assert_eq!(both.len(), 12);
    }
}
