//! Reading a bundle from the files of an unpacked blob or a folder: the flattened
//! `bundle.yaml` (one file) or a manifest tree (several), each text measured against the
//! bundle's `Budget` before it is parsed.

use serde_yaml_ng::Value;

use super::budget::Budget;
use super::error::ReadError;
use super::error::describe;
use super::model::{Contents, Limits};
use crate::{Bundle, DocKind, Manifest, PackageManifest, crd_file_name, csv_file_name, doc_kind};

/// What a flattened bundle is, for "expected …" messages.
pub(crate) const FLATTENED: &str = "a flattened bundle: a YAML mapping with a top-level 'data' key";

/// Reads a bundle from the files of an unpacked blob: one file = flattened `bundle.yaml`,
/// several = a nested or flat manifest tree.
pub fn read_bundle(files: &[(String, Vec<u8>)], limits: &Limits) -> Result<Bundle, ReadError> {
    read_contents(files, limits).map(|c| c.bundle)
}

/// [`read_bundle`] with the other objects a manifest tree holds beside its CSVs (a flattened
/// `bundle.yaml` holds none).
pub(crate) fn read_contents(
    files: &[(String, Vec<u8>)],
    limits: &Limits,
) -> Result<Contents, ReadError> {
    let budget = Budget::new(limits);
    match files {
        [] => Err(ReadError::Empty {
            what: "the archive".into(),
        }),
        [(path, content)] => flattened(path, content, &budget).map(Contents::bare),
        _ => read_tree(files, &budget),
    }
}

/// Parses a flattened `bundle.yaml` (`data.*` are YAML strings holding lists).
pub fn read_flattened(path: &str, content: &[u8], limits: &Limits) -> Result<Bundle, ReadError> {
    flattened(path, content, &Budget::new(limits))
}

pub(crate) fn utf8<'a>(path: &str, content: &'a [u8]) -> Result<&'a str, ReadError> {
    std::str::from_utf8(content).map_err(|_| ReadError::NotText {
        file: path.to_string(),
    })
}

fn flattened(path: &str, content: &[u8], budget: &Budget) -> Result<Bundle, ReadError> {
    let top = flattened_top(path, utf8(path, content)?, budget)?;
    let data = data_of(path, &top)?;
    let list = |key: &str, required: bool| -> Result<Vec<Value>, ReadError> {
        let field = format!("data.{key}");
        match data.get(key) {
            None | Some(Value::Null) if !required => Ok(Vec::new()),
            None | Some(Value::Null) => Err(ReadError::field(path, field, "is missing")),
            Some(Value::String(s)) => {
                let what = format!("{path}: {field}");
                budget.check_list(&what, s)?;
                match parse_flattened_list(&what, s)? {
                    Value::Sequence(items) => Ok(items),
                    Value::Null => Ok(Vec::new()),
                    other => Err(ReadError::field(
                        path,
                        field,
                        format!("must hold a YAML list, not {}", describe(&other)),
                    )),
                }
            }
            Some(other) => Err(ReadError::field(
                path,
                field,
                format!(
                    "must be a YAML string holding a list, not {}",
                    describe(other)
                ),
            )),
        }
    };
    let crds = list("customResourceDefinitions", false)?;
    let csvs = list("clusterServiceVersions", true)?;
    let mut packages = list("packages", true)?;
    if packages.len() != 1 {
        return Err(ReadError::field(
            path,
            "data.packages",
            format!("must hold exactly one package, found {}", packages.len()),
        ));
    }
    let package: PackageManifest =
        serde_yaml_ng::from_value(packages.remove(0)).map_err(|source| ReadError::Package {
            file: path.to_string(),
            field: "data.packages: ",
            source,
        })?;
    let named = |v: Value, csv: bool| {
        let m = Manifest::new("", v);
        let file = if csv {
            csv_file_name(m.name().unwrap_or("unnamed"))
        } else {
            crd_file_name(&m)
        };
        Manifest { file, ..m }
    };
    Ok(Bundle {
        package,
        csvs: csvs.into_iter().map(|v| named(v, true)).collect(),
        crds: crds.into_iter().map(|v| named(v, false)).collect(),
    })
}

