//! Loading a flattened `bundle.yaml` (the app registry's one-file form):
//! `data.customResourceDefinitions`, `data.clusterServiceVersions` and `data.packages`, each a
//! YAML string holding a list. It is one flat bundle. A top level without `data` is read as
//! courier reads it: a bundle with no CSV and no package.

use serde_yaml_ng::Value;

use super::{Folder, Loaded};
use crate::validate::sink::{At, Sink};
use crate::validate::{package, rules};
use crate::{Manifest, archive, crd_file_name, csv_file_name};

/// Loads a flattened `bundle.yaml` (`name` names it in findings) as one flat bundle; what is wrong
/// with its form is added to `sink` as findings, and what cannot be read is left out.
pub fn flattened(name: &str, bytes: &[u8], sink: &mut Sink) -> Loaded {
    let at = At::new(name, "bundle");
    let format = |field: &str, msg: String, sink: &mut Sink| {
        sink.add(&rules::BUNDLE_FORMAT, &at, field, msg);
    };
    let top: Value = match std::str::from_utf8(bytes)
        .map_err(|_| "is not UTF-8 text".to_string())
        .and_then(|t| archive::parse_flattened_top(name, t).map_err(|e| e.to_string()))
    {
        Ok(v) => v,
        Err(e) => {
            format("", e, sink);
            return Loaded::default();
        }
    };
    let empty = Value::Mapping(Default::default());
    let data = top.get("data").unwrap_or(&empty);
    let list = |key: &str, sink: &mut Sink| -> Vec<Value> {
        let field = format!("data.{key}");
        let items = match data.get(key) {
            None | Some(Value::Null) => return Vec::new(),
            Some(Value::String(s)) => match archive::parse_flattened_list(&field, s) {
                Ok(v) => v,
                Err(e) => {
                    format(&field, e.to_string(), sink);
                    return Vec::new();
                }
            },
            Some(other) => {
                format(
                    &field,
                    "must be a YAML string holding a list (consumers parse the string)".into(),
                    sink,
                );
                other.clone()
            }
        };
        match items {
            Value::Sequence(items) => items,
            Value::Null => Vec::new(),
            _ => {
                format(&field, "must hold a YAML list".into(), sink);
                Vec::new()
            }
        }
    };
    let crds = list("customResourceDefinitions", sink);
    let csvs = list("clusterServiceVersions", sink);
    let packages = list("packages", sink);
    let named = |v: Value, csv: bool| {
        let m = Manifest::new("", v);
        let file = if csv {
            csv_file_name(m.name().unwrap_or("unnamed"))
        } else {
            crd_file_name(&m)
        };
        Manifest { file, ..m }
    };
    let folder = Folder {
        path: String::new(),
        csvs: csvs.into_iter().map(|v| named(v, true)).collect(),
        crds: crds.into_iter().map(|v| named(v, false)).collect(),
        objects: Vec::new(),
    };
    if folder.csvs.is_empty() {
        let msg = "holds no ClusterServiceVersion (data.clusterServiceVersions)";
        sink.add(&rules::BUNDLE_CSV, &at, "data.clusterServiceVersions", msg);
    }
    match packages.len() {
        0 => sink.add(
            &rules::PACKAGE,
            &at,
            "data.packages",
            "holds no package (data.packages)",
        ),
        1 => {}
        n => {
            let msg = format!("holds {n} packages; a bundle holds exactly one");
            sink.add(&rules::PACKAGE, &at, "data.packages", msg);
        }
    }
    let package = packages.first().map(|doc| {
        let p = package::parse(doc, name, sink);
        (p.file_name(), p)
    });
    Loaded {
        package,
        folders: vec![folder],
        nested: false,
    }
}
