//! Byte-identical object files: two files of the repository holding the same bytes (a Secret
//! copied beside itself) are one object; the bundle holds it once. Releasing both would put two
//! objects of one kind and name in the bundle, which the bundle-image stage refuses, and `init`
//! would write the duplicate's template back on every run. The first file in the scan's order is taken,
//! and `init` names the others.

use super::found::Found;
use super::scan::Scan;

/// Keeps one file of each set of byte-identical files among `found.objects`, noting the rest.
pub(crate) fn merge(scan: &Scan, found: &mut Found) {
    let text = |rel: &str| scan.file(rel).map(|f| f.text.trim_end().to_string());
    let mut kept: Vec<(String, Option<String>)> = Vec::new();
    let objects = std::mem::take(&mut found.objects);
    for rel in objects {
        let bytes = text(&rel);
        match kept.iter().find(|(_, b)| bytes.is_some() && *b == bytes) {
            Some((first, _)) => found.notes.push(format!(
                "{rel}: the same bytes as {first}, one object: taken once, from {first}"
            )),
            None => kept.push((rel, bytes)),
        }
    }
    found.objects = kept.into_iter().map(|(rel, _)| rel).collect();
}