/// The `data` mapping of a flattened bundle's outer document, or what was expected.
fn data_of<'v>(path: &str, top: &'v Value) -> Result<&'v Value, ReadError> {
    let shape = |found| ReadError::Shape {
        file: path.to_string(),
        expected: FLATTENED,
        found,
    };
    match top {
        Value::Mapping(m) => m
            .get("data")
            .ok_or_else(|| shape("a mapping with no top-level 'data' key")),
        other => Err(shape(describe(other))),
    }
}

/// The outer document of a flattened bundle, measured against `budget` unless it has the
/// shape this tool writes (three literal blocks, nothing to nest or count).
fn flattened_top(path: &str, text: &str, budget: &Budget) -> Result<Value, ReadError> {
    if let Some(v) = crate::flat_yaml::read(text) {
        return Ok(v);
    }
    budget.check(path, text)?;
    parse_single(path, text)
}

/// Checks, before anything parses them, that the files of one bundle are readable text within
/// the budget of `limits`; `flattened` says the single file is a flattened `bundle.yaml`,
/// whose outer document must then be a mapping and whose `data.*` strings are measured too.
/// Only `.yaml`/`.yml` files are looked at in a tree. What is wrong *inside* a readable bundle
/// (a missing `data` key, extra documents, bad manifests) is left to validation.
pub fn check_files<P: AsRef<str>, C: AsRef<[u8]>>(
    files: &[(P, C)],
    flattened: bool,
    limits: &Limits,
) -> Result<(), ReadError> {
    let budget = Budget::new(limits);
    if let (true, [(path, content)]) = (flattened, files) {
        return check_flattened(path.as_ref(), content.as_ref(), &budget);
    }
    for (path, content) in files {
        let path = path.as_ref();
        let yaml = path.ends_with(".yaml") || path.ends_with(".yml");
        if let (true, Ok(text)) = (yaml, std::str::from_utf8(content.as_ref())) {
            budget.check(path, text)?;
        }
    }
    Ok(())
}

fn check_flattened(path: &str, content: &[u8], budget: &Budget) -> Result<(), ReadError> {
    let text = utf8(path, content)?;
    let top = match crate::flat_yaml::read(text) {
        Some(v) => v,
        None => {
            budget.check(path, text)?;
            // The first document decides the shape; more documents are validation's finding.
            let first = serde_yaml_ng::Deserializer::from_str(text).next();
            match first {
                None => Value::Null,
                Some(doc) => <Value as serde::Deserialize>::deserialize(doc).map_err(|source| {
                    ReadError::Yaml {
                        file: path.to_string(),
                        source,
                    }
                })?,
            }
        }
    };
    if !top.is_mapping() {
        return Err(ReadError::Shape {
            file: path.to_string(),
            expected: FLATTENED,
            found: describe(&top),
        });
    }
    if let Some(Value::Mapping(data)) = top.get("data") {
        for (key, value) in data {
            if let (Some(key), Value::String(s)) = (key.as_str(), value) {
                budget.check_list(&format!("{path}: data.{key}"), s)?;
            }
        }
    }
    Ok(())
}

