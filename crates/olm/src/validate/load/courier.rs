//! How operator-courier 2.1.11 finds the bundles of a tree, where that differs from the
//! registry loader: courier reads CSVs only from the root (a flat bundle) or from the folders
//! right under it (one folder per version, `manifest_parser.is_manifest_folder`), while the
//! registry's directory loader walks the whole tree. A package whose version folders all keep
//! their CSV one level deeper (`0.3.0/manifests/`, the registry+v1 layout) is therefore refused
//! by courier ("not in valid flat or nested format") although the registry loads it.

use super::super::rules::{self, Tool};
use super::super::sink::{At, Sink};

/// Reports a tree of version folders in which no folder right under the root holds a CSV.
/// `bundles` are the bundle folders (relative paths, none of them the root).
pub(super) fn check_nested(bundles: &[String], sink: &mut Sink) {
    if bundles.is_empty() || bundles.iter().any(|b| !b.contains('/')) {
        return;
    }
    let example = &bundles[0];
    let msg = format!(
        "holds no CSV in its root or in a folder right under it (the CSVs are deeper, e.g. in {example}/); courier reads only those, so it refuses the tree (not in valid flat or nested format), though the registry loader reads it"
    );
    let fix = format!(
        "move each version's manifests up into its version folder (e.g. {}/), or publish them as bundle images",
        example.split('/').next().unwrap_or(example)
    );
    let except = [Tool::OperatorRegistry, Tool::Api];
    let at = At::new("(bundle)", "(tree)");
    sink.add_except_fix(&rules::BUNDLE_CSV, &except, &at, "", msg, fix);
}
