//! What `registry show NS/PKG RELEASE` prints about a release's bundle: its package, each
//! channel's chain from the head back through `replaces` (and where it breaks), its CSVs and
//! its CRDs, as text or as JSON.

use serde::Serialize;

use olm_release_appregistry::ReleaseInfo;
use olm_release_olm::{Bundle, graph};

/// A release's bundle, as `show` prints it.
#[derive(Debug, Serialize)]
pub(super) struct BundleView {
    package: String,
    release: ReleaseInfo,
    package_name: String,
    default_channel: Option<String>,
    channels: Vec<ChannelView>,
    csvs: Vec<CsvView>,
    crds: Vec<String>,
}

#[derive(Debug, Serialize)]
struct ChannelView {
    name: String,
    head: String,
    /// Head first, back through `replaces`.
    chain: Vec<String>,
    broken: Option<String>,
}

#[derive(Debug, Serialize)]
struct CsvView {
    name: String,
    version: Option<String>,
    replaces: Option<String>,
}

impl BundleView {
    pub(super) fn new(ns: &str, pkg: &str, info: &ReleaseInfo, b: &Bundle) -> Self {
        BundleView {
            package: format!("{ns}/{pkg}"),
            release: info.clone(),
            package_name: b.package.package_name.clone(),
            default_channel: b.package.default_channel.clone(),
            channels: b
                .package
                .channels
                .iter()
                .map(|c| {
                    let (chain, broken) = graph::walk(b, &c.current_csv);
                    ChannelView {
                        name: c.name.clone(),
                        head: c.current_csv.clone(),
                        chain,
                        broken: broken.map(|x| match x {
                            graph::Broken::Missing(n) => format!("{n} is not in the bundle"),
                            graph::Broken::Cycle(n) => format!("cycle at {n}"),
                        }),
                    }
                })
                .collect(),
            csvs: b
                .csvs
                .iter()
                .map(|c| CsvView {
                    name: c.name().unwrap_or("(unnamed)").to_string(),
                    version: c.spec_version().map(str::to_string),
                    replaces: c.replaces().map(str::to_string),
                })
                .collect(),
            crds: b
                .crds
                .iter()
                .map(|c| c.name().unwrap_or("(unnamed)").to_string())
                .collect(),
        }
    }

    pub(super) fn text(&self, at: &str) -> String {
        let mut s = format!(
            "{} {} at {at}\n  digest sha256:{}, {} bytes\n  package {}",
            self.package,
            self.release.release,
            self.release.digest,
            self.release.size,
            self.package_name
        );
        if let Some(d) = &self.default_channel {
            s.push_str(&format!(" (default channel {d})"));
        }
        s.push('\n');
        for c in &self.channels {
            s.push_str(&format!(
                "  channel {}: head {}\n    chain {}",
                c.name,
                c.head,
                c.chain.join(" -> ")
            ));
            if let Some(b) = &c.broken {
                s.push_str(&format!(" (broken: {b})"));
            }
            s.push('\n');
        }
        for c in &self.csvs {
            s.push_str(&format!(
                "  csv {} version {} replaces {}\n",
                c.name,
                c.version.as_deref().unwrap_or("-"),
                c.replaces.as_deref().unwrap_or("-")
            ));
        }
        for c in &self.crds {
            s.push_str(&format!("  crd {c}\n"));
        }
        s
    }
}