/// Parses a folder tree of manifests (flat or nested), classifying each YAML file by content.
fn read_tree(files: &[(String, Vec<u8>)], budget: &Budget) -> Result<Contents, ReadError> {
    let mut package = None;
    let (mut csvs, mut crds, mut objects) = (Vec::new(), Vec::new(), Vec::new());
    let yaml: Vec<&(String, Vec<u8>)> = files
        .iter()
        .filter(|(p, _)| p.ends_with(".yaml") || p.ends_with(".yml"))
        .collect();
    for (path, content) in &yaml {
        budget.check(path, utf8(path, content)?)?;
    }
    let parsed = parse_all(&yaml);
    for ((path, _), doc) in yaml.into_iter().zip(parsed) {
        let doc = doc?;
        let file = path.rsplit('/').next().unwrap_or(path).to_string();
        match doc_kind(&doc) {
            DocKind::Package => {
                if package.is_some() {
                    return Err(ReadError::SecondPackage { file: path.clone() });
                }
                package = Some(package_file(path, doc)?);
            }
            DocKind::Csv => csvs.push(Manifest::new(file, doc)),
            DocKind::Crd => once(&mut crds, Manifest::new(file, doc)),
            DocKind::Object => once(&mut objects, Manifest::new(file, doc)),
            DocKind::Other => {}
        }
    }
    let package = package.ok_or_else(|| ReadError::NoPackage {
        what: "the archive".into(),
    })?;
    Ok(Contents {
        bundle: Bundle {
            package,
            csvs,
            crds,
        },
        objects,
    })
}

/// Adds `m` unless the same document is there already (a tree's version folders repeat their
/// CRDs and objects).
pub(crate) fn once(list: &mut Vec<Manifest>, m: Manifest) {
    if !list.iter().any(|c| c.doc == m.doc) {
        list.push(m);
    }
}

pub(crate) fn package_file(path: &str, doc: Value) -> Result<PackageManifest, ReadError> {
    serde_yaml_ng::from_value(doc).map_err(|source| ReadError::Package {
        file: path.to_string(),
        field: "",
        source,
    })
}

/// Parses each file as one YAML document, on every core: a cumulative bundle's CSVs are
/// independent, and parsing them is most of the cost of reading a folder.
fn parse_all(files: &[&(String, Vec<u8>)]) -> Vec<Result<Value, ReadError>> {
    let one = |(path, content): &(String, Vec<u8>)| parse_single(path, utf8(path, content)?);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
    if threads < 2 || files.len() < 8 {
        return files.iter().map(|f| one(f)).collect();
    }
    let chunk = files.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let workers: Vec<_> = files
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(|f| one(f)).collect::<Vec<_>>()))
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    })
}

/// Parses the outer document of a flattened `bundle.yaml`: the fast reader when the text has
/// the shape this tool writes, else the general parser (same value either way). No budget is
/// applied: callers measure the text first (`check_files`, `Budget::check`).
pub fn parse_flattened_top(what: &str, text: &str) -> Result<Value, ReadError> {
    match crate::flat_yaml::read(text) {
        Some(v) => Ok(v),
        None => parse_single(what, text),
    }
}

/// Parses one `data.*` string of a flattened bundle (a YAML list): item by item when it has
/// the emitter's shape, else as one document (same value either way). No budget is applied:
/// callers measure the text first (`check_files`, `Budget::check`).
pub fn parse_flattened_list(what: &str, text: &str) -> Result<Value, ReadError> {
    match crate::flat_yaml::read_list(text) {
        Some(items) => Ok(Value::Sequence(items)),
        None => parse_single(what, text),
    }
}

/// Parses exactly one YAML document; several documents are refused. No budget is applied:
/// callers measure the text first (`Budget::check`).
pub fn parse_single<T: serde::de::DeserializeOwned>(
    what: &str,
    text: &str,
) -> Result<T, ReadError> {
    let mut docs = serde_yaml_ng::Deserializer::from_str(text);
    let first = docs.next().ok_or_else(|| ReadError::EmptyDocument {
        file: what.to_string(),
    })?;
    let value = T::deserialize(first).map_err(|source| ReadError::Yaml {
        file: what.to_string(),
        source,
    })?;
    if docs.next().is_some() {
        return Err(ReadError::SeveralDocuments {
            file: what.to_string(),
        });
    }
    Ok(value)
}
