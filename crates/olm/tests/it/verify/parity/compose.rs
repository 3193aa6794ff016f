//! How each case of expectations.yaml becomes a bundle folder, as its `input` says: as is;
//! with the package file a registry+v1 bundle lacks; a single CSV wrapped with a package and
//! a CRD for each API it owns; a CRD or another object placed into operator-framework/api's
//! valid bundle; one file alone; a subset of a folder's files.

use std::path::{Path, PathBuf};

use serde_yaml_ng::Value;

use super::Case;
use crate::support;

/// Where the composed bundle is, kept alive with its temporary folder.
pub(super) struct Input {
    pub(super) path: PathBuf,
    _tmp: Option<tempfile::TempDir>,
}

fn write_yaml(path: &Path, v: &Value) {
    std::fs::write(path, serde_yaml_ng::to_string(v).unwrap()).unwrap();
}

fn read_yaml(path: &Path) -> Value {
    serde_yaml_ng::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The CSVs under `dir` (any depth), read.
fn csvs_in(dir: &Path) -> Vec<Value> {
    support::list_files(dir)
        .into_iter()
        .filter(|f| f.ends_with(".yaml") || f.ends_with(".yml"))
        .filter_map(|f| {
            serde_yaml_ng::from_str::<Value>(&std::fs::read_to_string(dir.join(f)).ok()?).ok()
        })
        .filter(|d| d["kind"] == "ClusterServiceVersion")
        .collect()
}

/// Writes the package file a registry+v1 bundle lacks: named by its metadata/annotations.yaml
/// when it has one, else after the CSV's name; one channel whose head is the CSV.
fn add_package(dir: &Path) {
    let csvs = csvs_in(dir);
    let head = csvs
        .iter()
        .filter_map(|c| c["metadata"]["name"].as_str())
        .next_back()
        .expect("a CSV to head the channel")
        .to_string();
    let ann = dir.join("metadata/annotations.yaml");
    let (package, channel) = if ann.is_file() {
        let a = &read_yaml(&ann)["annotations"];
        let get = |k: &str| a[k].as_str().unwrap().to_string();
        (
            get("operators.operatorframework.io.bundle.package.v1"),
            get("operators.operatorframework.io.bundle.channels.v1"),
        )
    } else {
        let name = head.split_once('.').map_or(head.as_str(), |(n, _)| n);
        (name.to_string(), "stable".to_string())
    };
    let doc: Value = serde_yaml_ng::from_str(&format!(
        "packageName: {package}\nchannels:\n- name: {channel}\n  currentCSV: {head}\ndefaultChannel: {channel}\n"
    ))
    .unwrap();
    write_yaml(&dir.join(format!("{package}.package.yaml")), &doc);
}

/// One CRD per owned name of `csv`, defining the versions and kind the CSV owns.
fn crds_for(csv: &Value, dir: &Path) {
    let owned = csv["spec"]["customresourcedefinitions"]["owned"]
        .as_sequence()
        .cloned()
        .unwrap_or_default();
    let mut by_name: Vec<(String, String, Vec<String>)> = Vec::new();
    for o in owned {
        let (Some(name), Some(kind), Some(version)) = (
            o["name"].as_str(),
            o["kind"].as_str(),
            o["version"].as_str(),
        ) else {
            continue;
        };
        match by_name.iter_mut().find(|(n, _, _)| n == name) {
            Some((_, _, vs)) => vs.push(version.into()),
            None => by_name.push((name.into(), kind.into(), vec![version.into()])),
        }
    }
    for (name, kind, versions) in by_name {
        let (plural, group) = name.split_once('.').unwrap();
        let versions: Vec<String> = versions
            .iter()
            .enumerate()
            .map(|(i, v)| {
                format!(
                    "  - name: {v}\n    served: true\n    storage: {}\n    schema: {{openAPIV3Schema: {{type: object}}}}\n",
                    i == 0
                )
            })
            .collect();
        let text = format!(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: {name}\nspec:\n  group: {group}\n  names:\n    kind: {kind}\n    plural: {plural}\n  scope: Namespaced\n  versions:\n{}",
            versions.concat()
        );
        std::fs::write(dir.join(format!("{name}.crd.yaml")), text).unwrap();
    }
}

/// api's internal/testdata/valid_bundle, copied, the base of the composed cases.
fn valid_bundle(suites: &Path, into: &Path) {
    let base = suites.join("api/pkg/validation/internal/testdata/valid_bundle");
    support::copy_dir(&base, into);
}

/// Makes the case's bundle folder as its `input` says.
pub(super) fn compose(suites: &Path, c: &Case) -> Input {
    let src = suites.join(&c.suite).join(&c.path);
    if c.input == "asis" {
        return Input {
            path: src,
            _tmp: None,
        };
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("bundle");
    std::fs::create_dir_all(&dir).unwrap();
    let name = |p: &Path| p.file_name().unwrap().to_owned();
    match c.input.as_str() {
        "add-package" => {
            support::copy_dir(&src, &dir);
            add_package(&dir);
        }
        "wrap-csv" => {
            std::fs::copy(&src, dir.join(name(&src))).unwrap();
            crds_for(&read_yaml(&src), &dir);
            add_package(&dir);
        }
        "swap-crd" => {
            valid_bundle(suites, &dir);
            let crd = read_yaml(&src);
            let crd_name = crd["metadata"]["name"].as_str().unwrap();
            for f in support::list_files(&dir) {
                let doc = read_yaml(&dir.join(&f));
                if doc["metadata"]["name"].as_str() == Some(crd_name) {
                    std::fs::remove_file(dir.join(&f)).unwrap();
                }
            }
            std::fs::copy(&src, dir.join(name(&src))).unwrap();
            add_package(&dir);
        }
        "with-object" => {
            valid_bundle(suites, &dir);
            std::fs::copy(&src, dir.join(name(&src))).unwrap();
            add_package(&dir);
        }
        "only-file" => {
            std::fs::copy(&src, dir.join(name(&src))).unwrap();
        }
        "subset" => {
            for f in &c.files {
                std::fs::copy(src.join(f), dir.join(f)).unwrap();
            }
        }
        other => panic!("{}: unknown input {other}", c.id),
    }
    Input {
        path: dir,
        _tmp: Some(tmp),
    }
}
