//! The package file: a name Quay accepts, at least one channel, unique channel names, each head
//! an existing CSV, and a `defaultChannel` among the channels (required with more than one).
//! Parsing is lenient so that a malformed package still yields the other findings. Also
//! operator-framework/api's bundle size limit and its channel-naming advice.

use std::collections::BTreeSet;
use std::io::Write;

use serde_yaml_ng::Value;

use super::model::Unit;
use super::rules;
use super::rules::Tool;
use super::sink::{At, Sink};
use crate::{Bundle, Channel, PackageManifest};

/// Reads a package document, reporting missing or mistyped fields.
pub(crate) fn parse(doc: &Value, file: &str, sink: &mut Sink) -> PackageManifest {
    let name = doc.get("packageName").and_then(Value::as_str).unwrap_or("");
    let at = At::new(file, if name.is_empty() { "(package)" } else { name });
    if name.is_empty() {
        sink.add(
            &rules::PACKAGE,
            &at,
            "packageName",
            "is missing or empty (packageName empty)",
        );
    } else if !quay_name(name) {
        let msg = format!(
            "{name} is not a name Quay's app registry accepts for a repository (lowercase letters, digits, '-', '_', '.')"
        );
        sink.add(&rules::PACKAGE_NAME, &at, "packageName", msg);
    }
    let mut channels = Vec::new();
    match doc.get("channels") {
        None | Some(Value::Null) => sink.add(&rules::PACKAGE, &at, "channels", "is missing"),
        Some(Value::Sequence(items)) => {
            for (i, c) in items.iter().enumerate() {
                let field = |f: &str| format!("channels[{i}].{f}");
                let get = |k: &str| c.get(k).and_then(Value::as_str).unwrap_or("").to_string();
                let (cname, head) = (get("name"), get("currentCSV"));
                if cname.is_empty() {
                    sink.add(&rules::PACKAGE, &at, &field("name"), "is missing or empty");
                }
                if head.is_empty() {
                    sink.add(
                        &rules::PACKAGE,
                        &at,
                        &field("currentCSV"),
                        "is missing or empty",
                    );
                }
                channels.push(Channel {
                    name: cname,
                    current_csv: head,
                });
            }
        }
        Some(_) => sink.add(
            &rules::PACKAGE,
            &at,
            "channels",
            "must be a list of {name, currentCSV}",
        ),
    }
    let default_channel = match doc.get("defaultChannel") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => {
            sink.add(
                &rules::DEFAULT_CHANNEL,
                &at,
                "defaultChannel",
                "must be a string",
            );
            None
        }
    };
    PackageManifest {
        package_name: name.to_string(),
        channels,
        default_channel,
    }
}

/// A repository name Quay's app registry accepts: lowercase alphanumerics first, then also
/// `-`, `_` and `.`.
fn quay_name(name: &str) -> bool {
    let b = name.as_bytes();
    !b.is_empty()
        && b.len() <= 255
        && (b[0].is_ascii_lowercase() || b[0].is_ascii_digit())
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || b"-_.".contains(c))
}

