//! Catalog validation with the rules of `opm validate`: what operator-registry checks when it
//! turns a declarative config into its model (`alpha/declcfg/declcfg_to_model.go`) and
//! validates that model (`alpha/model/model.go`). Every problem is reported at once, as a
//! [`Finding`] naming the file, the document (package, channel or bundle), the field, the
//! package and channel, the head(s) and the edges involved, and how to fix it.
//!
//! Rules: a package has a name; its default channel is set and exists; it has a channel; each
//! channel has an entry; each entry has an `olm.bundle` and each bundle an entry; exactly one
//! head per channel; no `replaces` cycle; no stranded bundle (every entry is on the replaces
//! chain from the head or skipped), the tail being allowed to replace a bundle that is not
//! there; versions unique per package; exactly one `olm.package` property (naming the bundle's
//! package, with a SemVer version) and an image per bundle; `skipRange` parses; no duplicate
//! packages, channels, bundles or entries; deprecations that reference what the package has
//! (`olm.deprecations`, operator-registry `declcfg_to_model.go`). One more, as a warning: images
//! pinned by digest.

mod bundles;
mod deprecations;
mod graph;

use std::collections::HashSet;

use super::model::*;
use crate::validate::text::Range;
use crate::{Finding, Level};

/// One rule: its id and the generic fix.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    /// The rule's id (`fbc-…`), as its findings name it.
    pub id: &'static str,
    pub(crate) level: Level,
    /// The generic fix, as its findings carry it.
    pub fix: &'static str,
}

