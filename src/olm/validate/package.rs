//! The package file (checklist rules 13 and 14): a name, at least one channel, unique channel
//! names, each head an existing CSV, and a `defaultChannel` among the channels (required with
//! more than one). Parsing is lenient so that a malformed package still yields the other
//! findings. Also the modern profile's package-wide extras: bundle size and channel names.

use std::collections::BTreeSet;
use std::io::Write;

use serde_yaml_ng::Value;

use super::{At, Sink, rules};
use crate::olm::{Bundle, Channel, PackageManifest};

/// Reads a package document, reporting missing or mistyped fields.
pub fn parse(doc: &Value, file: &str, sink: &mut Sink) -> PackageManifest {
    let name = doc.get("packageName").and_then(Value::as_str).unwrap_or("");
    let at = At::new(file, if name.is_empty() { "(package)" } else { name });
    if name.is_empty() {
        sink.add(&rules::PACKAGE, &at, "packageName", "is missing or empty");
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

/// Rules 13 and 14 on the package of `bundle` (read from `file`).
pub fn check(bundle: &Bundle, file: &str, sink: &mut Sink) {
    let p = &bundle.package;
    let at = At::new(file, &p.package_name);
    if p.channels.is_empty() {
        sink.add(
            &rules::PACKAGE,
            &at,
            "channels",
            "lists no channel; OLM has nothing to subscribe to",
        );
    }
    let mut seen = BTreeSet::new();
    for c in &p.channels {
        if !c.name.is_empty() && !seen.insert(c.name.as_str()) {
            let msg = format!("channel {} is listed twice", c.name);
            sink.add(&rules::PACKAGE, &at, "channels", msg);
        }
        if !c.current_csv.is_empty() && bundle.csv(&c.current_csv).is_none() {
            let field = format!("channels[{}].currentCSV", c.name);
            let msg = format!(
                "names {}, which is not the metadata.name of any CSV in the bundle",
                c.current_csv
            );
            sink.add(&rules::PACKAGE_CURRENT_CSV, &at, &field, msg);
        }
        if sink.on(&rules::CHANNEL_NAME)
            && !["stable", "fast", "candidate"]
                .iter()
                .any(|p| c.name.starts_with(p))
        {
            let msg = format!(
                "channel {} does not start with stable, fast or candidate",
                c.name
            );
            sink.add(&rules::CHANNEL_NAME, &at, "channels", msg);
        }
    }
    match p.default_channel.as_deref().filter(|d| !d.is_empty()) {
        Some(d) if !seen.contains(d) => {
            let msg = format!(
                "names {d}, which is not a channel of the package ({})",
                names(p)
            );
            sink.add(&rules::DEFAULT_CHANNEL, &at, "defaultChannel", msg);
        }
        None if p.channels.len() > 1 => {
            let msg = format!(
                "is empty but the package has {} channels ({}); the registry fails to load it",
                p.channels.len(),
                names(p)
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

/// The modern api's size limit: the bundle's manifests, gzipped and base64-encoded, must stay
/// under 1 MiB (an error), and a warning above 85 % of it.
pub fn check_size(bundle: &Bundle, sink: &mut Sink) {
    const LIMIT: usize = 1024 * 1024;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let docs = bundle.csvs.iter().chain(&bundle.crds).map(|m| &m.doc);
    for doc in docs {
        if let Ok(text) = serde_yaml_ng::to_string(doc) {
            let _ = gz.write_all(text.as_bytes());
        }
    }
    let size = gz.finish().map(|b| b.len().div_ceil(3) * 4).unwrap_or(0);
    let at = At::new("(bundle)", &bundle.package.package_name);
    if size > LIMIT {
        let msg = format!("is {size} bytes gzipped and base64-encoded, over the 1 MiB limit");
        sink.add(&rules::BUNDLE_SIZE, &at, "", msg);
    } else if size > LIMIT * 85 / 100 {
        let msg =
            format!("is {size} bytes gzipped and base64-encoded, over 85 % of the 1 MiB limit");
        sink.add(&rules::BUNDLE_SIZE_NEAR, &at, "", msg);
    }
}