/// The package of `bundle` (read from `file`) against the bundle's CSVs.
pub fn check(bundle: &Bundle, file: &str, sink: &mut Sink) {
    let p = &bundle.package;
    let at = At::new(file, &p.package_name);
    if p.channels.is_empty() {
        sink.add(
            &rules::PACKAGE,
            &at,
            "channels",
            "lists no channel (no package channels defined); OLM has nothing to subscribe to",
        );
    }
    let mut seen = BTreeSet::new();
    let mut unconventional = Vec::new();
    for c in &p.channels {
        if !c.name.is_empty() && !seen.insert(c.name.as_str()) {
            let msg = format!("channel {} is listed twice", c.name);
            sink.add(&rules::PACKAGE, &at, "channels", msg);
        }
        if !c.current_csv.is_empty() && bundle.csv(&c.current_csv).is_none() {
            let field = format!("channels[{}].currentCSV", c.name);
            let msg = format!(
                "names {}, which is not the metadata.name of any CSV of the package (channel.currentCSV is not included in list of csvs)",
                c.current_csv
            );
            // courier checks heads only in a flat bundle.
            let except: &[Tool] = if sink.nested { &[Tool::Courier] } else { &[] };
            sink.add_except(&rules::PACKAGE_CURRENT_CSV, except, &at, &field, msg);
        }
        if !["stable", "fast", "candidate"]
            .iter()
            .any(|p| c.name.starts_with(p))
        {
            unconventional.push(format!("{:?}", c.name));
        }
    }
    if !unconventional.is_empty() {
        let msg = format!(
            "channel(s) [{}] are not following the recommended naming convention (stable, fast, candidate)",
            unconventional.join(" ")
        );
        sink.add(&rules::CHANNEL_NAME, &at, "channels", msg);
    }
    match p.default_channel.as_deref().filter(|d| !d.is_empty()) {
        Some(d) if !seen.contains(d) => {
            let msg = format!(
                "names {d}, which is not a channel of the package ({})",
                names(p)
            );
            // With one channel the registry ignores a wrong default.
            let except: &[Tool] = if p.channels.len() > 1 {
                &[]
            } else {
                &[Tool::OperatorRegistry]
            };
            sink.add_except(&rules::DEFAULT_CHANNEL, except, &at, "defaultChannel", msg);
        }
        None if p.channels.len() > 1 => {
            let msg = format!(
                "is missing but the package has {} channels ({}); the registry fails to load it (no default channel specified for {})",
                p.channels.len(),
                names(p),
                p.package_name
            );
            sink.add(&rules::DEFAULT_CHANNEL, &at, "defaultChannel", msg);
        }
        _ => {}
    }
}

fn names(p: &PackageManifest) -> String {
    p.channels
        .iter()
        .map(|c| c.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// operator-framework/api's size limit (`validateBundleSize`): the bundle's manifests, gzipped,
/// must stay under 1 MiB (an error: OLM unpacks a bundle into one ConfigMap), with a warning
/// above 85 % of it. api measures the gzip of the files as they are; this measures the gzip of
/// the manifests as parsed and written back (each CSV as the flattened bundle's list item, in
/// the canonical order, then the CRDs and the other objects), which differs from it only by
/// formatting. A bundle read one CSV at a time is measured the same way from the list items
/// it kept ([`check_size_of`]), so both give the same finding.
pub(crate) fn check_size(unit: &Unit, sink: &mut Sink) {
    let items: String = crate::canonical_csv_order(unit.csvs)
        .into_iter()
        .map(|i| crate::archive::csv_list_item(&unit.csvs[i]))
        .collect();
    check_size_of(&items, unit, sink);
}

/// [`check_size`] of a unit whose CSVs are given as their list items, `csv_items` (in the
/// canonical order); the unit's own CSVs (skeletons will do) name the bundle.
pub(crate) fn check_size_of(csv_items: &str, unit: &Unit, sink: &mut Sink) {
    const LIMIT: usize = 1024 * 1024;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let _ = gz.write_all(csv_items.as_bytes());
    for doc in unit.crds.iter().chain(unit.objects).map(|m| &m.doc) {
        if let Ok(text) = serde_yaml_ng::to_string(doc) {
            let _ = gz.write_all(text.as_bytes());
        }
    }
    let size = gz.finish().map(|b| b.len()).unwrap_or(0);
    // Named by its newest CSV, whatever order the CSVs were read in.
    let object = crate::canonical_csv_order(unit.csvs)
        .first()
        .and_then(|&i| unit.csvs[i].name())
        .unwrap_or("(bundle)");
    let at = At::new("(bundle)", object);
    if size > LIMIT {
        let msg = format!(
            "is {size} bytes gzipped, over the 1 MiB limit (maximum bundle compressed size with gzip size exceeded); OLM cannot unpack it into a ConfigMap"
        );
        sink.add(&rules::BUNDLE_SIZE, &at, "", msg);
    } else if size > LIMIT * 85 / 100 {
        let msg = format!(
            "is {size} bytes gzipped, over 85 % of the 1 MiB limit (nearing maximum bundle compressed size with gzip)"
        );
        sink.add(&rules::BUNDLE_SIZE_NEAR, &at, "", msg);
    }
}