macro_rules! rules {
    ($($(#[$doc:meta])* $name:ident = $id:literal, $level:ident, $fix:literal;)*) => {
        $($(#[$doc])* pub const $name: Rule = Rule { id: $id, level: Level::$level, fix: $fix };)*
        /// Every rule.
        pub const ALL: &[Rule] = &[$($name),*];
    };
}

rules! {
    /// Rule `fbc-package-name`: every `olm.package`, `olm.channel` and `olm.bundle` document names
    /// its package, and a bundle's `olm.package` property names the bundle's package.
    PACKAGE_NAME = "fbc-package-name", Error, "give every document its package's name, and every bundle an olm.package property naming that package";
    /// Rule `fbc-unknown-package`: the package a channel or bundle names has an `olm.package`
    /// document.
    UNKNOWN_PACKAGE = "fbc-unknown-package", Error, "add an olm.package document for the package, or correct the document's package field";
    /// Rule `fbc-duplicate`: each package, channel and bundle is defined once, and a channel lists
    /// each bundle once.
    DUPLICATE = "fbc-duplicate", Error, "keep one document per package, channel and bundle, and one entry per bundle in a channel";
    /// Rule `fbc-default-channel`: a package's `defaultChannel` is set and names one of its
    /// channels.
    DEFAULT_CHANNEL = "fbc-default-channel", Error, "set defaultChannel on the olm.package document to one of its channels";
    /// Rule `fbc-channels`: a package has a channel; every channel has a name and an entry, every
    /// entry a name, and no skip is empty.
    CHANNELS = "fbc-channels", Error, "every package needs a channel and every channel an entry";
    /// Rule `fbc-entry-bundle`: every entry has an `olm.bundle` document, and every bundle is an
    /// entry of a channel of its package.
    ENTRY_BUNDLE = "fbc-entry-bundle", Error, "add the olm.bundle document for the entry, or list the bundle in a channel";
    /// Rule `fbc-channel-head`: a channel has exactly one head (an entry no other entry replaces or
    /// skips).
    CHANNEL_HEAD = "fbc-channel-head", Error, "make every entry but the newest replaced or skipped by a newer one, so exactly one head remains";
    /// Rule `fbc-replaces-cycle`: the `replaces` chain from a channel's head has no cycle.
    REPLACES_CYCLE = "fbc-replaces-cycle", Error, "make replaces point from each bundle to an older one";
    /// Rule `fbc-stranded`: every entry is on the `replaces` chain from its channel's head or
    /// skipped by an entry.
    STRANDED = "fbc-stranded", Error, "put the bundle on the replaces chain from the head (have a newer entry replace it), or have an entry skip it";
    /// Rule `fbc-bundle-version`: a bundle's version is SemVer, and no two bundles of a package
    /// share one.
    BUNDLE_VERSION = "fbc-bundle-version", Error, "give every bundle of a package its own SemVer version in its olm.package property";
    /// Rule `fbc-package-property`: a bundle has exactly one `olm.package` property, with string
    /// `packageName` and `version`.
    PACKAGE_PROPERTY = "fbc-package-property", Error, "give the bundle exactly one olm.package property {packageName, version}";
    /// Rule `fbc-bundle-image`: a bundle has an `image`.
    BUNDLE_IMAGE = "fbc-bundle-image", Error, "set the bundle's image to its bundle image reference";
    /// Rule `fbc-skip-range`: an entry's `skipRange` parses as a semver range.
    SKIP_RANGE = "fbc-skip-range", Error, "write skipRange as comparisons such as \">=1.0.0 <1.2.0\", joined by spaces (and) or || (or)";
    /// Rule `fbc-deprecations`: a package has at most one `olm.deprecations` document, naming a
    /// package the catalog has, whose entries each reference the package (no name), one of its
    /// channels or one of its bundles, once each, with a message.
    DEPRECATIONS = "fbc-deprecations", Error, "keep one olm.deprecations document per package, each entry a reference {schema: olm.package | olm.channel | olm.bundle, name} to something the package has, once, with a message";
    /// Rule `fbc-image-digest`, a warning: a bundle's image is pinned by digest (`NAME@sha256:…`).
    IMAGE_DIGEST = "fbc-image-digest", Warning, "reference the bundle image by digest (NAME@sha256:…) so clusters pull what was validated";
}

/// Collects findings.
pub(super) struct Sink(Vec<Finding>);

impl Sink {
    pub(super) fn add(
        &mut self,
        rule: &Rule,
        at: &Origin,
        object: String,
        field: &str,
        message: String,
    ) {
        self.0.push(Finding {
            level: rule.level,
            rule: rule.id.into(),
            mirrors: "opm validate".into(),
            file: at.file.clone(),
            object,
            field: field.into(),
            message,
            fix: rule.fix.into(),
            accepted: None,
        });
    }
}

pub(super) fn obj_package(name: &str) -> String {
    format!("olm.package {name}")
}

pub(super) fn obj_channel(c: &ChannelDoc) -> String {
    format!("olm.channel {}/{}", c.package, c.name)
}

pub(super) fn obj_bundle(b: &BundleDoc) -> String {
    format!("olm.bundle {}/{}", b.package, b.name)
}

/// Validates the whole catalog; errors and warnings, in catalog order.
pub fn validate(catalog: &Catalog) -> Vec<Finding> {
    let mut sink = Sink(Vec::new());
    let packages = packages(catalog, &mut sink);
    let known: HashSet<&str> = packages.iter().map(|(n, _)| *n).collect();
    let mut seen_channels = HashSet::new();
    for c in &catalog.channels {
        let at = &c.origin;
        if c.package.is_empty() {
            let msg = format!("channel {:?} names no package", c.name);
            sink.add(&PACKAGE_NAME, at, obj_channel(c), "package", msg);
        } else if !known.contains(c.package.as_str()) {
            let msg = format!(
                "channel {} names package {}, which has no olm.package document",
                c.name, c.package
            );
            sink.add(&UNKNOWN_PACKAGE, at, obj_channel(c), "package", msg);
        }
        if c.name.is_empty() {
            let msg = format!("a channel of package {} has no name", c.package);
            sink.add(&CHANNELS, at, obj_channel(c), "name", msg);
        } else if !seen_channels.insert((c.package.as_str(), c.name.as_str())) {
            let msg = format!("package {} has channel {} twice", c.package, c.name);
            sink.add(&DUPLICATE, at, obj_channel(c), "name", msg);
        }
        entries(c, &mut sink);
    }
    bundles::bundles(catalog, &known, &mut sink);
    deprecations::deprecations(catalog, &known, &mut sink);
    for (name, p) in packages {
        package_rules(catalog, name, p, &mut sink);
    }
    for c in &catalog.channels {
        graph::channel(c, &mut sink);
    }
    sink.0
}

/// The findings of `findings` about `package`'s documents.
pub fn package_findings(findings: Vec<Finding>, package: &str) -> Vec<Finding> {
    let named = [
        obj_package(package),
        format!("olm.channel {package}/"),
        format!("olm.bundle {package}/"),
    ];
    findings
        .into_iter()
        .filter(|f| {
            f.object == named[0]
                || f.object.starts_with(&named[1])
                || f.object.starts_with(&named[2])
        })
        .collect()
}

/// Package names, duplicates and the first document of each name.
fn packages<'a>(catalog: &'a Catalog, sink: &mut Sink) -> Vec<(&'a str, &'a PackageDoc)> {
    let mut out: Vec<(&str, &PackageDoc)> = Vec::new();
    for p in &catalog.packages {
        if p.name.is_empty() {
            let msg = "an olm.package document has no name".to_string();
            sink.add(&PACKAGE_NAME, &p.origin, obj_package(""), "name", msg);
        } else if let Some((_, first)) = out.iter().find(|(n, _)| *n == p.name) {
            let msg = format!(
                "package {} is defined twice (first in {})",
                p.name, first.origin.file
            );
            sink.add(&DUPLICATE, &p.origin, obj_package(&p.name), "name", msg);
        } else {
            out.push((p.name.as_str(), p));
        }
    }
    out
}

fn entries(c: &ChannelDoc, sink: &mut Sink) {
    let mut seen = HashSet::new();
    for (i, e) in c.entries.iter().enumerate() {
        let field = |f: &str| format!("entries[{i}].{f}");
        if e.name.is_empty() {
            let msg = format!("entry {i} of channel {} has no name", c.name);
            sink.add(&CHANNELS, &c.origin, obj_channel(c), &field("name"), msg);
        } else if !seen.insert(e.name.as_str()) {
            let msg = format!(
                "channel {} of package {} lists {} twice",
                c.name, c.package, e.name
            );
            sink.add(&DUPLICATE, &c.origin, obj_channel(c), &field("name"), msg);
        }
        for (j, s) in e.skips.iter().enumerate() {
            if s.is_empty() {
                let msg = format!("{}: skip {j} is empty", e.name);
                sink.add(
                    &CHANNELS,
                    &c.origin,
                    obj_channel(c),
                    &field(&format!("skips[{j}]")),
                    msg,
                );
            }
        }
        if let Some(r) = &e.skip_range
            && let Err(why) = Range::parse(r)
        {
            let msg = format!("{}: skipRange {r:?} does not parse: {why}", e.name);
            sink.add(
                &SKIP_RANGE,
                &c.origin,
                obj_channel(c),
                &field("skipRange"),
                msg,
            );
        }
    }
}

fn package_rules(catalog: &Catalog, name: &str, p: &PackageDoc, sink: &mut Sink) {
    let channels: Vec<&ChannelDoc> = catalog.channels_of(name).collect();
    let names = || {
        let v: Vec<&str> = channels.iter().map(|c| c.name.as_str()).collect();
        v.join(", ")
    };
    if channels.is_empty() {
        let msg = format!("package {name} has no channel");
        sink.add(&CHANNELS, &p.origin, obj_package(name), "", msg);
    }
    match p.default_channel.as_deref() {
        None | Some("") => {
            let msg = format!(
                "package {name} has no defaultChannel (its channels: {})",
                names()
            );
            sink.add(
                &DEFAULT_CHANNEL,
                &p.origin,
                obj_package(name),
                "defaultChannel",
                msg,
            );
        }
        Some(d) if !channels.iter().any(|c| c.name == d) => {
            let msg = format!(
                "package {name} names defaultChannel {d}, which is not one of its channels ({})",
                names()
            );
            sink.add(
                &DEFAULT_CHANNEL,
                &p.origin,
                obj_package(name),
                "defaultChannel",
                msg,
            );
        }
        _ => {}
    }
    // Entries ↔ bundles.
    let bundles: HashSet<&str> = catalog.bundles_of(name).map(|b| b.name.as_str()).collect();
    let mut listed = HashSet::new();
    for c in &channels {
        if c.entries.is_empty() {
            let msg = format!("channel {} of package {name} has no entries", c.name);
            sink.add(&CHANNELS, &c.origin, obj_channel(c), "entries", msg);
        }
        for (i, e) in c.entries.iter().enumerate() {
            listed.insert(e.name.as_str());
            if !e.name.is_empty() && !bundles.contains(e.name.as_str()) {
                let msg = format!(
                    "channel {} of package {name} lists {}, which has no olm.bundle document",
                    c.name, e.name
                );
                sink.add(
                    &ENTRY_BUNDLE,
                    &c.origin,
                    obj_channel(c),
                    &format!("entries[{i}].name"),
                    msg,
                );
            }
        }
    }
    for b in catalog.bundles_of(name) {
        if !listed.contains(b.name.as_str()) {
            let msg = format!(
                "bundle {} of package {name} is in no channel's entries ({})",
                b.name,
                names()
            );
            sink.add(&ENTRY_BUNDLE, &b.origin, obj_bundle(b), "name", msg);
        }
    }
}
