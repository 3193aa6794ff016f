//! Shared by the install tests: reading a bundle folder's files and a folder of expected
//! objects (`NN_<kind>_<name>.yaml`, one object per file, as operator-controller's
//! `test/regression/convert/generate-manifests.go` writes them), and comparing a rendering with
//! them object by object, as data.

use std::collections::BTreeMap;
use std::path::Path;

use olm_release_olm::cluster::{self, Options, RegistryV1};
use serde_yaml_ng::Value;

/// Every file under `dir/manifests` and `dir/metadata`, keyed `manifests/NAME`.
pub fn bundle_files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    for sub in ["manifests", "metadata"] {
        for entry in std::fs::read_dir(dir.join(sub)).expect("a bundle folder") {
            let entry = entry.unwrap();
            let name = entry.file_name().into_string().unwrap();
            files.insert(
                format!("{sub}/{name}"),
                std::fs::read(entry.path()).unwrap(),
            );
        }
    }
    files
}

/// The expected objects of a case folder, in file-name order.
pub fn expected(dir: &Path) -> Vec<(String, Value)> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("a case folder")
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".yaml"))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| {
            let text = std::fs::read_to_string(dir.join(&n)).unwrap();
            let doc: Value = serde_yaml_ng::from_str(&text).unwrap();
            (n, doc)
        })
        .collect()
}

/// The file name generate-manifests.go gives an object: `NN_<kind lowercased>_<name>.yaml`.
pub fn file_name(index: usize, object: &Value) -> String {
    let kind = object["kind"].as_str().unwrap_or_default().to_lowercase();
    let name = object["metadata"]["name"].as_str().unwrap_or_default();
    format!("{index:02}_{kind}_{name}.yaml")
}

/// Renders the bundle at `bundle` and compares it with the case folder `case`: the same file
/// names in the same order (so generated names and the sort order match), each object equal
/// as data ([`cluster::as_applied`]). Returns the differences, empty when equal.
pub fn compare(bundle: &Path, case: &Path, opts: &Options) -> Vec<String> {
    let b = RegistryV1::from_files(&bundle_files(bundle)).expect("the bundle reads");
    let got = match cluster::render(&b, opts) {
        Ok(got) => got,
        Err(e) => return vec![format!("{}: refused: {e}", case.display())],
    };
    let want = expected(case);
    let mut diffs = Vec::new();
    let got_names: Vec<String> = got
        .iter()
        .enumerate()
        .map(|(i, o)| file_name(i, o))
        .collect();
    let want_names: Vec<&String> = want.iter().map(|(n, _)| n).collect();
    if got_names.iter().collect::<Vec<_>>() != want_names {
        diffs.push(format!(
            "{}: objects differ\n  got:  {got_names:?}\n  want: {want_names:?}",
            case.display()
        ));
        return diffs;
    }
    for ((name, want), got) in want.iter().zip(&got) {
        if cluster::as_applied(want) != cluster::as_applied(got) {
            diffs.push(format!(
                "{}/{name} differs\n--- want\n{}--- got\n{}",
                case.display(),
                serde_yaml_ng::to_string(&cluster::as_applied(want)).unwrap(),
                serde_yaml_ng::to_string(&cluster::as_applied(got)).unwrap(),
            ));
        }
    }
    diffs
}
